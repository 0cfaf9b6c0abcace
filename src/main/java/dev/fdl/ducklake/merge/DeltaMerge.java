package dev.fdl.ducklake.merge;

import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.ducklake.read.TableViewSql;
import dev.fdl.util.SqlQuote;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The merge of a table changed on both sides computed from what each side changed since the base,
 * never from the rows all three share (docs/SPEC.md section 7, "Merge"; DUCKLAKE.md "Data"). A row
 * of a base data file that ours and theirs still show (the file, by location, visible on all three
 * sides, its position deleted on neither) is the same row on all three sides and is neither read nor
 * compared. What a side changed is then
 * <ul>
 * <li>its removed base rows: positions of base data files the side no longer shows (the whole
 * file when the side ended it, else the positions its delete files hold beyond the base's), read
 * from delete files only;</li>
 * <li>its added rows: the rows of its data files the base does not have.</li>
 * </ul>
 * The result is written against ours as deletes (positions in ours' files) and inserts (rows):
 * <ul>
 * <li>with a key (assumed unique on every side, as {@code import --mode sync --key} keeps it): a base
 * row removed by theirs only is removed from ours, a row added by theirs whose key ours did not
 * touch is added; the keys both sides touched (base rows removed on both, keys added on both) are
 * merged by {@link RowMerge} over those rows alone, and ours' rows of those keys are replaced where
 * the merge differs from them;</li>
 * <li>without a key: per distinct row, as diff3 merges a line ({@link #keyless}): a count theirs
 * changed and ours did not is changed in ours the same way, a count changed the same way on both
 * sides or on ours only stays.</li>
 * </ul>
 * {@link #plan} returns null where this does not apply and the caller merges whole tables: columns
 * that differ between the sides (by id, name, type or default), inlined rows or inlined deletes on
 * any side, a base row deleted in the base but shown again by a side, and, without a key, a
 * distinct row whose count both sides changed differently (the whole-table merge reports it).
 */
final class DeltaMerge {
    /** The three sides' entries of the table as the built-in reader reads them, and their views. */
    record Entries(SnapshotView baseView, SnapshotView.TableEntry base, SnapshotView oursView, SnapshotView.TableEntry ours,
                   SnapshotView theirsView, SnapshotView.TableEntry theirs) {}

    private final Connection duck;
    private final String p;
    private final Entries e;
    private final java.util.function.Consumer<java.util.Collection<String>> fetch;
    private final Set<String> opened = new HashSet<>();
    private final Map<String, Long> sizes = new HashMap<>();
    private final List<MergeResult.TableConflict> conflicts = new ArrayList<>();

    private DeltaMerge(Connection duck, int index, Entries e, java.util.function.Consumer<java.util.Collection<String>> fetch) {
        this.duck = duck;
        this.fetch = fetch;
        this.p = "__fdl_dm" + index + "_";
        this.e = e;
    }

    /** Rows to delete from ours: {@code __fdl_file} (ours' data file id), {@code __fdl_pos}. */
    String deletes() {
        return p + "del";
    }

    /**
     * {@link #open}s ours' delete files of the data files {@link #deletes} deletes from: what the
     * deletes afterwards are read from ({@code RowDelta}), before it reads them.
     */
    void openOursDeletes() throws SQLException {
        Set<Long> ids = new HashSet<>();
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT DISTINCT " + TableViewSql.FILE_ID + " FROM " + deletes() + " WHERE "
                     + TableViewSql.FILE_ID + " IS NOT NULL")) {
            while (rs.next()) ids.add(rs.getLong(1));
        }
        for (SnapshotView.DeleteFileEntry d : e.ours().deleteFiles()) if (ids.contains(d.dataFileId())) open(d.location());
    }

    /** Rows to insert into ours: columns {@code c<column id>} of ours' columns. */
    String inserts() {
        return p + "ins";
    }

    /** Ours' entry of the table (readable locations). */
    SnapshotView.TableEntry ours() {
        return e.ours();
    }

    /** The conflicts found (empty: the deletes and inserts are the merge). */
    List<MergeResult.TableConflict> conflicts() {
        return conflicts;
    }

    /** The bytes of the distinct data and delete files this merge opened. */
    long bytesRead() {
        return opened.stream().mapToLong(l -> sizes.getOrDefault(l, 0L)).sum();
    }

    /**
     * Plans the merge of one table from its changes, or returns null when the table must be merged
     * whole (see the class comment).
     *
     * @param index a number unique among the tables of this merge (names its DuckDB temp tables)
     * @param key   the key columns (empty: rows as multisets)
     * @param fetch makes the files at the locations given readable (a remote repository's into the
     *              mirror the entries locate them in); called with each file before it is first opened
     */
    static DeltaMerge plan(Connection duck, int index, String table, Entries e, List<String> key, MergeOptions.MergeSide resolution,
                           java.util.function.Consumer<java.util.Collection<String>> fetch) throws SQLException {
        if (!e.base().columns().equals(e.ours().columns()) || !e.base().columns().equals(e.theirs().columns())) return null;
        for (SnapshotView.TableEntry t : List.of(e.base(), e.ours(), e.theirs()))
            if (!t.inlined().isEmpty() || t.inlinedDeleteTable() != null) return null;
        List<String> keyCols = new ArrayList<>();
        for (String k : key) {
            SnapshotView.ColumnEntry c = e.base().columns().stream().filter(x -> Identifiers.same(x.name(), k)).findFirst().orElse(null);
            if (c == null) return null;
            keyCols.add(SqlQuote.ident(TableViewSql.idColumn(c.id())));
        }
        DeltaMerge m = new DeltaMerge(duck, index, e, fetch);
        for (SnapshotView.TableEntry t : List.of(e.base(), e.ours(), e.theirs()))
            for (SnapshotView.DataFileEntry f : t.dataFiles()) m.sizes.put(f.location(), f.bytes());
        if (!m.removed(e.ours(), "do") || !m.removed(e.theirs(), "dt")) return null;
        m.added(e.oursView(), e.ours(), "ao");
        m.added(e.theirsView(), e.theirs(), "at");
        m.exec("CREATE OR REPLACE TEMP TABLE " + p(m, "dboth") + " AS SELECT bf, pos FROM " + p(m, "do") + " INTERSECT SELECT bf, pos FROM "
                + p(m, "dt"));
        long both = m.count(p(m, "dboth"));
        if (keyCols.isEmpty()) return m.keyless() ? m : null;
        m.keyed(table, keyCols, both, resolution);
        return m;
    }

    private static String p(DeltaMerge m, String name) {
        return m.p + name;
    }

    private String t(String name) {
        return p + name;
    }

    /** {@code c<id>, …} of the table's columns, each prefixed with {@code alias.} when given. */
    private String cols(String alias) {
        List<String> out = new ArrayList<>();
        for (SnapshotView.ColumnEntry c : e.base().columns())
            out.add((alias.isEmpty() ? "" : alias + ".") + SqlQuote.ident(TableViewSql.idColumn(c.id())));
        return out.isEmpty() ? "NULL AS __fdl_no_columns" : String.join(", ", out);
    }

    /**
     * Fills {@code name} ({@code bf}: base data file id, {@code pos}) with the base rows the side no
     * longer shows. Returns false when the side shows a base row the base had deleted.
     */
    private boolean removed(SnapshotView.TableEntry side, String name) throws SQLException {
        Map<String, SnapshotView.DataFileEntry> sideFiles = new HashMap<>();
        for (SnapshotView.DataFileEntry f : side.dataFiles()) sideFiles.put(f.location(), f);
        List<String> parts = new ArrayList<>(), undeleted = new ArrayList<>();
        for (SnapshotView.DataFileEntry bf : e.base().dataFiles()) {
            List<String> baseDeletes = deleteLocations(e.base(), bf.id());
            SnapshotView.DataFileEntry sf = sideFiles.get(bf.location());
            if (sf == null) {
                String gone = "SELECT " + bf.id() + "::BIGINT AS bf, range AS pos FROM range(" + bf.recordCount() + ")";
                if (!baseDeletes.isEmpty()) gone += " EXCEPT " + positions(bf.id(), baseDeletes);
                parts.add(gone);
                continue;
            }
            List<String> sideDeletes = deleteLocations(side, sf.id());
            if (new HashSet<>(sideDeletes).equals(new HashSet<>(baseDeletes))) continue;
            String sidePos = sideDeletes.isEmpty() ? "SELECT NULL::BIGINT AS bf, NULL::BIGINT AS pos WHERE false" : positions(bf.id(), sideDeletes);
            parts.add(baseDeletes.isEmpty() ? sidePos : "(" + sidePos + ") EXCEPT (" + positions(bf.id(), baseDeletes) + ")");
            if (!baseDeletes.isEmpty()) undeleted.add("(" + positions(bf.id(), baseDeletes) + ") EXCEPT (" + sidePos + ")");
        }
        if (!undeleted.isEmpty()) {
            try (Statement st = duck.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*) FROM (" + String.join(" UNION ALL ", undeleted) + ")")) {
                rs.next();
                if (rs.getLong(1) > 0) return false;
            }
        }
        exec("CREATE OR REPLACE TEMP TABLE " + t(name) + " AS " + (parts.isEmpty() ? "SELECT NULL::BIGINT AS bf, NULL::BIGINT AS pos WHERE false"
                : String.join(" UNION ALL ", parts.stream().map(x -> "(" + x + ")").toList())));
        return true;
    }

    /** The delete files of data file {@code dataFileId} in {@code t}, by location. */
    private static List<String> deleteLocations(SnapshotView.TableEntry t, long dataFileId) {
        return t.deleteFiles().stream().filter(d -> d.dataFileId() == dataFileId).map(SnapshotView.DeleteFileEntry::location).toList();
    }

    /** {@code bf, pos} of the positions the delete files hold, counted as opened. */
    private String positions(long baseFileId, List<String> deleteFiles) {
        List<String> parts = new ArrayList<>();
        for (String d : deleteFiles) {
            open(d);
            parts.add("SELECT " + baseFileId + "::BIGINT AS bf, pos::BIGINT AS pos FROM read_parquet(" + SqlQuote.literal(d) + ")");
        }
        return String.join(" UNION ", parts);
    }

    /**
     * Makes the file at {@code location} readable ({@code fetch}) and counts it as opened (once): its
     * size from the catalog, else from the local file system. Called before every file is read.
     */
    void open(String location) {
        if (opened.contains(location)) return;
        fetch.accept(List.of(location));
        opened.add(location);
        Long known = sizes.get(location);
        if (known != null && known >= 0) return;
        long size = 0;
        try {
            size = java.nio.file.Files.size(java.nio.file.Path.of(location));
        } catch (java.io.IOException | RuntimeException ignored) {
            // not a local file: its size is unknown here and counted as 0
        }
        sizes.put(location, size);
    }

    /** Fills {@code name} with the side's rows of data files the base does not show ({@code c<id>}…, file id, position). */
    private void added(SnapshotView view, SnapshotView.TableEntry side, String name) throws SQLException {
        Set<String> baseFiles = new HashSet<>();
        e.base().dataFiles().forEach(f -> baseFiles.add(f.location()));
        List<SnapshotView.DataFileEntry> own = side.dataFiles().stream().filter(f -> !baseFiles.contains(f.location())).toList();
        Set<Long> ids = new HashSet<>();
        own.forEach(f -> {
            ids.add(f.id());
            open(f.location());
        });
        List<SnapshotView.DeleteFileEntry> deletes = side.deleteFiles().stream().filter(d -> ids.contains(d.dataFileId())).toList();
        deletes.forEach(d -> open(d.location()));
        SnapshotView.TableEntry only = new SnapshotView.TableEntry(side.id(), side.schema(), side.name(), side.columns(), own, deletes,
                List.of(), null);
        exec("CREATE OR REPLACE TEMP TABLE " + t(name) + " AS " + new TableViewSql(view, only).selectWithRowIds());
    }

    /** Theirs' removed base rows that ours still shows, as positions in ours' data files. */
    private String theirsRemovedFromOurs() {
        return "SELECT m.o AS " + TableViewSql.FILE_ID + ", d.pos AS " + TableViewSql.POS + " FROM (SELECT bf, pos FROM " + t("dt")
                + " EXCEPT SELECT bf, pos FROM " + t("do") + ") AS d JOIN (" + fileMap() + ") AS m(b, o) ON d.bf = m.b";
    }

    /**
     * Without a key, per distinct row (docs/SPEC.md section 7): {@code dO} and {@code dT}, how much
     * ours and theirs changed its count (rows added minus base rows removed, the removed rows read
     * from the base's data files at their positions). {@code dT = 0} or {@code dO = dT}: ours' count
     * stays; {@code dO = 0}: theirs' change is applied to ours ({@code dT} of theirs' added copies
     * inserted, or {@code -dT} of ours' copies deleted: base rows theirs removed first, then ours'
     * added ones, which always suffice). Returns false, for the whole-table merge, when a row's
     * count changed differently on both sides: that merge reports it.
     */
    private boolean keyless() throws SQLException {
        exec("CREATE OR REPLACE TEMP TABLE " + t("ro") + " AS " + baseRowsAt(t("do")));
        exec("CREATE OR REPLACE TEMP TABLE " + t("rt") + " AS " + baseRowsAt(t("dt")));
        String v = row("x");
        exec("CREATE OR REPLACE TEMP TABLE " + t("n") + " AS SELECT v, sum(o)::BIGINT AS d_o, sum(th)::BIGINT AS d_t FROM ("
                + "SELECT " + v + " AS v, 1 AS o, 0 AS th FROM " + t("ao") + " AS x UNION ALL SELECT " + v + ", -1, 0 FROM " + t("ro")
                + " AS x UNION ALL SELECT " + v + ", 0, 1 FROM " + t("at") + " AS x UNION ALL SELECT " + v + ", 0, -1 FROM " + t("rt")
                + " AS x) GROUP BY v");
        if (count("(SELECT * FROM " + t("n") + " WHERE d_o <> 0 AND d_t <> 0 AND d_o <> d_t)") > 0) return false;
        String mine = "(SELECT v, d_t FROM " + t("n") + " WHERE d_o = 0 AND d_t <> 0)";
        exec("CREATE OR REPLACE TEMP TABLE " + inserts() + " AS SELECT " + cols("x") + " FROM (SELECT *, " + v + " AS v, row_number() OVER "
                + "(PARTITION BY " + v + ") AS rn FROM " + t("at") + " AS x) AS x JOIN " + mine + " AS n ON x.v IS NOT DISTINCT FROM n.v "
                + "WHERE n.d_t > 0 AND x.rn <= n.d_t");
        // ours' copies to delete: base rows theirs removed that ours still shows, then ours' added rows
        String removed = "SELECT r.* FROM " + t("rt") + " AS r ANTI JOIN " + t("do") + " AS d ON r." + TableViewSql.FILE_ID + " = d.bf AND r."
                + TableViewSql.POS + " = d.pos";
        String candidates = "SELECT " + v + " AS v, 0 AS k, m.o AS f, x." + TableViewSql.POS + " AS pos FROM (" + removed + ") AS x JOIN ("
                + fileMap() + ") AS m(b, o) ON x." + TableViewSql.FILE_ID + " = m.b UNION ALL SELECT " + v + ", 1, x." + TableViewSql.FILE_ID
                + ", x." + TableViewSql.POS + " FROM " + t("ao") + " AS x";
        exec("CREATE OR REPLACE TEMP TABLE " + deletes() + " AS SELECT c.f AS " + TableViewSql.FILE_ID + ", c.pos AS " + TableViewSql.POS
                + " FROM (SELECT *, row_number() OVER (PARTITION BY v ORDER BY k, f, pos) AS rn FROM (" + candidates + ")) AS c JOIN " + mine
                + " AS n ON c.v IS NOT DISTINCT FROM n.v WHERE n.d_t < 0 AND c.rn <= -n.d_t");
        return true;
    }

    /** A row of {@code alias} as one value (a struct of its columns {@code c<id>}), compared and grouped as a whole. */
    private String row(String alias) {
        List<String> fields = new ArrayList<>();
        for (SnapshotView.ColumnEntry c : e.base().columns()) {
            String col = SqlQuote.ident(TableViewSql.idColumn(c.id()));
            fields.add(col + " := " + alias + "." + col);
        }
        return fields.isEmpty() ? "NULL" : "struct_pack(" + String.join(", ", fields) + ")";
    }

    /** {@code (base data file id, ours' data file id)} of the base's data files ours still shows, as a VALUES list (one row never matching when none). */
    private String fileMap() {
        Map<String, Long> oursIds = new LinkedHashMap<>();
        e.ours().dataFiles().forEach(f -> oursIds.put(f.location(), f.id()));
        List<String> map = new ArrayList<>();
        for (SnapshotView.DataFileEntry bf : e.base().dataFiles()) {
            Long of = oursIds.get(bf.location());
            if (of != null) map.add("(" + bf.id() + "::BIGINT, " + of + "::BIGINT)");
        }
        return map.isEmpty() ? "VALUES (NULL::BIGINT, NULL::BIGINT)" : "VALUES " + String.join(", ", map);
    }

    /** The base's rows at the positions of {@code positions} ({@code bf, pos}): columns {@code c<id>}, file id, position; only their data files are opened. */
    private String baseRowsAt(String positions) throws SQLException {
        Set<Long> files = new HashSet<>();
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("SELECT DISTINCT bf FROM " + positions)) {
            while (rs.next()) files.add(rs.getLong(1));
        }
        List<SnapshotView.DataFileEntry> read = e.base().dataFiles().stream().filter(f -> files.contains(f.id())).toList();
        read.forEach(f -> open(f.location()));
        List<SnapshotView.DeleteFileEntry> deletes = e.base().deleteFiles().stream().filter(d -> files.contains(d.dataFileId())).toList();
        deletes.forEach(d -> open(d.location()));
        SnapshotView.TableEntry some = new SnapshotView.TableEntry(e.base().id(), e.base().schema(), e.base().name(),
                e.base().columns(), read, deletes, List.of(), null);
        return "SELECT v.* FROM (" + new TableViewSql(e.baseView(), some).selectWithRowIds() + ") AS v SEMI JOIN " + positions
                + " AS d ON v." + TableViewSql.FILE_ID + " = d.bf AND v." + TableViewSql.POS + " = d.pos";
    }

    /**
     * With a key: the keys both sides touched ({@code k}: keys of base rows removed on both sides,
     * keys added on both) merged by {@link RowMerge} over their rows only; everything else theirs
     * changed is taken as it is.
     */
    private void keyed(String table, List<String> keyCols, long both, MergeOptions.MergeSide resolution) throws SQLException {
        String keys = String.join(", ", keyCols);
        String baseRows;
        if (both > 0) {
            baseRows = baseRowsAt(t("dboth"));
        } else {
            SnapshotView.TableEntry none = new SnapshotView.TableEntry(e.base().id(), e.base().schema(), e.base().name(),
                    e.base().columns(), List.of(), List.of(), List.of(), null);
            baseRows = new TableViewSql(e.baseView(), none).selectWithRowIds();
        }
        exec("CREATE OR REPLACE TEMP TABLE " + t("b") + " AS " + baseRows);
        exec("CREATE OR REPLACE TEMP TABLE " + t("k") + " AS SELECT " + keys + " FROM " + t("b") + " UNION (SELECT " + keys + " FROM "
                + t("ao") + " INTERSECT SELECT " + keys + " FROM " + t("at") + ")");
        String on = String.join(" AND ", keyCols.stream().map(k -> "x." + k + " = k." + k).toList());
        exec("CREATE OR REPLACE TEMP TABLE " + t("o") + " AS SELECT x.* FROM " + t("ao") + " AS x SEMI JOIN " + t("k") + " AS k ON " + on);
        exec("CREATE OR REPLACE TEMP TABLE " + t("t") + " AS SELECT x.* FROM " + t("at") + " AS x SEMI JOIN " + t("k") + " AS k ON " + on);
        List<String> keyNames = new ArrayList<>();
        for (String k : keyCols)
            for (SnapshotView.ColumnEntry c : e.base().columns())
                if (SqlQuote.ident(TableViewSql.idColumn(c.id())).equals(k)) keyNames.add(c.name());
        RowMerge rm = RowMerge.plan(duck, table, new RowMerge.SideRows(e.base(), "SELECT * FROM " + t("b")),
                new RowMerge.SideRows(e.ours(), "SELECT * FROM " + t("o")), new RowMerge.SideRows(e.theirs(), "SELECT * FROM " + t("t")),
                keyNames, new RowMerge.Settle(resolution, false));
        if (!rm.conflicts().isEmpty()) {
            conflicts.addAll(rm.conflicts());
            return;
        }
        List<String> byId = new ArrayList<>();
        for (SnapshotView.ColumnEntry c : e.base().columns())
            byId.add("r." + SqlQuote.ident(c.name()) + " AS " + SqlQuote.ident(TableViewSql.idColumn(c.id())));
        exec("CREATE OR REPLACE TEMP TABLE " + t("r") + " AS SELECT " + (byId.isEmpty() ? "NULL AS __fdl_no_columns" : String.join(", ", byId))
                + " FROM (" + rm.merged(resolution) + ") AS r");
        List<String> differs = new ArrayList<>(List.of("false"));
        for (SnapshotView.ColumnEntry c : e.base().columns()) {
            String col = SqlQuote.ident(TableViewSql.idColumn(c.id()));
            differs.add("o." + col + " IS DISTINCT FROM r." + col);
        }
        String diff = String.join(" OR ", differs);
        String onOr = String.join(" AND ", keyCols.stream().map(k -> "o." + k + " = r." + k).toList());
        String first = keyCols.get(0);
        exec("CREATE OR REPLACE TEMP TABLE " + deletes() + " AS " + theirsRemovedFromOurs() + " UNION ALL SELECT o." + TableViewSql.FILE_ID
                + ", o." + TableViewSql.POS + " FROM " + t("o") + " AS o LEFT JOIN " + t("r") + " AS r ON " + onOr + " WHERE r." + first
                + " IS NULL OR " + diff);
        exec("CREATE OR REPLACE TEMP TABLE " + inserts() + " AS SELECT " + cols("x") + " FROM " + t("at") + " AS x ANTI JOIN " + t("k")
                + " AS k ON " + on + " UNION ALL SELECT " + cols("r") + " FROM " + t("r") + " AS r LEFT JOIN " + t("o") + " AS o ON " + onOr
                + " WHERE o." + first + " IS NULL OR " + diff);
    }

    private void exec(String sql) throws SQLException {
        try (Statement st = duck.createStatement()) {
            st.execute(sql);
        }
    }

    long count(String relation) throws SQLException {
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + relation)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
