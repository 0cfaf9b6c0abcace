package dev.fdl.ducklake.load.sync;

import dev.fdl.ducklake.catalog.ColumnTypes;
import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.FdlException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.format.DuckLakeTypes;
import dev.fdl.ducklake.load.Importer;
import dev.fdl.ducklake.working.ImportPlan;
import dev.fdl.ducklake.working.WorkingCatalog;

/**
 * The schema side of {@code fdl import --mode sync} onto an existing table, decided before anything
 * is written: the table's columns after the sync (with their DuckLake column ids, which become the
 * Parquet field ids of new rows), and the DuckLake schema changes that get there, as the extension
 * records {@code ALTER TABLE} (DuckLake spec "Schema Evolution"; DUCKLAKE.md):
 * <ul>
 *   <li>a file column the table lacks is added (a new column id, initial default NULL);</li>
 *   <li>a table column the file lacks is dropped (its column row ends);</li>
 *   <li>a column named with other letter case is renamed, a column whose type widens as DuckLake
 *       allows ({@link #WIDENS}) is retyped: same column id, a new column row;</li>
 *   <li>a file type that widens to the table's type keeps the table's type (the values fit);</li>
 *   <li>any other type change is refused naming the column, with the hint {@code --mode replace}.</li>
 * </ul>
 * Columns are matched by name, case-insensitively as DuckDB matches identifiers; the table keeps
 * its column order and added columns come last.
 */
final class SyncPlan {
    /** DuckLake's type promotions: each type and the wider types a column of it may become. */
    static final Map<String, Set<String>> WIDENS = Map.of(
            "int8", Set.of("int16", "int32", "int64"),
            "int16", Set.of("int32", "int64"),
            "int32", Set.of("int64"),
            "uint8", Set.of("uint16", "uint32", "uint64"),
            "uint16", Set.of("uint32", "uint64"),
            "uint32", Set.of("uint64"),
            "float32", Set.of("float64"));

    /** A column after the sync and the old column it continues (null for an added column). */
    record Target(ImportPlan.Column column, ColumnTypes.Column old) {}

    private final List<Target> targets;
    private final List<ColumnTypes.Column> dropped;
    private final List<ImportPlan.Column> keys;
    private final List<String> changes;

    private SyncPlan(List<Target> targets, List<ColumnTypes.Column> dropped, List<ImportPlan.Column> keys,
                     List<String> changes) {
        this.targets = List.copyOf(targets);
        this.dropped = List.copyOf(dropped);
        this.keys = List.copyOf(keys);
        this.changes = List.copyOf(changes);
    }

    /** Every column of the table after the sync, in table order. */
    List<Target> targets() {
        return targets;
    }

    /** The columns after the sync, as the importer writes them. */
    List<ImportPlan.Column> columns() {
        return targets.stream().map(Target::column).toList();
    }

    /** Columns whose row ends: dropped ones. */
    List<ColumnTypes.Column> dropped() {
        return dropped;
    }

    /** Columns kept under the same id with another name or type: their row ends and a new one begins. */
    List<ImportPlan.Column> redefined() {
        List<ImportPlan.Column> r = new ArrayList<>();
        for (Target t : targets) {
            if (t.old() != null && (!t.old().name().equals(t.column().name())
                    || !t.old().lakeType().equalsIgnoreCase(t.column().lakeType()))) {
                r.add(t.column());
            }
        }
        return r;
    }

    /** New columns. */
    List<ImportPlan.Column> added() {
        return targets.stream().filter(t -> t.old() == null).map(Target::column).toList();
    }

    /** True when the table's columns change: a new schema version and {@code altered_table}. */
    boolean altersTable() {
        return !dropped.isEmpty() || !redefined().isEmpty() || !added().isEmpty();
    }

    /** The key columns (the row identity); empty: the whole row is the identity. */
    List<ImportPlan.Column> keys() {
        return keys;
    }

    /** The schema changes in words ({@code added column note VARCHAR}), for the user. */
    List<String> changes() {
        return changes;
    }

