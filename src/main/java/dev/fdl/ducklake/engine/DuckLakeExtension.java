package dev.fdl.ducklake.engine;

import dev.fdl.util.SqlQuote;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Whether DuckDB's DuckLake extension (and, for SQLite catalogs, the sqlite extension) can be
 * loaded here. fdl never installs extensions itself (INSTALL downloads); a user's DuckDB that
 * has them installed makes them loadable. A run may forbid them ({@link #disabled}: the CLI does
 * for {@code FDL_NO_EXTENSION=1}), forcing the built-in paths; this class reads no environment.
 */
public final class DuckLakeExtension {
    /** Extensions are loaded when installed. */
    public static final DuckLakeExtension ALLOWED = new DuckLakeExtension(null);

    /** Null: extensions may be loaded; else why they may not (the reason {@link #load} returns). */
    private final String disabledBecause;

    private DuckLakeExtension(String disabledBecause) {
        this.disabledBecause = disabledBecause;
    }

    /** Extensions are never loaded; {@link #load} returns {@code why}. */
    public static DuckLakeExtension disabled(String why) {
        return new DuckLakeExtension(java.util.Objects.requireNonNull(why, "why"));
    }

    /**
     * Tries {@code LOAD} of each extension on {@code duck}.
     *
     * @return null when all loaded, else the first failure's one-line reason
     */
    public String load(Connection duck, String... extensions) {
        if (disabledBecause != null) return disabledBecause;
        for (String ext : extensions) {
            // asked first rather than seen failing: a failed LOAD costs the instance its place in DuckDbPool
            if (notInstalled(duck, ext)) return "the '" + ext + "' extension cannot be loaded (it is not installed)";
            try (Statement st = duck.createStatement()) {
                st.execute("LOAD " + ext);
            } catch (SQLException e) {
                return "the '" + ext + "' extension cannot be loaded (" + DuckDbErrors.firstLine(e) + ")";
            }
        }
        return null;
    }

    /**
     * The options of a reader's {@code ATTACH 'ducklake:…' AS x (…)} on a version catalog, the same
     * for fdl's own queries and for the statements users are told to run ({@code repo.AttachStatements}):
     * {@code READ_ONLY}, then, with a data path, {@code DATA_PATH '…', OVERRIDE_DATA_PATH true} (the
     * catalog's recorded data_path is where it was written, not where the repository is read), then,
     * with a snapshot, {@code SNAPSHOT_VERSION n} (DuckDB docs, DuckLake extension: ATTACH options).
     *
     * @param dataPath the data folder's location, null to keep the catalog's own
     * @param snapshot the snapshot id to read, null for the newest
     */
    public static String readerAttachOptions(String dataPath, Long snapshot) {
        return "READ_ONLY" + (dataPath == null ? "" : ", DATA_PATH " + SqlQuote.literal(dataPath) + ", OVERRIDE_DATA_PATH true")
                + (snapshot == null ? "" : ", SNAPSHOT_VERSION " + snapshot);
    }

    /** True when DuckDB knows {@code ext} (by name or alias) and says it is neither installed nor loaded. */
    private static boolean notInstalled(Connection duck, String ext) {
        try (java.sql.PreparedStatement ps = duck.prepareStatement("SELECT bool_or(installed OR loaded) FROM duckdb_extensions() "
                + "WHERE extension_name = ? OR list_contains(aliases, ?)")) {
            ps.setString(1, ext);
            ps.setString(2, ext);
            try (java.sql.ResultSet r = ps.executeQuery()) {
                return r.next() && r.getObject(1) != null && !r.getBoolean(1);
            }
        } catch (SQLException e) {
            return false; // unknown here: LOAD says why
        }
    }
}
