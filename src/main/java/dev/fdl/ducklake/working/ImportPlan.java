package dev.fdl.ducklake.working;

import dev.fdl.ducklake.catalog.ColumnTypes;
import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.FdlException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.catalog.MetadataQueries;
import dev.fdl.ducklake.format.DuckLakePaths;
import dev.fdl.ducklake.format.DuckLakeTypes;

/**
 * What an import does to the catalog, decided before anything is written: which columns the new
 * data file has (with their column ids, which become the Parquet field ids), whether the schema
 * and table are created, whether the table's columns change, and whether old rows are replaced.
 */
public final class ImportPlan {
    /** A column of the table after the import; {@code sourceName} is the source column that feeds it. */
    public record Column(long id, String name, String sourceName, String duckType, String lakeType) {}

    private final TableName table;
    private final boolean createsSchema;
    private final boolean createsTable;
    private final boolean altersTable;
    private final boolean replacesRows;
    private final List<Column> columns;
    private final List<Long> endedColumns;
    private final WorkingCatalog.State state;

    private ImportPlan(TableName table, WorkingCatalog.State state, boolean createsTable, boolean altersTable,
                       boolean replacesRows, List<Column> columns, List<Long> endedColumns) {
        this.table = table;
        this.state = state;
        this.createsSchema = state.schema() == null;
        this.createsTable = createsTable;
        this.altersTable = altersTable;
        this.replacesRows = replacesRows;
        this.columns = List.copyOf(columns);
        this.endedColumns = List.copyOf(endedColumns);
    }

    WorkingCatalog.State state() {
        return state;
    }

    public TableName table() {
        return table;
    }

    boolean createsSchema() {
        return createsSchema;
    }

    public boolean createsTable() {
        return createsTable;
    }

    /** True when the table exists and its columns change (a new schema version, {@code altered_table}). */
    boolean altersTable() {
        return altersTable;
    }

    /** True when the table's existing rows stop being visible at the new snapshot. */
    boolean replacesRows() {
        return replacesRows;
    }

    public List<Column> columns() {
        return columns;
    }

    /** Column ids whose rows get an {@code end_snapshot}. */
    List<Long> endedColumns() {
        return endedColumns;
    }

    /** True when the import is DDL: a new schema version. */
    boolean isDdl() {
        return createsSchema || createsTable || altersTable;
    }

    /**
     * The table's folder relative to the data folder ({@code main/cities/}): where the catalog
     * resolves the table's files ({@link DuckLakePaths}), or where a new schema and table put them
     * ({@link DuckLakePaths#newFolder}). {@code dataLocation} is the data folder's absolute location,
     * which the working catalog's data_path names.
     *
     * @throws FdlException when the catalog puts the table outside the data folder
     */
    public String tableFolderKey(String dataLocation) {
        return tableFolderKey(state, table, dataLocation);
    }

    /** {@link #tableFolderKey(String)} of {@code table} in the catalog state {@code state}. */
    public static String tableFolderKey(WorkingCatalog.State state, TableName table, String dataLocation) {
        DuckLakePaths paths = DuckLakePaths.of(dataLocation, null);
        String schemaFolder = state.schema() == null ? paths.base() + DuckLakePaths.newFolder(table.schema())
                : paths.schemaFolders(MetadataQueries.pathRows(state.schemas())).get(state.schema().id());
        String tableFolder = state.table() == null ? schemaFolder + DuckLakePaths.newFolder(table.name())
                : paths.tableFolder(schemaFolder, state.table().path(), state.table().relative());
        if (!tableFolder.startsWith(paths.base()) || paths.base().isEmpty()) {
            throw new FdlException("table " + table + " keeps its files at " + tableFolder + ", outside the repository's data folder "
                    + paths.base() + "; fdl import writes only into the data folder");
        }
        return tableFolder.substring(paths.base().length());
    }

    /**
     * A new table {@code name} with exactly {@code columns} (their ids as given, e.g. the field ids
     * of files already written): what {@code fdl add-files --create} records.
     *
     * @throws FdlException when the table exists
     */
    public static ImportPlan create(TableName name, WorkingCatalog.State state, List<Column> columns) {
        if (state.table() != null) throw new FdlException("table " + name + " already exists in the working catalog; add files to it without --create");
        return new ImportPlan(name, state, true, false, false, columns, List.of());
    }

    /** Rows added to an existing table whose columns (after any schema change) are {@code columns}. */
    public static ImportPlan append(TableName name, WorkingCatalog.State state, List<Column> columns) {
        return new ImportPlan(name, state, false, false, false, columns, List.of());
    }

