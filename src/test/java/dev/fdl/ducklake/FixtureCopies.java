package dev.fdl.ducklake;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

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
}
