package dev.fdl.ducklake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import dev.fdl.ducklake.convert.CatalogConverter;

/** The DuckLake fixtures of src/test/resources/fixtures (written by the real DuckLake extension). */
public final class Fixtures {
    private Fixtures() {}

    public static Path folder(String name) {
        URL url = Fixtures.class.getResource("/fixtures/" + name + "/expected.json");
        if (url == null) {
            throw new IllegalStateException("fixture " + name + " missing from the test classpath");
        }
        try {
            return Path.of(url.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The fixture's catalog unpacked into {@code dir}, as a DuckDB file ("duckdb") or converted to SQLite ("sqlite"). */
    public static Path catalogAs(String fixture, String kind, Path dir) {
        Path duck = catalog(fixture, dir);
        if (kind.equals("duckdb")) return duck;
        Path sqlite = dir.resolve(fixture + ".sqlite"); // beside the DuckDB file, in the fixture's folder under dir
        CatalogConverter.convert(duck, sqlite, CatalogKind.SQLITE, ProgressListener.NONE);
        return sqlite;
    }

    /** Gunzips the fixture's catalog into {@code dir} and returns the DuckDB file. */
    public static Path catalog(String name, Path dir) {
        Path target = dir.resolve(name + ".duckdb");
        try {
            Files.createDirectories(target.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (InputStream in = new GZIPInputStream(Files.newInputStream(folder(name).resolve("catalog.duckdb.gz")))) {
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }

    /** Copies the fixture's data folder into {@code dir}/data and returns that folder. */
    public static Path copyData(String name, Path dir) {
        Path source = folder(name).resolve("data");
        Path target = dir.resolve("data");
        try (Stream<Path> walk = Files.walk(source)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path t = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }

    public static JsonNode expected(String name) {
        try {
            return new ObjectMapper().readTree(folder(name).resolve("expected.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
