package dev.fdl.iceberg;

import dev.fdl.cli.Cli;
import dev.fdl.repo.Repository;
import dev.fdl.serve.RepoServer;
import dev.fdl.site.SiteOptions;
import dev.fdl.store.S3MockServer;
import dev.fdl.store.S3Store;
import dev.fdl.store.UsesS3Mock;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/iceberg.md, "REST catalog": {@code fdl serve} over a repository on S3 (S3Mock) answers the
 * REST catalog so that Iceberg's own client, reading files with Iceberg's {@code S3FileIO}, reads
 * every ref equal to {@code fdl query}: the served metadata names {@code s3://} locations in the
 * repository's bucket, every file it names (manifest lists, manifests, data and delete files) is
 * an object there, and the served config tells the client the store's endpoint, addressing and
 * region, never credentials.
 */
@UsesS3Mock
class IcebergRestCatalogOnS3Test {
    @TempDir Path dir;

    @Test
    void icebergsS3ReaderReadsEveryRefOfAnS3RepositoryThroughFdlServe() throws Exception {
        S3MockServer s3 = S3MockServer.shared();
        s3.installSystemProperties();
        String root = s3.newRoot();
        Path wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(dir, "init", "--iceberg", root);
        Cli.ok(wc, "checkout", "--repo", root);
        Cli.ok(wc, "import", csv("a", "k,v\n1,one\n2,two\n3,three\n").toString(), "--table", "t", "--mode", "sync", "--key", "k");
        Cli.ok(wc, "commit", "-m", "one");
        Cli.ok(wc, "tag", "v1");
        Cli.ok(wc, "import", csv("b", "k,v\n1,one\n2,TWO\n4,four\n").toString(), "--table", "t", "--mode", "sync");
        Cli.ok(wc, "commit", "-m", "two");

        try (S3Store store = s3.store(root, s3.config());
             RepoServer server = RepoServer.start(store, SiteOptions.of(Repository.open(store).config()), "127.0.0.1", 0);
             RESTCatalog catalog = new RESTCatalog()) {
            // the reader's own credentials; endpoint, addressing and region come from the served config. Iceberg's
            // S3-only client factory: its default one also loads the KMS, STS, Glue and DynamoDB SDKs, not on this class path
            catalog.initialize("fdl", Map.of(CatalogProperties.URI, server.url().toString(),
                    CatalogProperties.FILE_IO_IMPL, S3FileIO.class.getName(),
                    "s3.client-factory-impl", "org.apache.iceberg.aws.s3.DefaultS3FileIOAwsClientFactory",
                    "s3.access-key-id", S3MockServer.ACCESS_KEY, "s3.secret-access-key", S3MockServer.SECRET_KEY));
            assertThat(catalog.properties()).containsEntry("s3.endpoint", s3.endpoint().toString())
                    .containsEntry("s3.path-style-access", "true").containsEntry("client.region", S3MockServer.REGION);
            String config = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    server.url().resolve("v1/config")).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            assertThat(config).doesNotContain(S3MockServer.ACCESS_KEY).doesNotContain(S3MockServer.SECRET_KEY)
                    .doesNotContainIgnoringCase("secret").doesNotContainIgnoringCase("access-key");

            Table t = catalog.loadTable(TableIdentifier.of("main", "t"));
            assertThat(t.io()).isInstanceOf(S3FileIO.class);
            assertThat(t.location()).startsWith(root);
            assertThat(t.refs().keySet()).containsExactlyInAnyOrder("main", "v1");
            List<String> atTag = IcebergRows.icebergAt(t, "v1"), atMain = IcebergRows.icebergAt(t, "main");
            assertThat(atTag).isEqualTo(IcebergRows.fdl(wc, root, "v1", "t")).hasSize(3);
            assertThat(atMain).isEqualTo(IcebergRows.fdl(wc, root, "main", "t")).hasSize(3).isNotEqualTo(atTag);

            List<String> named = new ArrayList<>();
            for (Snapshot snap : t.snapshots()) named.addAll(filesOf(t, snap));
            assertThat(named).anyMatch(u -> u.endsWith(".parquet"));
            for (String url : named) {
                assertThat(url).as("a file the metadata names").startsWith(root);
                assertThat(store.stat(url.substring(root.length()))).as(url + " in the bucket").isPresent();
            }
        }
    }

    /** Every file a snapshot names: its manifest list, its manifests and their data and delete files. */
    private static List<String> filesOf(Table t, Snapshot snap) throws Exception {
        List<String> out = new ArrayList<>();
        out.add(snap.manifestListLocation());
        for (ManifestFile m : snap.allManifests(t.io())) {
            out.add(m.path());
            if (m.content() == org.apache.iceberg.ManifestContent.DATA) {
                try (CloseableIterable<DataFile> files = ManifestFiles.read(m, t.io(), t.specs())) {
                    for (ContentFile<?> f : files) out.add(f.location());
                }
            } else {
                try (CloseableIterable<DeleteFile> files = ManifestFiles.readDeleteManifest(m, t.io(), t.specs())) {
                    for (ContentFile<?> f : files) out.add(f.location());
                }
            }
        }
        return out;
    }

    private Path csv(String name, String text) throws Exception {
        Path p = dir.resolve(name + ".csv");
        Files.writeString(p, text);
        return p;
    }
}
