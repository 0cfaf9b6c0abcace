package dev.fdl.ducklake;

import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.store.LocalStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.DuckLakeExtension;
import dev.fdl.ducklake.load.ImportResult;
import dev.fdl.ducklake.load.Importer;
import dev.fdl.ducklake.load.sync.SyncResult;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.ducklake.read.BuiltInReader;

/** A repository on a local store plus a new, empty SQLite working catalog whose data_path is its data folder. */
public final class WorkingCatalogFixture {
    /** Extensions as the CLI would allow them: not with {@code FDL_NO_EXTENSION=1}. */
    private static final DuckLakeExtension FIXTURE_EXTENSIONS = "1".equals(System.getenv("FDL_NO_EXTENSION"))
            ? DuckLakeExtension.disabled("disabled by FDL_NO_EXTENSION=1") : DuckLakeExtension.ALLOWED;

    public final Path dir;
    public final LocalStore store;
    public final Path catalog;
    private int reads;

    public WorkingCatalogFixture(Path dir) {
        this.dir = dir;
        try {
            Files.createDirectories(dir.resolve("repo"));
            Files.createDirectories(dir.resolve("wc"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.store = new LocalStore(dir.resolve("repo"));
        this.catalog = dir.resolve("wc/catalog.sqlite");
        EmptyCatalog.create(catalog, CatalogKind.SQLITE, store.location("data/"));
    }

    public ImportResult importFile(Path source, String table, ImportMode mode) {
        return new Importer(DuckDbPool.shared()).importFile(ImportRequest.of(catalog, store, "data/", source, table, mode)
                .withAuthor("tester").withMessage("import " + source.getFileName()));
    }

    public SyncResult sync(Path source, String table, String... keys) {
        return new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(catalog, store, "data/", source, table, ImportMode.SYNC)
                .withCacheDir(dir.resolve("cache")).withKeys(List.of(keys)).withAuthor("tester")
                .withMessage("sync " + source.getFileName()));
    }

    /** The working catalog converted to a DuckDB file and opened with the built-in reader. */
    public BuiltInReader read(Long snapshot) {
        Path duck = dir.resolve("read-" + (reads++) + ".duckdb");
        CatalogConverter.convert(catalog, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        return BuiltInReader.open(DuckDbPool.shared(), duck, null, snapshot);
    }

    /**
     * Skips the calling test where DuckDB's ducklake extension cannot be loaded (fdl never downloads
     * it), saying what the test reads through it.
     */
    public static void assumeDuckLakeExtension(String reads) throws SQLException {
        try (Connection probe = DuckDbPool.connect()) {
            String why = FIXTURE_EXTENSIONS.load(probe, "ducklake");
            org.junit.jupiter.api.Assumptions.assumeTrue(why == null, () -> "skipped: " + why + "; this test reads " + reads
                    + " through DuckDB's ducklake extension, which fdl never downloads (INSTALL ducklake in a DuckDB of the same "
                    + "version to run it)");
        }
    }

    /**
     * A DuckDB connection on which the extension attaches the working catalog (converted to a
     * DuckDB file) read-only as {@code lake}, its data path this repository's data folder.
     */
    public Connection attachedByExtension() throws SQLException {
        Path converted = dir.resolve("read-" + (reads++) + ".duckdb");
        CatalogConverter.convert(catalog, converted, CatalogKind.DUCKDB, ProgressListener.NONE);
        Connection duck = DuckDbPool.connect();
        try (Statement st = duck.createStatement()) {
            String failed = FIXTURE_EXTENSIONS.load(duck, "ducklake");
            if (failed != null) throw new IllegalStateException(failed);
            st.execute("ATTACH " + dev.fdl.util.SqlQuote.literal("ducklake:" + converted) + " AS lake (READ_ONLY, DATA_PATH "
                    + dev.fdl.util.SqlQuote.literal(store.location("data/")) + ", OVERRIDE_DATA_PATH true)");
            return duck;
        } catch (SQLException | RuntimeException e) {
            duck.close();
            throw e;
        }
    }

    /** Every row of every table of the SQLite catalog, as text: equal before and after means unchanged. */
    public String dump() {
        return dump(catalog);
    }

    /** Every row of every table of the SQLite catalog {@code catalog}, as text. */
    public static String dump(Path catalog) {
        StringBuilder sb = new StringBuilder();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + catalog); Statement st = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
                while (rs.next()) tables.add(rs.getString(1));
            }
            for (String t : tables) {
                sb.append("## ").append(t).append('\n');
                try (ResultSet rs = st.executeQuery("SELECT * FROM \"" + t + "\" ORDER BY 1, 2")) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int i = 1; i <= n; i++) sb.append(rs.getString(i)).append('|');
                        sb.append('\n');
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return sb.toString();
    }

    /** The shipped world-cities months (src/main/resources/demo/world-cities), oldest first. */
    public static List<Path> months() {
        try {
            Path dir = Path.of(WorkingCatalogFixture.class.getClassLoader().getResource("demo/world-cities/README.md").toURI()).getParent();
            try (var s = Files.list(dir)) {
                return s.filter(p -> p.getFileName().toString().endsWith(".csv.gz")).sorted().toList();
            }
        } catch (URISyntaxException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A CSV file as DuckDB reads it. */
    public static String csvSource(Path file) {
        return "SELECT * FROM read_csv(" + dev.fdl.util.SqlQuote.literal(file.toAbsolutePath().toString()) + ", header = true)";
    }

    public static String md5Sql(String relation) {
        return "SELECT count(*), md5(coalesce(string_agg(CAST(x AS VARCHAR), chr(10) ORDER BY CAST(x AS VARCHAR)), '')) FROM ("
                + relation + ") AS x";
    }

    /** Row count and checksum of a relation, in the reader's DuckDB. */
    public static String checksum(Connection c, String relation) {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(md5Sql(relation))) {
            rs.next();
            return rs.getLong(1) + ":" + rs.getString(2);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
