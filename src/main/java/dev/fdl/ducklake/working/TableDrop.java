package dev.fdl.ducklake.working;

import dev.fdl.FdlException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import dev.fdl.ducklake.TableName;

/**
 * {@code fdl rm <table>…}: drops tables of the working catalog as one DuckLake snapshot, writing
 * exactly what the DuckLake extension writes for {@code DROP TABLE} (its metadata manager's
 * {@code DropTables}, and the {@code towns} fixture's snapshot 9, docs/DUCKLAKE.md "Dropping a
 * table"): a new snapshot with {@code schema_version} + 1 and the same {@code next_catalog_id} and
 * {@code next_file_id}, {@code changes_made} {@code dropped_table:<id>} per table (by id), and
 * {@code end_snapshot} = the new snapshot on the visible rows of the table in
 * {@code ducklake_table, ducklake_partition_info, ducklake_column, ducklake_column_tag,
 * ducklake_data_file, ducklake_delete_file, ducklake_tag} (by {@code object_id}: also fdl's
 * recorded row key, {@link RowKey}) and {@code ducklake_sort_info}. Rows without a snapshot range
 * stay as they are, as the extension leaves them: table and column statistics, file column
 * statistics, {@code ducklake_schema_versions}, inlined-data tables and their rows, inlined deletes
 * (the table's end hides them). No data file is deleted: older snapshots and versions still name
 * them, and {@code fdl gc} removes them once no live version does.
 */
public final class TableDrop {
    /** A dropped table: its name and the DuckLake table id that ended. */
    public record Dropped(TableName table, long tableId) {}

    /**
     * What {@link #drop} did.
     *
     * @param snapshot the new snapshot's id
     * @param tables   the dropped tables, in the order they were named (each once)
     */
    public record DropResult(long snapshot, List<Dropped> tables) {
        public DropResult {
            tables = List.copyOf(tables);
        }
    }

    /** The catalog tables whose rows of a dropped table end, with the column naming the table (DuckLake's {@code DropTables}). */
    private static final Map<String, String> ENDED = endedTables();

    private static Map<String, String> endedTables() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("ducklake_table", "table_id");
        m.put("ducklake_partition_info", "table_id");
        m.put("ducklake_column", "table_id");
        m.put("ducklake_column_tag", "table_id");
        m.put("ducklake_data_file", "table_id");
        m.put("ducklake_delete_file", "table_id");
        m.put("ducklake_tag", "object_id");
        m.put("ducklake_sort_info", "table_id");
        return m;
    }

    private TableDrop() {}

    /**
     * Drops {@code tables} ({@code [schema.]name} each; a name given twice counts once) from the
     * working catalog's newest snapshot, in one new snapshot.
     *
     * @param author  recorded as the snapshot's author (may be null)
     * @param message recorded as the snapshot's commit message (may be null)
     * @throws FdlException usage error (exit 2) for no name or a bad one; not found (exit 4) naming
     *     every table the working catalog does not show, with the tables it does; conflict when
     *     another writer added a snapshot meanwhile. The working catalog is then unchanged.
     */
    public static DropResult drop(Path sqliteCatalog, List<String> tables, String author, String message) {
        if (tables == null || tables.isEmpty()) throw FdlException.usage("name at least one table to remove: [schema.]name");
        List<TableName> names = new ArrayList<>();
        for (String t : tables) {
            TableName n = TableName.parse(t);
            if (!names.contains(n)) names.add(n);
        }
        if (!Files.isRegularFile(sqliteCatalog)) throw FdlException.notFound("working catalog " + sqliteCatalog + " does not exist");
        try (WorkingCatalog catalog = WorkingCatalog.open(sqliteCatalog)) {
            SnapshotRow newest = catalog.newestSnapshot();
            Map<TableName, Long> visible = catalog.tables(newest.id());
            List<String> missing = new ArrayList<>();
            List<Dropped> dropped = new ArrayList<>();
            for (TableName given : names) {
                // DuckDB names compare ignoring ASCII case (import keeps them apart so): the stored spelling is dropped
                TableName n = visible.containsKey(given) ? given : visible.keySet().stream()
                        .filter(t -> WorkingCatalog.sameButAsciiCase(t.schema(), given.schema())
                                && WorkingCatalog.sameButAsciiCase(t.name(), given.name()))
                        .findFirst().orElse(given);
                Long id = visible.get(n);
                if (id == null) missing.add(given.toString());
                else if (dropped.stream().noneMatch(d -> d.tableId() == id)) dropped.add(new Dropped(n, id));
            }
            if (!missing.isEmpty()) {
                java.util.TreeSet<String> shown = new java.util.TreeSet<>();
                visible.keySet().forEach(t -> shown.add(t.toString()));
                throw FdlException.notFound((missing.size() == 1 ? "table " + missing.get(0) + " does not"
                        : "tables " + String.join(", ", missing) + " do not") + " exist in the working catalog (tables: "
                        + (shown.isEmpty() ? "none" : String.join(", ", shown)) + "); nothing was removed");
            }
            Map<Long, Dropped> byId = new TreeMap<>();
            dropped.forEach(d -> byId.put(d.tableId(), d));
            StringJoiner ids = new StringJoiner(", ");
            for (Long id : byId.keySet()) ids.add(id.toString());
            long snapshot = catalog.newSnapshot(newest, "rm", author, message).commit(s -> {
                for (Long id : byId.keySet()) s.change("dropped_table:" + id);
                for (Map.Entry<String, String> e : ENDED.entrySet()) {
                    if (!catalog.hasTable(e.getKey())) continue; // a catalog table this catalog's format lacks has no rows to end
                    s.endRows(e.getKey(), e.getValue() + " IN (" + ids + ")");
                }
                // DDL: one schema version more for the whole snapshot; ids and file ids are not used up
                s.schemaChanged();
                return s.id();
            });
            return new DropResult(snapshot, dropped);
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot remove " + names.get(0)
                    + (names.size() > 1 ? " and " + (names.size() - 1) + " more" : "") + " from the working catalog "
                    + sqliteCatalog + ": " + e.getMessage(), e);
        }
    }
}