    /**
     * @param keyNames the {@code --key} columns (empty for none)
     * @throws FdlException usage error for a key the file lacks; failure naming the column for a
     *                      type change DuckLake cannot apply, or a nested column in the table
     */
    static SyncPlan make(TableName name, WorkingCatalog.State state, Importer.SourceColumns src, Path source,
                         List<String> keyNames) {
        for (ColumnTypes.Column c : state.columns()) {
            if (c.nested()) {
                throw new FdlException("table " + name + " has nested column '" + c.name() + "' (" + c.lakeType()
                        + "); fdl import writes flat columns only: use fdl sql with the DuckLake extension");
            }
        }
        Map<String, String> fileColumns = new HashMap<>();
        for (String c : src.types().keySet()) fileColumns.put(Identifiers.fold(c), c);
        List<Target> targets = new ArrayList<>();
        List<ColumnTypes.Column> dropped = new ArrayList<>();
        List<String> changes = new ArrayList<>();
        for (ColumnTypes.Column c : state.columns()) {
            String fileName = fileColumns.remove(Identifiers.fold(c.name()));
            if (fileName == null) {
                dropped.add(c);
                changes.add("dropped column " + c.name());
                continue;
            }
            String fileDuck = src.types().get(fileName);
            String fileLake = ImportPlan.lakeType(fileName, fileDuck, source);
            String lake = c.lakeType();
            if (!fileLake.equalsIgnoreCase(lake)) {
                if (WIDENS.getOrDefault(lake.toLowerCase(Locale.ROOT), Set.of()).contains(fileLake.toLowerCase(Locale.ROOT))) {
                    changes.add("retyped column " + fileName + " " + lake + " -> " + fileLake);
                    lake = fileLake;
                } else if (!WIDENS.getOrDefault(fileLake.toLowerCase(Locale.ROOT), Set.of()).contains(lake.toLowerCase(Locale.ROOT))) {
                    throw new FdlException("cannot sync " + source + " into " + name + ": column '" + c.name() + "' is "
                            + duckType(c.name(), lake, name) + " in the table but " + fileDuck + " in the file, and DuckLake "
                            + "can change a column's type only by widening it (e.g. INTEGER to BIGINT, FLOAT to DOUBLE). "
                            + "Use --mode replace to replace the table's columns, or --schema \"" + fileName + " "
                            + duckType(c.name(), c.lakeType(), name) + "\" to read the file's column as the table's type");
                }
            }
            if (!fileName.equals(c.name())) changes.add("renamed column " + c.name() + " -> " + fileName);
            targets.add(new Target(new ImportPlan.Column(c.id(), fileName, fileName, duckType(fileName, lake, name), lake), c));
        }
        long id = state.maxColumnId() + 1;
        for (String fileName : src.types().keySet()) {
            if (!fileColumns.containsKey(Identifiers.fold(fileName))) continue;
            String duck = src.types().get(fileName);
            String lake = ImportPlan.lakeType(fileName, duck, source);
            targets.add(new Target(new ImportPlan.Column(id++, fileName, fileName, duckType(fileName, lake, name), lake), null));
            changes.add("added column " + fileName + " " + duck);
        }
        List<ImportPlan.Column> keys = new ArrayList<>();
        for (String k : keyNames) {
            Optional<ImportPlan.Column> col = targets.stream().map(Target::column)
                    .filter(c -> Identifiers.same(c.name(), k.trim())).findFirst();
            if (col.isEmpty()) {
                throw FdlException.usage("--key names column '" + k.trim() + "', which " + source + " does not have (it has: "
                        + String.join(", ", src.types().keySet()) + ")");
            }
            if (keys.contains(col.get())) throw FdlException.usage("--key names column '" + k.trim() + "' twice");
            keys.add(col.get());
        }
        return new SyncPlan(targets, dropped, keys, changes);
    }

    private static String duckType(String column, String lakeType, TableName table) {
        return DuckLakeTypes.toDuckDb(new DuckLakeTypes.Node(column, lakeType, List.of()), table.toString());
    }
}
