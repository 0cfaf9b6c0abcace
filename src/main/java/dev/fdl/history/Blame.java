package dev.fdl.history;

import dev.fdl.FdlException;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.RowKey;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.ducklake.read.TableViewSql;
import dev.fdl.ducklake.TableName;
import dev.fdl.repo.CatalogSource;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.util.SqlQuote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code fdl blame}: per visible row of a table at a version, the version that last added or changed
 * it (docs/history.md). DuckLake never changes a row in place: it ends it and adds the new one, so a
 * row was last added or changed by the snapshot that began its data file or inlined row
 * (DUCKLAKE.md "Snapshots and visibility", "Data"), and that snapshot maps to the version that
 * published it ({@link SnapshotOwners}). Only the blamed version's rows are read; other versions
 * contribute version.json files and, for merges, catalog metadata.
 */
public final class Blame {
    private static final String ALIAS = "__fdl_blame";

    /**
     * One blame.
     *
     * @param version  the version blamed, its catalog and where its data files are read ({@code dataPath})
     * @param keys     null: the table's recorded key, else these columns (empty: every column is shown, no key)
     * @param where    null, or a read-only SQL expression over the table's columns choosing the rows
     */
    public record Request(VersionInfo version, Path catalog, String dataPath, String table, List<String> keys, String where) {}

    /**
     * Receives the blame: first the columns shown (the key, else every column), then the lines of
     * the rows in key order, as DuckDB wrote them into a file: per row the {@link #prefix} of its
     * owner, the {@link #separator()}, its shown values in the {@link #form()}, then the {@link #suffix()}.
     */
    public interface Sink {
        /** How a row's shown values are written into its line, by DuckDB. */
        enum Form {
            /** Values as text joined by tabs, NULL as {@code NULL}. */
            TEXT,
            /** CSV fields (RFC 4180: quoted when empty or holding a comma, quote or line break; NULL empty) joined by commas. */
            CSV,
            /** One JSON object of column name → value (DuckDB's {@code to_json}). */
            JSON
        }

        void columns(List<String> names);

        /** The text a row's line starts with, for the rows of {@code owner}: asked once per owner. */
        String prefix(SnapshotOwners.Owner owner);

        /** The one character between a row's prefix and its values. */
        char separator();

        /** The text a row's line ends with, after its values (before the line feed). */
        default String suffix() {
            return "";
        }

        /**
         * The rows' lines: {@code file} holds one line per row in key order, UTF-8, each ending in a
         * line feed; it is deleted after this returns.
         *
         * @throws IOException when the lines cannot be read or written on
         */
        void lines(Path file) throws IOException;

        /** How the values are written. */
        default Form form() {
            return Form.TEXT;
        }
    }

    private final Repository repo;
    private final CatalogSource catalogs;
    private final DuckDbPool pool;

    public Blame(Repository repo, CatalogSource catalogs, DuckDbPool pool) {
        this.repo = repo;
        this.catalogs = catalogs;
        this.pool = pool;
    }

