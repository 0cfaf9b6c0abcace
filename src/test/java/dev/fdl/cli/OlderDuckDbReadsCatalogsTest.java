package dev.fdl.cli;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.engine.DuckDbStorage;
import dev.fdl.ducklake.ProgressListener;

import dev.fdl.store.ChildJvm;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Committed catalogs stay readable by DuckDB 1.5: fdl runs on DuckDB 2.0, whose default
 * storage version 1.5 cannot open, so catalogs are written as storage v1.5.0 with 16 KiB blocks (64 KiB for large ones).
 * DuckDB 1.5's JDBC driver (fetched by Maven into target/, never on fdl's classpath) opens every
 * committed catalog in a child JVM and reads every table with the same rows DuckDB 2.0 reads.
 */
class OlderDuckDbReadsCatalogsTest {
    @TempDir Path dir;
    Path root, wc, m1, m2;

    @BeforeEach
    void setUp() throws Exception {
        root = dir.resolve("repo");
        wc = dir.resolve("wc");
        Files.createDirectories(wc);
        m1 = WorkflowCliTest.month(dir, "2024-10-04");
        m2 = WorkflowCliTest.month(dir, "2024-12-01");
    }

    @Test
    void duckDb15OpensEveryCommittedCatalogAndReadsEveryTableAsDuckDb20Does() throws Exception {
        Cli.ok(dir, "init", root.toString());
        commitTwoVersions();
        List<Path> catalogs = catalogs();
        assertThat(catalogs).hasSize(2);
        for (Path c : catalogs) {
            assertThat(Files.readString(c.resolveSibling("version.json"))).containsPattern("\"storage\"\\s*:\\s*\"duckdb-v1.5.0\"");
            // 16 KiB blocks: a few hundred KB (DemoTest pins the demo's 400 KB); 256 KiB blocks made 3.4 MB or more
            assertThat(Files.size(c)).as("compact catalog " + c).isLessThan(1_000_000);
        }

        List<String> expected = new ArrayList<>();
        try (Connection duck = dev.fdl.ducklake.engine.DuckDbPool.connect()) {
            for (Path c : catalogs) expected.addAll(CatalogTableDump.dump(duck, c.toString()));
        }
        assertThat(expected).anyMatch(l -> l.contains(" ducklake_data_file 2 ")).anyMatch(l -> l.contains(" ducklake_snapshot "));

        ChildJvm.Result older = readWithDuckDb15(catalogs);
        assertThat(older.exitCode()).as(older.output()).isZero();
        List<String> lines = older.output().lines().toList();
        assertThat(lines.get(0)).startsWith("duckdb v1.5.");
        assertThat(lines.subList(1, lines.size())).containsExactlyElementsOf(expected);
    }