    public static ImportPlan make(TableName name, ImportMode mode, WorkingCatalog.State state,
                           Map<String, String> sourceTypes, Path source) {
        List<Column> fromSource = new ArrayList<>();
        if (state.table() == null) {
            if (mode == ImportMode.APPEND) {
                throw FdlException.notFound("table " + name + " does not exist in the working catalog; "
                        + "import the file with --mode create to create it");
            }
            long id = 1;
            for (Map.Entry<String, String> e : sourceTypes.entrySet()) {
                fromSource.add(new Column(id++, e.getKey(), e.getKey(), e.getValue(), lakeType(e.getKey(), e.getValue(), source)));
            }
            return new ImportPlan(name, state, true, false, false, fromSource, List.of());
        }
        if (mode == ImportMode.CREATE) {
            throw new FdlException("cannot import " + source + ": table " + name + " already exists in the working catalog; use --mode replace "
                    + "to replace its rows or --mode append to add to them");
        }
        List<ColumnTypes.Column> current = state.columns();
        for (ColumnTypes.Column c : current) {
            if (c.nested()) {
                throw new FdlException("table " + name + " has nested column '" + c.name() + "' (" + c.lakeType()
                        + "); fdl import writes flat columns only: use fdl sql with the DuckLake extension");
            }
        }
        if (mode == ImportMode.APPEND) {
            List<String> missing = new ArrayList<>();
            List<String> extra = new ArrayList<>();
            List<Column> columns = new ArrayList<>();
            for (ColumnTypes.Column c : current) {
                Optional<String> s = sourceTypes.keySet().stream().filter(n -> Identifiers.same(n, c.name())).findFirst();
                if (s.isEmpty()) missing.add(c.name());
                else columns.add(new Column(c.id(), c.name(), s.get(), duckType(c, name), c.lakeType()));
            }
            for (String s : sourceTypes.keySet()) {
                if (current.stream().noneMatch(c -> Identifiers.same(c.name(), s))) extra.add(s);
            }
            if (!missing.isEmpty() || !extra.isEmpty()) {
                String hint = sourceTypes.size() == 1 && current.size() > 1
                        ? " The file reads as a single column: check its delimiter." : "";
                throw new FdlException("cannot append " + source + " to " + name + ": its columns do not match the table's"
                        + (missing.isEmpty() ? "" : "; missing: " + String.join(", ", missing))
                        + (extra.isEmpty() ? "" : "; not in the table: " + String.join(", ", extra))
                        + ". The table has: " + String.join(", ", current.stream().map(ColumnTypes.Column::name).toList())
                        + "." + hint);
            }
            return new ImportPlan(name, state, false, false, false, columns, List.of());
        }
        // REPLACE of an existing table: keep the columns (and their ids) when the file has the same
        // columns in the same order; otherwise the table's columns are replaced by the file's.
        boolean same = current.size() == sourceTypes.size();
        List<Column> kept = new ArrayList<>();
        if (same) {
            int i = 0;
            for (Map.Entry<String, String> e : sourceTypes.entrySet()) {
                ColumnTypes.Column c = current.get(i++);
                String lake = lakeType(e.getKey(), e.getValue(), source);
                if (!c.name().equals(e.getKey()) || !c.lakeType().equalsIgnoreCase(lake)) {
                    same = false;
                    break;
                }
                kept.add(new Column(c.id(), c.name(), e.getKey(), e.getValue(), c.lakeType()));
            }
        }
        if (same) return new ImportPlan(name, state, false, false, true, kept, List.of());
        long id = state.maxColumnId() + 1;
        for (Map.Entry<String, String> e : sourceTypes.entrySet()) {
            fromSource.add(new Column(id++, e.getKey(), e.getKey(), e.getValue(), lakeType(e.getKey(), e.getValue(), source)));
        }
        List<Long> ended = current.stream().map(ColumnTypes.Column::id).toList();
        return new ImportPlan(name, state, false, true, true, fromSource, ended);
    }

    private static String duckType(ColumnTypes.Column c, TableName name) {
        return DuckLakeTypes.toDuckDb(new DuckLakeTypes.Node(c.name(), c.lakeType(), List.of()), name.toString());
    }

    public static String lakeType(String column, String duckType, Path source) {
        return DuckLakeTypes.flatToDuckLake(duckType).orElseThrow(() -> new FdlException("cannot import " + source
                + ": column '" + column + "' has type " + duckType + ", which fdl import cannot record; give it a flat "
                + "type with --schema (e.g. --schema \"" + column + " VARCHAR\" or JSON)"));
    }
}
