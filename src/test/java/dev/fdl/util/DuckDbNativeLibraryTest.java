package dev.fdl.util;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;

import static org.assertj.core.api.Assertions.assertThat;

/** The launcher's once-per-build placement of DuckDB's native library beside a driver jar without it. */
class DuckDbNativeLibraryTest {
    @TempDir
    Path dir;

    private static final String HERE = DuckDbNativeLibrary.entryName(System.getProperty("os.name"), System.getProperty("os.arch"));

    private Path driver(Map<String, String> entries) throws IOException {
        Path jar = dir.resolve("duckdb_jdbc-2.0.0.1.jar");
        try (OutputStream f = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(f)) {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                out.putNextEntry(new ZipEntry(e.getKey()));
                out.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return jar;
    }

    private static Map<String, String> read(Path jar) throws IOException {
        Map<String, String> entries = new LinkedHashMap<>();
        try (JarFile j = new JarFile(jar.toFile())) {
            for (JarEntry e : java.util.Collections.list(j.entries())) {
                entries.put(e.getName(), new String(j.getInputStream(e).readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return entries;
    }

    @Test
    void theLibraryGoesBesideAJarThatKeepsEverythingElse() throws IOException {
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\n\r\n");
        entries.put("org/duckdb/DuckDBNative.class", "class bytes");
        entries.put(HERE, "this platform's library");
        entries.put("libduckdb_java.so_plan9_mips", "another platform's library");
        entries.put("META-INF/services/java.sql.Driver", "org.duckdb.DuckDBDriver\n");
        Path jar = driver(entries);

        assertThat(DuckDbNativeLibrary.place(jar)).isTrue();

        Map<String, String> kept = new LinkedHashMap<>(entries);
        kept.remove(HERE); // another platform's library stays: a target/ shared with that machine still works there
        assertThat(read(jar)).isEqualTo(kept);
        assertThat(Files.readString(dir.resolve(HERE))).isEqualTo("this platform's library");
        assertThat(read(dir.resolve(jar.getFileName() + ".orig"))).isEqualTo(entries);
        try (var files = Files.list(dir)) { // no temporary file left
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
                    jar.getFileName().toString(), jar.getFileName() + ".orig", HERE);
        }
    }

    @Test
    void aJarWithoutThisPlatformsLibraryIsLeftAsItIs() throws IOException {
        Path jar = driver(Map.of("org/duckdb/DuckDBNative.class", "class bytes", "libduckdb_java.so_plan9_mips", "x"));
        byte[] before = Files.readAllBytes(jar);
        assertThat(DuckDbNativeLibrary.place(jar)).isFalse();
        assertThat(Files.readAllBytes(jar)).isEqualTo(before);
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(jar);
        }
    }

    @Test
    void entriesAreNamedAsTheDriverNamesThem() {
        assertThat(DuckDbNativeLibrary.entryName("Linux", "amd64")).isEqualTo("libduckdb_java.so_linux_amd64");
        assertThat(DuckDbNativeLibrary.entryName("Linux", "aarch64")).isEqualTo("libduckdb_java.so_linux_arm64");
        assertThat(DuckDbNativeLibrary.entryName("Mac OS X", "aarch64")).isEqualTo("libduckdb_java.so_macos_arm64");
        assertThat(DuckDbNativeLibrary.entryName("Windows 11", "amd64")).isEqualTo("libduckdb_java.so_windows_amd64");
        assertThat(DuckDbNativeLibrary.entryName("Linux", "riscv64")).isNull();
    }
}