    /** A large catalog is written with 64 KiB blocks (DuckDbStorage.forCatalog); DuckDB 1.5 reads those too. */
    @Test
    void duckDb15ReadsALargeCatalogWrittenWithLargerBlocks() throws Exception {
        Path sqlite = dir.resolve("large.sqlite");
        EmptyCatalog.create(sqlite, CatalogKind.SQLITE, "/data/");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite); Statement s = c.createStatement()) {
            s.execute("INSERT INTO ducklake_file_column_stats (data_file_id, table_id, column_id, value_count, min_value, max_value)"
                    + " WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + DuckDbStorage.LARGE_TABLE_ROWS + ")"
                    + " SELECT i, 1 + i % 3, i % 7, i * 3, 'v' || i, NULL FROM n");
        }
        Path large = dir.resolve("large.duckdb");
        CatalogConverter.convert(sqlite, large, CatalogKind.DUCKDB, ProgressListener.NONE);

        List<String> expected;
        try (Connection duck = dev.fdl.ducklake.engine.DuckDbPool.connect(); Statement s = duck.createStatement()) {
            s.execute("ATTACH '" + large + "' AS big (READ_ONLY)");
            try (ResultSet r = s.executeQuery("SELECT block_size FROM pragma_database_size() WHERE database_name = 'big'")) {
                assertThat(r.next()).isTrue();
                assertThat(r.getLong(1)).as("block size").isEqualTo(DuckDbStorage.LARGE_BLOCK_SIZE).isEqualTo(65_536);
            }
            s.execute("DETACH big");
            expected = CatalogTableDump.dump(duck, large.toString());
        }
        assertThat(expected).anyMatch(l -> l.contains(" ducklake_file_column_stats " + DuckDbStorage.LARGE_TABLE_ROWS + " "));

        ChildJvm.Result older = readWithDuckDb15(List.of(large));
        assertThat(older.exitCode()).as(older.output()).isZero();
        List<String> lines = older.output().lines().toList();
        assertThat(lines.get(0)).startsWith("duckdb v1.5.");
        assertThat(lines.subList(1, lines.size())).containsExactlyElementsOf(expected);
    }

    @Test
    void aRepositoryThatOptsIntoStorageV200CommitsCatalogsDuckDb15CannotOpen() throws Exception {
        Cli.ok(dir, "init", root.toString(), "--catalog-storage", "duckdb-v2.0.0");
        assertThat(Files.readString(root.resolve("fdl.json"))).containsPattern("\"catalog_storage\"\\s*:\\s*\"duckdb-v2.0.0\"");
        Cli.ok(wc, "checkout", "--repo", root.toString());
        Cli.ok(wc, "import", m1.toString(), "--table", "cities");
        Cli.ok(wc, "commit", "-m", "October");
        Path catalog = catalogs().get(0);
        assertThat(Files.readString(catalog.resolveSibling("version.json"))).containsPattern("\"storage\"\\s*:\\s*\"duckdb-v2.0.0\"");
        assertThat(Cli.ok(wc, "query", "SELECT count(*) FROM cities").out()).contains("28500");

        ChildJvm.Result older = readWithDuckDb15(List.of(catalog));
        assertThat(older.exitCode()).isEqualTo(1);
        assertThat(older.output()).contains("FAILED").contains("version number");
    }

    @Test
    void anUnknownCatalogStorageIsRefusedNamingTheKeyAndNothingIsUploaded() throws Exception {
        Cli.Result bad = Cli.in(dir, "init", root.toString(), "--catalog-storage", "duckdb-v1.4.0");
        assertThat(bad.exit()).as("a usage error").isEqualTo(2);
        assertThat(bad.err()).contains("--catalog-storage").contains("older than v1.5.0");
        assertThat(root.resolve("fdl.json")).doesNotExist();
        for (String value : List.of("garbage", "duckdb-v0.9.0")) {
            Cli.Result r = Cli.in(dir, "init", root.toString(), "--catalog-storage", value);
            assertThat(r.exit()).as(r.toString()).isEqualTo(2);
            assertThat(r.err()).contains("\"" + value + "\"").contains("duckdb-vX.Y.Z");
        }
        assertThat(root).doesNotExist();

        Cli.ok(dir, "init", root.toString());
        Path config = root.resolve("fdl.json");
        Files.writeString(config, Files.readString(config).replace("}", ",\"catalog_storage\":\"v2.0.0\",\"future_key\":[1]}"));
        Cli.ok(wc, "checkout", "--repo", root.toString());
        Cli.ok(wc, "import", m1.toString(), "--table", "cities");
        Cli.Result refused = Cli.in(wc, "commit", "-m", "October");
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains("fdl.json key 'catalog_storage' is \"v2.0.0\"");
        assertThat(root.resolve("versions")).doesNotExist();
        assertThat(Files.readString(config)).contains("\"future_key\":[1]");
    }

    /**
     * A well-formed storage version DuckDB does not know is refused at init by
     * asking DuckDB, as a usage error, before anything is written; one already in fdl.json fails
     * the commit with fdl's words, naming the key and how to mend the file, not DuckDB's text.
     */
    @Test
    void aStorageVersionDuckDbDoesNotKnowIsRefusedAtInitAndAtCommitInFdlsWords() throws Exception {
        Cli.Result bad = Cli.in(dir, "init", root.toString(), "--catalog-storage", "duckdb-v9.9.9");
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(2);
        assertThat(bad.err()).contains("--catalog-storage is \"duckdb-v9.9.9\"").contains("DuckDB knows no such storage version")
                .contains("from v1.5.0 to v").contains("leave the option out");
        assertThat(root).doesNotExist();
        Cli.ok(dir, "init", root.resolve("ok").toString(), "--catalog-storage", "duckdb-v1.5.1");

        Cli.ok(dir, "init", root.toString());
        Path config = root.resolve("fdl.json");
        Files.writeString(config, Files.readString(config).replace("}", ",\"catalog_storage\":\"duckdb-v9.9.9\"}"));
        Cli.ok(wc, "checkout", "--repo", root.toString());
        Cli.ok(wc, "import", m1.toString(), "--table", "cities");
        Cli.Result refused = Cli.in(wc, "commit", "-m", "October");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).contains("fdl.json key 'catalog_storage' is \"duckdb-v9.9.9\"")
                .contains(config.toString()).contains("remove it").doesNotContain("Invalid Input Error");
        assertThat(root.resolve("versions")).doesNotExist();
    }

    private void commitTwoVersions() {
        Cli.ok(wc, "checkout", "--repo", root.toString());
        Cli.ok(wc, "import", m1.toString(), "--table", "cities");
        Cli.ok(wc, "commit", "-m", "October");
        Cli.ok(wc, "import", m2.toString(), "--table", "cities", "--mode", "replace");
        Cli.ok(wc, "import", m1.toString(), "--table", "geo.october");
        Cli.ok(wc, "commit", "-m", "December");
    }

    private List<Path> catalogs() throws Exception {
        try (Stream<Path> s = Files.list(root.resolve("versions"))) {
            return s.map(v -> v.resolve("ducklake.duckdb")).filter(Files::exists).sorted().toList();
        }
    }

    /** Runs {@link CatalogTableDump} with DuckDB 1.5's driver in a child JVM. */
    static ChildJvm.Result readWithDuckDb15(List<Path> catalogs) throws Exception {
        String jar = System.getProperty("duckdb.reader.jar");
        assertThat(jar).as("system property duckdb.reader.jar (set by the pom; run the tests through Maven)").isNotNull();
        assertThat(Path.of(jar)).as("DuckDB 1.5 driver fetched by Maven (mvn generate-test-resources)").exists();
        String testClasses = Path.of(CatalogTableDump.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        String[] files = catalogs.stream().map(Path::toString).toArray(String[]::new);
        Process p = ChildJvm.start(jar + File.pathSeparator + testClasses, CatalogTableDump.class.getName(), "-Xmx256m", Map.of(), files);
        return ChildJvm.await(p, 120);
    }
}
