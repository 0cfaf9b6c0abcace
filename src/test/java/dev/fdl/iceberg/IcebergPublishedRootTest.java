package dev.fdl.iceberg;

import dev.fdl.ducklake.FixtureCopies;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/iceberg.md "Locations": metadata written for a repository published under another root URL
 * names every file under that URL: the table location, the manifest list, the manifests, the data
 * files, the positional delete file and the inlined rows' file, each read back with Iceberg's own
 * readers (the towns fixture has a delete file, inlined rows and inlined deletes).
 */
class IcebergPublishedRootTest {
    static final String VERSION = "01a24600-0000-7000-8000-000000000002";
    static final String ROOT = "http://127.0.0.1:1/published/towns/";

    @TempDir Path tmp;

    @Test
    void everyPathTheMetadataNamesIsUnderThePublishedRoot() throws Exception {
        FixtureCopies.Copy towns = FixtureCopies.townsWithSnapshot16(tmp);
        ObjectStore store = Stores.open(towns.dir().toString());
        Repository repo = Repository.init(store, new RefName("main"));
        new IcebergMetadataWriter(DuckDbPool.shared(), repo)
                .write(VERSION, towns.catalog(), new IcebergMetadataWriter.Target(store, "", ROOT), Files.createDirectories(tmp.resolve("scratch")));
        FileIO io = new PublishedFileIO(towns.dir());
        for (String table : List.of("main/towns", "geo/rivers")) {
            String[] st = table.split("/");
            String key = IcebergMetadataWriter.metadataKey(VERSION, st[0], st[1]);
            TableMetadata m = TableMetadataParser.read(io, ROOT + key);
            List<String> named = new ArrayList<>(List.of(m.location()));
            Snapshot s = m.currentSnapshot();
            named.add(s.manifestListLocation());
            List<String> contents = new ArrayList<>();
            for (ManifestFile mf : s.allManifests(io)) {
                named.add(mf.path());
                if (mf.content() == org.apache.iceberg.ManifestContent.DATA) {
                    try (CloseableIterable<DataFile> files = ManifestFiles.read(mf, io, m.specsById())) {
                        for (DataFile f : files) contents.add(f.location());
                    }
                } else {
                    try (CloseableIterable<DeleteFile> files = ManifestFiles.readDeleteManifest(mf, io, m.specsById())) {
                        for (DeleteFile f : files) contents.add(f.location());
                    }
                }
            }
            named.addAll(contents);
            assertThat(named).as(table).allMatch(p -> p.startsWith(ROOT), "under " + ROOT);
            // every file named is one the repository has, at the same key
            for (String p : named.subList(1, named.size())) assertThat(towns.dir().resolve(p.substring(ROOT.length()))).as(p).exists();
            if (table.equals("main/towns")) {
                assertThat(contents).as("the delete file and the inlined rows' file")
                        .anyMatch(p -> p.contains("/data/deletes-")).anyMatch(p -> p.contains("/data/inlined-"));
            }
        }
    }

    /** Reads {@link #ROOT} URLs from the repository's folder, as a reader of the published copy would. */
    static final class PublishedFileIO extends LocalFileIO {
        private final Path folder;

        PublishedFileIO(Path folder) {
            this.folder = folder;
        }

        @Override
        public InputFile newInputFile(String path) {
            if (!path.startsWith(ROOT)) throw new IllegalArgumentException("not under the published root: " + path);
            return super.newInputFile(folder.resolve(path.substring(ROOT.length())).toUri().toString());
        }
    }
}
