package dev.fdl.ducklake.load;

import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.util.ShellQuote;
import dev.fdl.FdlException;
import dev.fdl.util.SqlQuote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.read.ReadableCatalog;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.ducklake.read.TableViewSql;
import dev.fdl.ducklake.working.ImportPlan;
import dev.fdl.ducklake.format.RowKey;
import dev.fdl.ducklake.working.WorkingCatalog;

/**
 * Keeps a table's recorded row key ({@link RowKey}) true through {@code import --mode append} and
 * {@code --mode replace}: the key {@code fdl diff} pairs rows by must stay unique and never NULL
 * (docs/data.md "The recorded key"). Without this an append of a row whose key the table already
 * holds is accepted and every later diff of the table fails.
 *
 * <p>An append is checked over the table's visible rows (as the built-in reader shows them) plus
 * the file's; a replace over the file's rows alone. Only the key columns are read.
 */
public final class RecordedKeyCheck {
    /** The alias the converted working catalog is attached as. */
    public static final String ALIAS = "__fdl_sync_catalog";

    /**
     * The visible rows of an existing table of the working catalog, as the built-in reader shows them.
     *
     * @param view     the working catalog at its newest snapshot, converted and attached as {@link #ALIAS}, with only
     *                 {@code entry} among its tables
     * @param entry    the table in {@code view}
     * @param readBase where the data files are read from: a local mirror of a remote repository's, or null
     */
    public record Visible(SnapshotView view, SnapshotView.TableEntry entry, String readBase) {
        /** {@link TableViewSql#selectWithRowIds()}: columns named by column id, each row with its data file and position. */
        public String selectWithRowIds() {
            return new TableViewSql(view, entry).selectWithRowIds();
        }
    }


    /**
     * Converts the working catalog into {@code tmp}, attaches it to {@code duck} and, for a remote
     * repository, mirrors the visible data files into {@code cacheDir}: the table's visible rows
     * are then {@link Visible#selectWithRowIds()}.
     *
     * @throws FdlException when the table is not visible in the copy (the working catalog changed meanwhile)
     */
    public static Visible visibleRows(DuckDbPool pool, Connection duck, ImportRequest request, WorkingCatalog.State state,
                                      Path cacheDir, Path tmp) throws SQLException {
        Path sqliteCatalog = request.catalog();
        TableName name = TableName.parse(request.table());
        // stays attached to duck after this returns: tmp, the caller's, holds the copy until it is deleted
        ReadableCatalog converted = ReadableCatalog.working(sqliteCatalog, tmp.resolve("catalog.duckdb"));
        Sql.attach(duck, converted.catalog(), ALIAS, true);
        String readBase = converted.readBase(pool, new ReadableCatalog.DataFiles(request.store(), request.dataDir(), cacheDir), state.snapshot());
        SnapshotView view = SnapshotView.loadTable(duck, ALIAS, sqliteCatalog.toString(), readBase, state.snapshot(), state.table().id());
        SnapshotView.TableEntry entry = view.tables().stream().filter(t -> t.id() == state.table().id()).findFirst()
                .orElseThrow(() -> new FdlException("table " + name + " is not visible in the converted working catalog; "
                        + "the working catalog changed during the import: run the import again"));
        return new Visible(view, entry, readBase);
    }

    private RecordedKeyCheck() {}

    /**
     * Refuses the import when it would leave the table's recorded key NULL or repeated.
     *
     * @param written  the file's rows as written for the import (Parquet files, columns named as {@code plan}'s; a
     *                 row is named by its place in its written file, which is the source's when there is one of each)
     * @param request  the import (its mode, source, catalog, store and cache folder: where a remote
     *                 repository's data files are mirrored to be read, null: a scratch folder)
     * @param pool     where DuckDB instances come from to read the catalog for the mirror
     * @throws FdlException (a failure) naming the table, the key, a repeated (or NULL) value and the
     *                      ways out: sync instead, or import with {@code --no-key}
     */
    static void check(Connection duck, WorkingCatalog catalog, WorkingCatalog.State state, ImportPlan plan, List<Path> written,
                      ImportRequest request, DuckDbPool pool) throws SQLException, IOException {
        ImportMode mode = request.mode();
        if (state.table() == null || mode == ImportMode.CREATE) return;
        List<String> key = RowKey.current(catalog.connection(), state.table().id());
        if (key.isEmpty()) return;
        String refusal = "cannot import " + request.source() + " into " + plan.table() + " (--mode "
                + mode.name().toLowerCase(java.util.Locale.ROOT) + "): the table's key (" + String.join(", ", key)
                + "), recorded by import --mode sync --key, ";
        String remedies = ". Nothing was imported. Either sync instead (fdl import <file> --table " + ShellQuote.word(plan.table())
                + " --mode sync --key " + ShellQuote.word(String.join(",", key)) + ": the table then holds exactly the file's rows, updated by key), "
                + "or import with --no-key to drop the recorded key (fdl diff then compares whole rows)";
        check(duck, new Rows(catalog, state, plan, written, request, null), key, pool, refusal, remedies);
    }

