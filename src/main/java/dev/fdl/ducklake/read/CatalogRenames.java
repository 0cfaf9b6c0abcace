package dev.fdl.ducklake.read;

import dev.fdl.FdlException;
import dev.fdl.ducklake.catalog.ColumnTypes;
import dev.fdl.ducklake.catalog.MetadataQueries;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.Sql;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tables and columns one catalog renamed between two of its snapshots: a table by its table
 * id, its columns as {@link ColumnPairing} pairs them (the rule {@code fdl diff} follows). Read
 * from the catalog's metadata alone (no data file is opened).
 *
 * @param tables the tables visible at both snapshots whose name or a column's name changed
 */
public record CatalogRenames(List<Table> tables) {
    /** None. */
    public static final CatalogRenames NONE = new CatalogRenames(List.of());

    public CatalogRenames {
        tables = List.copyOf(tables);
    }

    /**
     * One table's names before and after ({@code schema} as DuckDB qualifies it).
     *
     * @param columns per renamed column, its name before to its name after
     */
    public record Table(String schemaBefore, String nameBefore, String schemaAfter, String nameAfter, Map<String, String> columns) {
        public Table {
            columns = Map.copyOf(columns);
        }
    }

    /**
     * The renames from snapshot {@code from} to the newest snapshot of DuckDB-file catalog {@code duckdbCatalog}.
     *
     * @throws FdlException (exit 1) naming the catalog when it cannot be read
     */
    public static CatalogRenames since(DuckDbPool pool, Path duckdbCatalog, long from) {
        try (Connection conn = pool.connection()) {
            Sql.attach(conn, duckdbCatalog, MetadataQueries.CATALOG_ALIAS, true);
            MetadataQueries model = new MetadataQueries(conn, MetadataQueries.CATALOG_ALIAS, duckdbCatalog.toString());
            return between(model, from, model.snapshotRange()[1]);
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot read catalog " + duckdbCatalog + ": " + DuckDbErrors.firstLine(e), e);
        }
    }

    /**
     * The renames from snapshot {@code from} to snapshot {@code to} of the catalog {@code model}
     * reads. The table and column rows visible at {@code from} are read even where the catalog no
     * longer lists that snapshot (a working catalog starts at its base's last snapshot + 1 and keeps
     * the rows); none are found where they were removed.
     */
    public static CatalogRenames between(MetadataQueries model, long from, long to) throws SQLException {
        Map<Long, String[]> before = names(model, from), after = names(model, to);
        List<Table> out = new ArrayList<>();
        for (Map.Entry<Long, String[]> e : before.entrySet()) {
            String[] now = after.get(e.getKey());
            if (now == null) continue;
            long id = e.getKey();
            List<ColumnTypes.Column> was = model.columns(id, from), is = model.columns(id, to);
            Map<String, String> columns = new LinkedHashMap<>();
            ColumnPairing.pair(was, is, true, ColumnTypes.Column::id, ColumnTypes.Column::name).forEach((c, old) -> {
                if (!old.name().equals(c.name())) columns.put(old.name(), c.name());
            });
            String[] then = e.getValue();
            if (!columns.isEmpty() || !then[0].equals(now[0]) || !then[1].equals(now[1]))
                out.add(new Table(then[0], then[1], now[0], now[1], columns));
        }
        return new CatalogRenames(out);
    }

    /** Per table id visible at {@code snapshot}: its schema's qualified name and its name. */
    private static Map<Long, String[]> names(MetadataQueries model, long snapshot) throws SQLException {
        Map<Long, String> schemas = model.schemaNames(model.schemas(snapshot));
        Map<Long, String[]> out = new HashMap<>();
        for (MetadataQueries.TableRow r : model.tableRows(snapshot))
            out.put(r.id(), new String[]{String.valueOf(schemas.get(r.schemaId())), r.name()});
        return out;
    }
}
