package dev.fdl.check;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.ReadableCatalog;
import dev.fdl.store.CountingStore;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.S3MockServer;
import dev.fdl.store.S3Store;
import dev.fdl.store.UsesS3Mock;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Row constraints checked on the rows a version added (docs/checks.md, "Incremental checking") on a
 * repository in S3 (S3Mock) fetch only the data files the version added and their delete files,
 * counted at the store, not the parent's files the version still shows; and they still find a
 * violation among the added rows. A table a key constraint reads is fetched whole.
 */
@UsesS3Mock
class IncrementalChecksOnS3Test {
    private static final PrintWriter NOWHERE = new PrintWriter(new StringWriter());
    private static final String MAX = """
            {"name": "d", "resources": [{"name": "t", "schema": {"fields": [{"name": "x", "constraints": {"maximum": 1000}}]}}]}
            """;

    @TempDir Path dir;

    @Test
    void checksOnAddedRowsFetchOnlyTheAddedFiles() throws Exception {
        try (S3Store s3 = S3MockServer.shared().newStore()) {
            Versions v = twoVersions(s3);
            CountingStore counted = new CountingStore(s3);
            CheckReport r = Checks.run(DuckDbPool.shared(), target(counted, v.second, MAX), new Checks.Parent(descriptor(MAX), v.since, v.held),
                    Checks.Options.DEFAULT, List.of(), NOWHERE);

            assertThat(r.incremental()).isTrue();
            assertThat(rowChecks(r)).singleElement().satisfies(c -> assertThat(c.count()).isEqualTo(1)); // the one added row over 1000
            Set<String> added = new HashSet<>(files(v.second));
            added.removeAll(files(v.first));
            assertThat(added).isNotEmpty();
            assertThat(new HashSet<>(dataReads(counted))).as("data and delete files fetched").isEqualTo(prefixed(added));
        }
    }

    @Test
    void aTableAKeyConstraintReadsIsFetchedWhole() throws Exception {
        String withKey = """
                {"name": "d", "resources": [{"name": "t", "schema": {"primaryKey": ["k"],
                  "fields": [{"name": "k"}, {"name": "x", "constraints": {"maximum": 1000}}]}}]}
                """;
        try (S3Store s3 = S3MockServer.shared().newStore()) {
            Versions v = twoVersions(s3);
            CountingStore counted = new CountingStore(s3);
            CheckReport r = Checks.run(DuckDbPool.shared(), target(counted, v.second, withKey),
                    new Checks.Parent(descriptor(withKey), v.since, v.held), Checks.Options.DEFAULT, List.of(), NOWHERE);
            assertThat(rowChecks(r)).singleElement().satisfies(c -> assertThat(c.count()).isEqualTo(1));
            assertThat(new HashSet<>(dataReads(counted))).isEqualTo(prefixed(files(v.second)));
        }
    }

    /** A parent version (rows 0..1999, x = k % 1000) and a child that adds rows 2000..2099, one of them with x over 1000. */
    private record Versions(Path first, Path second, long since, Set<String> held) {}

    private Versions twoVersions(S3Store s3) throws Exception {
        Path sqlite = dir.resolve("w.sqlite");
        EmptyCatalog.create(sqlite, CatalogKind.SQLITE, s3.location("data/"));
        sync(s3, sqlite, IntStream.range(0, 2000).mapToObj(k -> k + "," + (k % 1000)).toList(), List.of("k"));
        Path first = dir.resolve("v1.duckdb");
        CatalogConverter.convert(sqlite, first, CatalogKind.DUCKDB, ProgressListener.NONE);
        sync(s3, sqlite, IntStream.range(0, 2100).mapToObj(k -> k + "," + (k == 2050 ? 5000 : k % 1000)).toList(), null);
        Path second = dir.resolve("v2.duckdb");
        CatalogConverter.convert(sqlite, second, CatalogKind.DUCKDB, ProgressListener.NONE);
        long since;
        try (CatalogInspector c = CatalogInspector.open(first)) {
            since = c.lastSnapshotId() + 1;
        }
        CheckReport parent = Checks.run(DuckDbPool.shared(), target(s3, first, MAX), null, Checks.Options.DEFAULT, List.of(), NOWHERE);
        assertThat(parent.failed()).isEmpty();
        return new Versions(first, second, since, parent.held());
    }

    /** What the checks of {@code descriptor} read, the data files fetched into a mirror as {@link RepoChecks} does. */
    private Checks.Target target(ObjectStore store, Path catalog, String descriptor) throws Exception {
        ReadableCatalog.DataFiles files = new ReadableCatalog.DataFiles(store, "data/", dir.resolve("mirror-" + catalog.getFileName()));
        Checks.DataPath data = new Checks.DataPath() {
            @Override
            public String forTables(Set<String> tables) {
                return ReadableCatalog.version(catalog).dataPath(DuckDbPool.shared(), files, null, tables);
            }

            @Override
            public void fetch(Collection<String> locations) {
                files.fetchLocations(locations, "catalog " + catalog);
            }
        };
        return new Checks.Target(catalog, data, descriptor(descriptor), "dataset.json");
    }

    /** The failed checks of table t's rows (the guards compare descriptions this test does not fill). */
    private static List<CheckResult> rowChecks(CheckReport r) {
        return r.failed().stream().filter(c -> "t".equals(c.table())).toList();
    }

    private static ObjectNode descriptor(String json) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(json);
    }

    /** The data and delete files {@code catalog} shows at its newest snapshot, relative to the data folder. */
    private static List<String> files(Path catalog) {
        return BuiltInReader.requiredFiles(DuckDbPool.shared(), catalog, null);
    }

    private static Set<String> prefixed(Collection<String> files) {
        Set<String> out = new HashSet<>();
        for (String f : files) out.add("data/" + f);
        return out;
    }

    /** The keys under {@code data/} whose content the store was asked for. */
    private static List<String> dataReads(CountingStore counted) {
        List<String> out = new ArrayList<>();
        for (String key : counted.contentReads) if (key.startsWith("data/")) out.add(key);
        return out;
    }

    private void sync(ObjectStore store, Path catalog, List<String> rows, List<String> key) throws Exception {
        Path file = Files.createTempFile(dir, "src-", ".csv");
        Files.writeString(file, "k,x\n" + String.join("\n", rows) + "\n");
        new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(catalog, store, "data/", file, "t", ImportMode.SYNC)
                .withKeys(key).withAuthor("tester").withMessage("sync").withCacheDir(dir.resolve("sync-cache")));
    }
}