    /**
     * The rows a key check reads: those of {@code written} (Parquet files whose columns have the names
     * of {@code plan}'s, matched as DuckDB matches identifiers), and for {@code request.mode()}
     * APPEND also the table's visible rows, read from the working catalog as {@code request} names it.
     * {@code shownAs}: what a refusal calls each written file (null: "the file", for one source).
     */
    record Rows(WorkingCatalog catalog, WorkingCatalog.State state, ImportPlan plan, List<Path> written, ImportRequest request,
                List<String> shownAs) {
        /** How the refusal names the file holding {@code path}: {@code shownAs}'s entry for it, or "the file" without them. */
        String shown(String path) {
            if (shownAs == null) return "the file";
            for (int i = 0; i < written.size(); i++) {
                if (written.get(i).toAbsolutePath().toString().equals(path)) return shownAs.get(i);
            }
            return path;
        }
    }

    /** A new row's place, (file, row), ordering a repeated key's rows; NULL for the table's rows. */
    private static final String FIRST = "CASE WHEN __fdl_file IS NULL THEN NULL ELSE (__fdl_file, __fdl_row) END";

    /**
     * Refuses adding {@code rows} when the table's recorded key {@code key} ({@link RowKey#current})
     * would be NULL or repeated (a key column the plan lacks: nothing to check).
     *
     * @param refusal  the message's beginning, up to what the key "would be"
     * @param remedies the message's end: what was left unchanged and the ways out
     * @throws FdlException (a failure) {@code refusal}, the NULL row or repeated value, then {@code remedies}
     */
    static void check(Connection duck, Rows rows, List<String> key, DuckDbPool pool, String refusal, String remedies)
            throws SQLException, IOException {
        WorkingCatalog.State state = rows.state();
        if (state.table() == null || key.isEmpty()) return;
        List<ImportPlan.Column> columns = new ArrayList<>();
        for (String k : key) {
            ImportPlan.Column c = rows.plan().columns().stream().filter(p -> Identifiers.same(p.name(), k)).findFirst().orElse(null);
            if (c == null) return; // a replace without the key's columns: there is no key left to break
            columns.add(c);
        }
        String newRows = "read_parquet([" + String.join(", ", rows.written().stream().map(w -> SqlQuote.literal(w.toAbsolutePath().toString())).toList())
                + "], file_row_number = true, filename = true)";
        List<String> names = columns.stream().map(c -> SqlQuote.ident(c.name())).toList();
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT file_row_number, filename FROM " + newRows + " WHERE "
                     + String.join(" OR ", names.stream().map(n -> n + " IS NULL").toList()) + " ORDER BY 2, 1 LIMIT 1")) {
            if (rs.next()) throw new FdlException(refusal + "would be NULL in data row " + (rs.getLong(1) + 1) + " of "
                    + rows.shown(rs.getString(2)) + remedies);
        }

        StringBuilder all = new StringBuilder("SELECT " + String.join(", ", names) + ", file_row_number AS __fdl_row, filename AS __fdl_file FROM " + newRows);
        Path tmp = null;
        try {
            if (rows.request().mode() == ImportMode.APPEND) {
                tmp = Files.createTempDirectory("fdl-key-");
                Path cacheDir = rows.request().cacheDir();
                Visible visible = visibleRows(pool, duck, rows.request(), state, cacheDir != null ? cacheDir : tmp.resolve("mirror"), tmp);
                List<String> old = new ArrayList<>();
                for (int i = 0; i < columns.size(); i++)
                    old.add(SqlQuote.ident(TableViewSql.idColumn(columns.get(i).id())) + " AS " + names.get(i));
                all.append(" UNION ALL SELECT ").append(String.join(", ", old)).append(", NULL, NULL FROM (")
                        .append(visible.selectWithRowIds()).append(") AS v");
            }
            String text = String.join(" || ', ' || ", columns.stream().map(c -> SqlQuote.literal(c.name() + " = ")
                    + " || CAST(" + SqlQuote.ident(c.name()) + " AS VARCHAR)").toList());
            try (Statement st = duck.createStatement();
                 ResultSet rs = st.executeQuery("SELECT " + text + ", count(*), arg_min(__fdl_file, " + FIRST + "), arg_min(__fdl_row, " + FIRST + ") FROM (" + all
                         + ") AS r GROUP BY " + String.join(", ", names) + " HAVING count(*) > 1 ORDER BY 3 NULLS LAST, 4 LIMIT 1")) {
                if (rs.next()) {
                    String file = rs.getString(3);
                    String where = file == null ? "already, in the table"
                            : "first in data row " + (rs.getLong(4) + 1) + " of " + rows.shown(file);
                    throw new FdlException(refusal + "would no longer be unique: " + rs.getString(1) + " would be held by "
                            + rs.getLong(2) + " rows (" + where + ")" + remedies);
                }
            }
        } finally {
            Importer.deleteTree(tmp);
        }
    }
}
