package dev.fdl.cli;

/**
 * The words for a JVM linkage error at run time, mostly a native library (DuckDB's, SQLite's) that
 * could not be loaded: DuckDB's driver copies its library into {@code java.io.tmpdir} at start
 * unless it lies beside the driver's jar (the launcher places it there once per build), so a full
 * or unwritable temporary folder stops every command that opens DuckDB.
 */
final class NativeLoadFailure {
    private NativeLoadFailure() {}

    /** One line naming the library, the deepest cause and what to do (no stack trace). */
    static String message(LinkageError e) {
        Throwable root = e;
        boolean duckdb = false;
        boolean sqlite = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
            root = t;
            String text = t + " " + (t.getStackTrace().length > 0 ? t.getStackTrace()[0].getClassName() : "");
            duckdb |= text.contains("org.duckdb") || text.contains("duckdb_java");
            sqlite |= text.contains("org.sqlite") || text.contains("sqlitejdbc");
        }
        String library = duckdb ? "DuckDB's native library" : sqlite ? "SQLite's native library" : null;
        if (library == null) {
            return "internal error: " + e + " (set FDL_DEBUG=1 to see where it happened)";
        }
        String cause = root == e ? String.valueOf(e.getMessage()) : root.toString();
        return "cannot load " + library + " (" + cause + "); the driver copies it into the temporary folder "
                + System.getProperty("java.io.tmpdir") + " at start unless it lies beside the driver's jar, as ./fdl places it:"
                + " free space there, or name another folder with FDL_JAVA_OPTS=-Djava.io.tmpdir=<folder>"
                + " (when ./fdl placed it, rebuild: mvn clean package)";
    }
}
