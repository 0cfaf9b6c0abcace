package dev.fdl.ducklake.read;

import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.util.SqlQuote;
import dev.fdl.FdlException;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.regex.Pattern;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.DuckLakeExtension;
import dev.fdl.ducklake.engine.ReadOnlySql;

/**
 * {@code fdl sql}: SQL on the working catalog through DuckDB's DuckLake and sqlite extensions,
 * attached as {@code lake} with the repository's data folder as DATA_PATH. DuckLake's own file
 * cleanup is refused (SPEC.md section 5: only fdl gc deletes data, since other versions may still
 * name those files).
 */
public final class WorkingCopySql {
    private static final Pattern CLEANUP = Pattern.compile(
            "ducklake_(cleanup_old_files|delete_orphaned_files|expire_snapshots|rewrite_data_files|merge_adjacent_files|flush_inlined_data)|\\bcheckpoint\\b",
            Pattern.CASE_INSENSITIVE);

    private final DuckDbPool pool;
    private final DuckLakeExtension extensions;

    /** Runs SQL on a DuckDB instance of {@code pool}, with the extensions {@code extensions} lets it load. */
    public WorkingCopySql(DuckDbPool pool, DuckLakeExtension extensions) {
        this.pool = java.util.Objects.requireNonNull(pool, "pool");
        this.extensions = java.util.Objects.requireNonNull(extensions, "extensions");
    }

    /**
     * Runs {@code sql} (one or more statements) on the working catalog; returns the last statement's result, or null.
     *
     * @throws FdlException exit 1 when the extensions cannot be loaded (pointing to fdl import), for refused
     *                      maintenance calls, and for SQL errors
     */
    public QueryResult run(Path sqliteCatalog, String dataPath, String sql) {
        if (CLEANUP.matcher(sql).find())
            throw new FdlException("refused: DuckLake maintenance (cleanup, expiry, compaction, checkpoint) must not run on a working copy; "
                    + "other versions may still name those files. Retention is fdl expire and fdl gc.");
        try (Connection duck = pool.connection()) {
            String why = extensions.load(duck, "ducklake", "sqlite");
            if (why != null)
                throw new FdlException("fdl sql needs DuckDB's ducklake and sqlite extensions: " + why
                        + ". Install them in a DuckDB that can reach the extension repository (INSTALL ducklake; INSTALL sqlite;), "
                        + "or load data without them: fdl import <file> --table <name>");
            try (Statement st = duck.createStatement()) {
                st.execute("ATTACH " + SqlQuote.literal("ducklake:sqlite:" + sqliteCatalog.toAbsolutePath()) + " AS lake (DATA_PATH "
                        + SqlQuote.literal(dataPath) + ")");
                st.execute("USE lake");
                // one query: its values as fdl query reads them (DuckDB's text); a script's last result through the driver
                // (TIMESTAMPTZ in UTC for it only: a script's writes keep the session's time zone, in which
                // a literal without an offset is read)
                if (ReadOnlySql.isOne(duck, sql)) {
                    st.execute(Sql.SET_UTC);
                    return BuiltInReader.execute(duck, sql);
                }
                QueryResult last = null;
                boolean hasResult = st.execute(sql);
                if (hasResult) try (ResultSet rs = st.getResultSet()) {
                    last = BuiltInReader.collect(rs);
                }
                return last;
            } catch (SQLException e) {
                throw new FdlException("SQL failed: " + DuckDbErrors.firstLine(e));
            }
        } catch (SQLException e) {
            throw new FdlException("cannot start DuckDB: " + e.getMessage().toLowerCase(Locale.ROOT));
        }
    }
}