    /**
     * Sends the blame of {@code request} to {@code sink}; returns the rows sent.
     *
     * @throws FdlException not found (exit 4) for a table the version lacks; usage (exit 2) for a
     *                      key column the table lacks, a key that is not unique or NULL, or a
     *                      {@code --where} that is not one read-only expression
     */
    public long run(Request request, Sink sink) {
        try (Connection duck = pool.connection()) {
            Sql.attach(duck, request.catalog(), ALIAS, true);
            String file = request.catalog().toString();
            SnapshotView view = SnapshotView.load(duck, ALIAS, file, request.dataPath(), null);
            SnapshotView.TableEntry table = table(view, request.table(), request.version());
            SnapshotView relative = SnapshotView.loadRelative(duck, ALIAS, file, null);
            SnapshotView.TableEntry rel = relative.tables().stream().filter(t -> t.id() == table.id()).findFirst().orElseThrow();
            List<String> names = table.columns().stream().map(SnapshotView.ColumnEntry::name).toList();
            List<String> keys = keys(duck, view, table, request.keys(), names);
            String rows = named(table, new TableViewSql(view, table).selectWithRowIds());
            if (request.where() != null) rows = RowFilter.apply(duck, rows, request.where());
            if (request.keys() != null && !keys.isEmpty()) refuseNonUnique(duck, named(table, new TableViewSql(view, table).selectWithRowIds()), keys, request);
            List<SnapshotOwners.Owner> owners = new ArrayList<>();
            String ownerOf = ownerColumn(duck, request.version(), rel, owners);
            List<String> shown = keys.isEmpty() ? names : keys;
            sink.columns(shown);
            return emit(duck, new Emitted(rows, ownerOf, shown, owners), sink);
        } catch (IOException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot write the blame of table " + request.table() + ": " + e.getMessage(), e);
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot blame table " + request.table() + " in version "
                    + request.version().id() + ": " + DuckDbErrors.firstLine(e), e);
        }
    }

    /** The table named {@code name} in the view. @throws FdlException not found naming the version */
    static SnapshotView.TableEntry table(SnapshotView view, String name, VersionInfo version) {
        TableName wanted = TableName.parse(name);
        for (SnapshotView.TableEntry t : view.tables())
            if (Identifiers.same(t.schema(), wanted.schema()) && Identifiers.same(t.name(), wanted.name())) return t;
        List<String> have = view.tables().stream().map(t -> t.schema() + "." + t.name()).toList();
        throw FdlException.notFound("table " + wanted + " is not in version " + version.id() + " (it has "
                + (have.isEmpty() ? "no tables" : String.join(", ", have)) + ")");
    }

    /** The key columns under the table's spelling: the given ones (each must exist), else the recorded key. */
    private static List<String> keys(Connection duck, SnapshotView view, SnapshotView.TableEntry table, List<String> given,
                                     List<String> names) throws SQLException {
        List<String> wanted = given != null ? given
                : RowKey.read(duck, SqlQuote.ident(ALIAS) + ".main.ducklake_tag", table.id(), view.snapshot());
        List<String> out = new ArrayList<>();
        for (String k : wanted) {
            String found = names.stream().filter(n -> Identifiers.same(n, k.trim())).findFirst().orElse(null);
            if (found == null) {
                if (given == null) return List.of(); // a recorded key whose column is gone identifies nothing
                throw FdlException.usage("table " + table.schema() + "." + table.name() + " has no column " + k + " (it has "
                        + String.join(", ", names) + "); name its key columns with --key");
            }
            out.add(found);
        }
        return out;
    }

    /** {@code rows} (columns {@code c<id>}, row identity) with the table's column names, identity kept. */
    static String named(SnapshotView.TableEntry table, String rows) {
        List<String> select = new ArrayList<>();
        for (SnapshotView.ColumnEntry c : table.columns())
            select.add("r." + SqlQuote.ident(TableViewSql.idColumn(c.id())) + " AS " + SqlQuote.ident(c.name()));
        select.add("r." + TableViewSql.FILE_ID + ", r." + TableViewSql.POS + ", r." + TableViewSql.INLINED);
        return "SELECT " + String.join(", ", select) + " FROM (" + rows + ") AS r";
    }

    private static void refuseNonUnique(Connection duck, String rows, List<String> keys, Request request) throws SQLException {
        String cols = String.join(", ", keys.stream().map(SqlQuote::ident).toList());
        String value = keys.size() == 1 ? "CAST(" + cols + " AS VARCHAR)" : "CAST(row(" + cols + ") AS VARCHAR)";
        String anyNull = String.join(" OR ", keys.stream().map(k -> SqlQuote.ident(k) + " IS NULL").toList());
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT " + value + ", count(*), bool_or(" + anyNull + ") FROM (" + rows + ") GROUP BY " + cols
                     + " HAVING count(*) > 1 OR bool_or(" + anyNull + ") LIMIT 1")) {
            if (rs.next())
                throw FdlException.usage("--key " + String.join(",", keys) + " does not identify the rows of table " + request.table()
                        + " in version " + request.version().id() + ": " + (rs.getBoolean(3) ? "it is NULL in some rows"
                        : rs.getString(1) + " is held by " + rs.getLong(2) + " rows") + "; name columns unique in every row");
        }
    }

    /**
     * The SQL expression giving each row's index into {@code owners}: data files by id, inlined rows
     * by their begin snapshot (joined by {@code row_id} in their inlined-data table).
     */
    private String ownerColumn(Connection duck, VersionInfo version, SnapshotView.TableEntry rel, List<SnapshotOwners.Owner> owners)
            throws SQLException {
        SnapshotOwners lookup = new SnapshotOwners(repo, catalogs, pool);
        Map<SnapshotOwners.Owner, Integer> index = new LinkedHashMap<>();
        Map<Long, Integer> byFile = new HashMap<>();
        for (SnapshotView.DataFileEntry f : rel.dataFiles())
            byFile.put(f.id(), index.computeIfAbsent(lookup.of(version, f.beginSnapshot(), f.location()), o -> index.size()));
        Map<Long, Integer> byBegin = new HashMap<>();
        List<String> inlined = new ArrayList<>();
        for (int i = 0; i < rel.inlined().size(); i++) {
            SnapshotView.InlinedTable t = rel.inlined().get(i);
            String q = SqlQuote.ident(ALIAS) + ".main." + SqlQuote.ident(t.tableName());
            String begin = SqlQuote.ident(t.system().begin());
            try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("SELECT DISTINCT " + begin + " FROM " + q)) {
                while (rs.next()) {
                    long b = rs.getLong(1);
                    byBegin.put(b, index.computeIfAbsent(lookup.of(version, b, null), o -> index.size()));
                }
            }
            inlined.add("SELECT " + i + " AS ix, " + SqlQuote.ident(t.system().rowId()) + " AS rid, " + begin + " AS b FROM " + q);
        }
        owners.addAll(index.keySet());
        String fileCase = caseOf("r." + TableViewSql.FILE_ID, byFile);
        if (inlined.isEmpty()) return fileCase;
        String inlinedCase = "(SELECT " + caseOf("i.b", byBegin) + " FROM (" + String.join(" UNION ALL ", inlined)
                + ") AS i WHERE i.ix = r." + TableViewSql.INLINED + " AND i.rid = r." + TableViewSql.POS + ")";
        return "CASE WHEN r." + TableViewSql.FILE_ID + " IS NOT NULL THEN " + fileCase + " ELSE " + inlinedCase + " END";
    }

    /** {@code CASE expr WHEN k THEN v … END} over {@code m} (NULL when empty). */
    private static String caseOf(String expr, Map<Long, Integer> m) {
        if (m.isEmpty()) return "CAST(NULL AS INTEGER)";
        StringBuilder sb = new StringBuilder("CASE ").append(expr);
        m.forEach((k, v) -> sb.append(" WHEN ").append(k).append(" THEN ").append(v));
        return sb.append(" END").toString();
    }

    /** What {@link #emit} sends: the rows' SELECT, the expression of each row's owner index, the columns shown, the owners. */
    private record Emitted(String rows, String ownerOf, List<String> shown, List<SnapshotOwners.Owner> owners) {}

    /**
     * Has DuckDB write every row's line into a temporary file, in key order, and hands it to the
     * sink. Only the owner index and the shown values are sorted; each line is made after the sort
     * from its owner's prefix (one literal per owner) and the values.
     */
    private static long emit(Connection duck, Emitted e, Sink sink) throws SQLException, IOException {
        List<String> shown = e.shown();
        StringBuilder sorted = new StringBuilder("SELECT " + e.ownerOf() + " AS __fdl_owner");
        StringBuilder texts = new StringBuilder("SELECT __fdl_owner");
        List<String> order = new ArrayList<>();
        for (int i = 0; i < shown.size(); i++) {
            sorted.append(", r.").append(SqlQuote.ident(shown.get(i))).append(" AS __fdl_k").append(i);
            texts.append(", __fdl_k").append(i);
            if (sink.form() != Sink.Form.JSON) texts.append(", CAST(__fdl_k").append(i).append(" AS VARCHAR) AS __fdl_v").append(i);
            order.add("__fdl_k" + i);
        }
        List<String> prefixes = new ArrayList<>();
        for (SnapshotOwners.Owner o : e.owners()) prefixes.add(SqlQuote.literal(sink.prefix(o)));
        if (prefixes.isEmpty()) prefixes.add("''"); // no rows: the list only needs a type
        String suffix = sink.suffix().isEmpty() ? "" : " || " + SqlQuote.literal(sink.suffix());
        // two columns, the prefix and the values: DuckDB's CSV writer joins them by the separator
        // without building each line as one more string
        String sql = "SELECT [" + String.join(", ", prefixes) + "][__fdl_owner + 1], " + rendered(sink.form(), shown) + suffix
                + " FROM (" + texts + " FROM (" + sorted + " FROM (" + e.rows() + ") AS r ORDER BY " + String.join(", ", order) + "))";
        String options = "FORMAT csv, HEADER false, QUOTE '', ESCAPE '', DELIMITER " + SqlQuote.literal(String.valueOf(sink.separator()));
        Path file = Files.createTempFile("fdl-blame-", ".txt");
        try {
            long n;
            try (Statement st = duck.createStatement()) {
                // VARCHAR columns written as they are: no quotes, no escapes, no header
                n = ChangeFeed.copied(st, "COPY (" + sql + ") TO " + SqlQuote.literal(file.toString()) + " (" + options + ")");
            }
            sink.lines(file);
            return n;
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** The SQL expression writing a row's shown values ({@code __fdl_k<i>}, as text {@code __fdl_v<i>}) in {@code form}. */
    private static String rendered(Sink.Form form, List<String> shown) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < shown.size(); i++) {
            String v = "__fdl_v" + i;
            parts.add(switch (form) {
                case TEXT -> "coalesce(" + v + ", 'NULL')";
                case CSV -> "CASE WHEN " + v + " IS NULL THEN '' WHEN " + v + " = '' OR regexp_matches(" + v + ", '[,\"\\n\\r]') THEN '\"' || replace("
                        + v + ", '\"', '\"\"') || '\"' ELSE " + v + " END";
                case JSON -> SqlQuote.literal(shown.get(i)) + ": __fdl_k" + i;
            });
        }
        return switch (form) {
            case TEXT -> "concat_ws(chr(9), " + String.join(", ", parts) + ")";
            case CSV -> "concat_ws(',', " + String.join(", ", parts) + ")";
            case JSON -> "CAST(to_json({" + String.join(", ", parts) + "}) AS VARCHAR)";
        };
    }
}
