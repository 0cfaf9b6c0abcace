package dev.fdl.ducklake;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.util.SqlQuote;

/** The DuckLake fixtures of src/test/resources/fixtures, copied to a temporary folder with the catalog unzipped. */
public final class FixtureCopies {
    private FixtureCopies() {}

    /** A copied fixture: its folder, the unzipped catalog and the data folder (the data path override). */
    public record Copy(Path dir, Path catalog, Path data) {
        public String dataPath() {
            return data.toAbsolutePath() + "/";
        }
    }

    public static Path resource(String relative) {
        URL url = FixtureCopies.class.getClassLoader().getResource("fixtures/" + relative);
        if (url == null) throw new IllegalStateException("missing test resource fixtures/" + relative);
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Copy copy(String name, Path tmp) {
        Path source = resource(name);
        Path target = tmp.resolve(name);
        try (Stream<Path> walk = Files.walk(source)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path to = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(to);
                else Files.copy(p, to);
                to.toFile().setWritable(true);
            }
            Path catalog = target.resolve("catalog.duckdb");
            try (InputStream in = new GZIPInputStream(Files.newInputStream(target.resolve("catalog.duckdb.gz")));
                 OutputStream out = Files.newOutputStream(catalog)) {
                in.transferTo(out);
            }
            Files.createDirectories(target.resolve("data"));
            return new Copy(target, catalog, target.resolve("data"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code statements} on a copied fixture's catalog (attached as {@code c}), to shape a case the fixtures lack. */
    public static void sql(Path catalog, String... statements) throws Exception {
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
            st.execute("ATTACH " + SqlQuote.literal(catalog.toString()) + " AS c");
            st.execute("USE c");
            for (String s : statements) st.execute(s);
        }
    }

    /** The towns fixture with a snapshot 16: two Parquet rows deleted inline, one inlined row ended, one added. */
    public static Copy townsWithSnapshot16(Path tmp) throws Exception {
        Copy towns = copy("towns", tmp);
        sql(towns.catalog(),
                "INSERT INTO ducklake_snapshot VALUES (16, now(), 9, 6, 7)",
                "INSERT INTO ducklake_snapshot_changes VALUES (16, 'inlined_delete:1,inlined_insert:1', NULL, NULL, NULL)",
                // positions 500 and 501 of data file 1 are town-500 and town-501 (not deleted by the delete file)
                "CREATE TABLE ducklake_inlined_delete_1 (file_id BIGINT, row_id BIGINT, begin_snapshot BIGINT)",
                "INSERT INTO ducklake_inlined_delete_1 VALUES (1, 500, 16), (1, 501, 16)",
                "UPDATE ducklake_inlined_data_1_9 SET end_snapshot = 16 WHERE name = 'Oslo'",
                "INSERT INTO ducklake_inlined_data_1_9 VALUES (2004, 16, NULL, 'Bergen', 285000, 'added by hand')");
        return towns;
    }
}
