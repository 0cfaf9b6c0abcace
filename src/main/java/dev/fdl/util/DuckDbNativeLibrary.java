package dev.fdl.util;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;

/**
 * Places DuckDB's native library beside its driver's jar, once per build; the launcher
 * ({@code ./fdl}) runs this before it makes its class-data archives.
 *
 * <p>Why: duckdb_jdbc holds the library of each platform in its jar and, whenever its jar holds
 * one, copies it into {@code java.io.tmpdir} at every start (72 MB for linux_amd64: about 0.2-0.3 s
 * of CPU per command that opens DuckDB), where a killed process leaves it and a full temporary
 * folder fails the start. A driver jar without the libraries makes the driver load the library
 * from the jar's own folder instead (duckdb_jdbc 2.0's {@code DuckDBNative}: resource, else
 * {@code System.loadLibrary}, else the jar's folder). The jar is rewritten with the JDK's own zip
 * library, every other entry kept as it was.
 */
public final class DuckDbNativeLibrary {
    private DuckDbNativeLibrary() {}

    /** The prefix of the library entries in duckdb_jdbc's jar ({@code libduckdb_java.so_linux_amd64}, …). */
    static final String PREFIX = "libduckdb_java.so_";

    /**
     * {@code place <driver jar>}: exit 0 when the library was placed (the original jar kept as
     * {@code <jar>.orig} until {@code check} passes), 3 when the jar holds no library for this
     * platform (already placed, or a platform the driver does not ship). {@code check}: exit 0
     * when DuckDB opens and answers a query. Anything else exits 1 with the reason on stderr.
     */
    public static void main(String[] args) {
        try {
            if (args.length == 2 && args[0].equals("place")) {
                System.exit(place(Path.of(args[1])) ? 0 : 3);
            } else if (args.length == 1 && args[0].equals("check")) {
                try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
                     ResultSet r = s.executeQuery("SELECT 42")) {
                    System.exit(r.next() && r.getInt(1) == 42 ? 0 : 1);
                }
            }
            System.err.println("usage: DuckDbNativeLibrary place <duckdb_jdbc jar> | check");
            System.exit(2);
        } catch (Exception | LinkageError e) {
            System.err.println(e);
            System.exit(1);
        }
    }

    /**
     * The name of this platform's library entry, as duckdb_jdbc names them: {@code PREFIX + os +
     * "_" + arch} with os {@code linux}, {@code macos} or {@code windows} and arch {@code amd64} or
     * {@code arm64}; null on another platform.
     */
    static String entryName(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        String o = os.startsWith("windows") ? "windows" : os.startsWith("mac") ? "macos" : os.startsWith("linux") ? "linux" : null;
        String a = switch (arch) {
            case "x86_64", "amd64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            default -> null;
        };
        return o == null || a == null ? null : PREFIX + o + "_" + a;
    }

    /**
     * Copies this platform's library out of {@code driverJar} into the jar's folder (under the entry's
     * own name) and replaces the jar with a copy without that entry (other platforms' stay), keeping
     * the original as {@code driverJar + ".orig"} (a hard link where the file system has them). Each
     * file is written beside its target and moved into place; the jar is replaced in one rename.
     *
     * @return false, changing nothing, when the jar holds no library for this platform
     * @throws IOException when the jar cannot be read or the folder written
     */
    public static boolean place(Path driverJar) throws IOException {
        String name = entryName(System.getProperty("os.name"), System.getProperty("os.arch"));
        Path dir = driverJar.toAbsolutePath().getParent();
        Path lean = dir.resolve("." + driverJar.getFileName() + ".tmp-" + UUID.randomUUID());
        Path library = dir.resolve("." + name + ".tmp-" + UUID.randomUUID());
        try (JarFile jar = new JarFile(driverJar.toFile(), false)) {
            JarEntry entry = name == null ? null : jar.getJarEntry(name);
            if (entry == null) return false;
            try (InputStream in = jar.getInputStream(entry)) {
                Files.copy(in, library);
            }
            try (OutputStream file = Files.newOutputStream(lean); JarOutputStream out = new JarOutputStream(file)) {
                for (JarEntry e : java.util.Collections.list(jar.entries())) {
                    // other platforms' libraries stay: a target/ shared with another machine still works there
                    if (e.getName().equals(name)) continue;
                    ZipEntry copy = new ZipEntry(e.getName());
                    copy.setTime(e.getTime());
                    out.putNextEntry(copy);
                    try (InputStream in = jar.getInputStream(e)) {
                        in.transferTo(out);
                    }
                    out.closeEntry();
                }
            }
            Files.move(library, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            // the original is kept under a second name before the jar is replaced in one step, so that
            // a process killed at any moment leaves a driver jar in place
            Path orig = dir.resolve(driverJar.getFileName() + ".orig");
            Files.deleteIfExists(orig);
            try {
                Files.createLink(orig, driverJar);
            } catch (IOException | UnsupportedOperationException e) {
                Files.copy(driverJar, orig);
            }
            Files.move(lean, driverJar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return true;
        } finally {
            Files.deleteIfExists(lean);
            Files.deleteIfExists(library);
        }
    }
}
