package dev.fdl.ducklake.format;

import dev.fdl.FdlException;
import dev.fdl.util.SqlQuote;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The tables of a DuckLake catalog per format, with the column types and constraints DuckLake
 * itself declares (DUCKLAKE.md "Tables"; 1.0 checked against the {@code empty} fixture, 1.1 against
 * the {@code duckdb2-ducklake1.1-dev} fixtures and the DuckLake specification's "Upgrading to
 * DuckLake 1.1"), and the type mappings between the DuckDB-file and the SQLite-backed catalog
 * (DUCKLAKE.md "The SQLite-backed catalog").
 *
 * <p>Formats: {@code 1.0}; {@code 1.1-dev1} (what DuckDB 2.0's extension wrote before the release:
 * 1.0 plus {@code row_group_count} on data and delete files and {@code ducklake_view_column_tag});
 * {@code 1.1} (additionally {@code ducklake_schema.parent_schema_id}, nested schemas, and the
 * system columns of inlined-data tables renamed to {@code _ducklake_row_id},
 * {@code _ducklake_begin_snapshot}, {@code _ducklake_end_snapshot}). Any other format, including
 * other {@code 1.1-dev} states, is refused: fdl does not know what its tables mean.
 */
public final class DuckLakeSchema {
    /** DuckLake format versions fdl reads exactly, oldest first. */
    public static final List<String> KNOWN_FORMATS = List.of("1.0", "1.1-dev1", "1.1");
    /** The format of catalogs fdl creates (DuckDB 1.5 readers know no other). */
    public static final String FORMAT = "1.0";
    /** The released DuckLake 1.1 format, the target of {@code fdl checkout --ducklake-format 1.1}. */
    public static final String FORMAT_1_1 = "1.1";
    public static final String INLINED_DATA_PREFIX = "ducklake_inlined_data_";
    public static final String INLINED_DELETE_PREFIX = "ducklake_inlined_delete_";

    private static final String[] TABLES = {
        "ducklake_metadata(key VARCHAR NOT NULL, value VARCHAR NOT NULL, scope VARCHAR, scope_id BIGINT)",
        "ducklake_snapshot(snapshot_id BIGINT PRIMARY KEY, snapshot_time TIMESTAMP WITH TIME ZONE, schema_version BIGINT, next_catalog_id BIGINT, next_file_id BIGINT)",
        "ducklake_snapshot_changes(snapshot_id BIGINT PRIMARY KEY, changes_made VARCHAR, author VARCHAR, commit_message VARCHAR, commit_extra_info VARCHAR)",
        "ducklake_schema(schema_id BIGINT PRIMARY KEY, schema_uuid UUID, begin_snapshot BIGINT, end_snapshot BIGINT, schema_name VARCHAR, path VARCHAR, path_is_relative BOOLEAN)",
        "ducklake_table(table_id BIGINT, table_uuid UUID, begin_snapshot BIGINT, end_snapshot BIGINT, schema_id BIGINT, table_name VARCHAR, path VARCHAR, path_is_relative BOOLEAN)",
        "ducklake_view(view_id BIGINT, view_uuid UUID, begin_snapshot BIGINT, end_snapshot BIGINT, schema_id BIGINT, view_name VARCHAR, dialect VARCHAR, sql VARCHAR, column_aliases VARCHAR)",
        "ducklake_tag(object_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, key VARCHAR, value VARCHAR)",
        "ducklake_column_tag(table_id BIGINT, column_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, key VARCHAR, value VARCHAR)",
        "ducklake_data_file(data_file_id BIGINT PRIMARY KEY, table_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, file_order BIGINT, path VARCHAR, path_is_relative BOOLEAN, file_format VARCHAR, record_count BIGINT, file_size_bytes BIGINT, footer_size BIGINT, row_id_start BIGINT, partition_id BIGINT, encryption_key VARCHAR, mapping_id BIGINT, partial_max BIGINT)",
        "ducklake_file_column_stats(data_file_id BIGINT, table_id BIGINT, column_id BIGINT, column_size_bytes BIGINT, value_count BIGINT, null_count BIGINT, min_value VARCHAR, max_value VARCHAR, contains_nan BOOLEAN, extra_stats VARCHAR)",
        "ducklake_file_variant_stats(data_file_id BIGINT, table_id BIGINT, column_id BIGINT, variant_path VARCHAR, shredded_type VARCHAR, column_size_bytes BIGINT, value_count BIGINT, null_count BIGINT, min_value VARCHAR, max_value VARCHAR, contains_nan BOOLEAN, extra_stats VARCHAR)",
        "ducklake_delete_file(delete_file_id BIGINT PRIMARY KEY, table_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, data_file_id BIGINT, path VARCHAR, path_is_relative BOOLEAN, format VARCHAR, delete_count BIGINT, file_size_bytes BIGINT, footer_size BIGINT, encryption_key VARCHAR, partial_max BIGINT)",
        "ducklake_column(column_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, table_id BIGINT, column_order BIGINT, column_name VARCHAR, column_type VARCHAR, initial_default VARCHAR, default_value VARCHAR, nulls_allowed BOOLEAN, parent_column BIGINT, default_value_type VARCHAR, default_value_dialect VARCHAR)",
        "ducklake_table_stats(table_id BIGINT, record_count BIGINT, next_row_id BIGINT, file_size_bytes BIGINT)",
        "ducklake_table_column_stats(table_id BIGINT, column_id BIGINT, contains_null BOOLEAN, contains_nan BOOLEAN, min_value VARCHAR, max_value VARCHAR, extra_stats VARCHAR)",
        "ducklake_partition_info(partition_id BIGINT, table_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT)",
        "ducklake_partition_column(partition_id BIGINT, table_id BIGINT, partition_key_index BIGINT, column_id BIGINT, transform VARCHAR)",
        "ducklake_file_partition_value(data_file_id BIGINT, table_id BIGINT, partition_key_index BIGINT, partition_value VARCHAR)",
        "ducklake_files_scheduled_for_deletion(data_file_id BIGINT, path VARCHAR, path_is_relative BOOLEAN, schedule_start TIMESTAMP WITH TIME ZONE)",
        "ducklake_inlined_data_tables(table_id BIGINT, table_name VARCHAR, schema_version BIGINT)",
        "ducklake_column_mapping(mapping_id BIGINT, table_id BIGINT, type VARCHAR)",
        "ducklake_name_mapping(mapping_id BIGINT, column_id BIGINT, source_name VARCHAR, target_field_id BIGINT, parent_column BIGINT, is_partition BOOLEAN)",
        "ducklake_schema_versions(begin_snapshot BIGINT, schema_version BIGINT, table_id BIGINT)",
        "ducklake_macro(schema_id BIGINT, macro_id BIGINT, macro_name VARCHAR, begin_snapshot BIGINT, end_snapshot BIGINT)",
        "ducklake_macro_impl(macro_id BIGINT, impl_id BIGINT, dialect VARCHAR, sql VARCHAR, type VARCHAR)",
        "ducklake_macro_parameters(macro_id BIGINT, impl_id BIGINT, column_id BIGINT, parameter_name VARCHAR, parameter_type VARCHAR, default_value VARCHAR, default_value_type VARCHAR)",
        "ducklake_sort_info(sort_id BIGINT, table_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT)",
        "ducklake_sort_expression(sort_id BIGINT, table_id BIGINT, sort_key_index BIGINT, expression VARCHAR, dialect VARCHAR, sort_direction VARCHAR, null_order VARCHAR)",
    };

    /**
     * What 1.1-dev1 adds to 1.0 (the extension's migration from 1.0, seen in the
     * {@code duckdb2-ducklake1.1-dev} fixtures): columns appended to existing tables, and new tables.
     */
    private static final String[] ADDED_IN_1_1_DEV1 = {
        "ducklake_data_file(row_group_count BIGINT)",
        "ducklake_delete_file(row_group_count BIGINT)",
        "ducklake_view_column_tag(view_id BIGINT, column_name VARCHAR, begin_snapshot BIGINT, end_snapshot BIGINT, key VARCHAR, value VARCHAR)",
    };

    /** What the released 1.1 adds to 1.1-dev1: nested schemas (DuckLake "Nested Schemas" requires 1.1). */
    private static final String[] ADDED_IN_1_1 = {
        "ducklake_schema(parent_schema_id BIGINT)",
    };

    /** Inlined-data system columns up to 1.1-dev1 (DUCKLAKE.md "Data"). */
    public static final InlinedColumns INLINED_1_0 = new InlinedColumns("row_id", "begin_snapshot", "end_snapshot");
    /** Inlined-data system columns from 1.1 on (DuckLake "Upgrading to DuckLake 1.1": renamed by the migration). */
    public static final InlinedColumns INLINED_1_1 = new InlinedColumns("_ducklake_row_id", "_ducklake_begin_snapshot", "_ducklake_end_snapshot");

    private static final Map<String, Map<String, TableDef>> BY_FORMAT = new LinkedHashMap<>();

    static {
        Map<String, TableDef> v10 = new LinkedHashMap<>();
        for (String spec : TABLES) {
            TableDef def = parse(spec);
            v10.put(def.name(), def);
        }
        Map<String, TableDef> dev1 = extend(v10, ADDED_IN_1_1_DEV1);
        BY_FORMAT.put("1.0", v10);
        BY_FORMAT.put("1.1-dev1", dev1);
        BY_FORMAT.put(FORMAT_1_1, extend(dev1, ADDED_IN_1_1));
    }

    private static Map<String, TableDef> extend(Map<String, TableDef> base, String[] added) {
        Map<String, TableDef> result = new LinkedHashMap<>(base);
        for (String spec : added) {
            TableDef more = parse(spec);
            TableDef old = result.get(more.name());
            if (old == null) {
                result.put(more.name(), more);
            } else {
                List<ColumnDef> columns = new ArrayList<>(old.columns());
                columns.addAll(more.columns());
                result.put(more.name(), new TableDef(old.name(), columns));
            }
        }
        return java.util.Collections.unmodifiableMap(result);
    }

    private DuckLakeSchema() {}

    /** The fixed DuckLake tables of the format new catalogs get ({@link #FORMAT}), in creation order. */
    public static List<TableDef> tables() {
        return tables(FORMAT);
    }

    /**
     * The fixed tables of a known DuckLake format, in creation order.
     *
     * @throws IllegalArgumentException for a format not in {@link #KNOWN_FORMATS}
     */
    public static List<TableDef> tables(String format) {
        Map<String, TableDef> defs = BY_FORMAT.get(format);
        if (defs == null) throw new IllegalArgumentException("unknown DuckLake format " + format);
        return List.copyOf(defs.values());
    }

    /**
     * The fixed definition of a DuckLake table in the newest known format (a superset of the older
     * ones: columns are only ever added), or null for inlined and unknown tables. Used for the
     * DuckDB types of columns, which no format changes.
     */
    public static TableDef table(String name) {
        return BY_FORMAT.get(FORMAT_1_1).get(name);
    }

    /** The fixed definition of a DuckLake table in {@code format}, or null if that format has no such table. */
    public static TableDef table(String format, String name) {
        Map<String, TableDef> defs = BY_FORMAT.get(format);
        return defs == null ? null : defs.get(name);
    }

    /** Whether fdl reads catalogs of this DuckLake format exactly. */
    static boolean known(String format) {
        return BY_FORMAT.containsKey(format);
    }

    /**
     * The catalog tables whose columns decide which rows a snapshot shows and which files the
     * catalog names. A column of one of these that fdl does not know for the catalog's format could
     * change either, so such a catalog is refused rather than read or garbage-collected wrongly.
     */
    public static final List<String> DECISIVE_TABLES = List.of("ducklake_metadata", "ducklake_snapshot", "ducklake_schema",
            "ducklake_table", "ducklake_column", "ducklake_data_file", "ducklake_delete_file", "ducklake_inlined_data_tables");

    /**
     * The first column of a decisive table (see {@link #DECISIVE_TABLES}) that {@code format} does
     * not define, as {@code table.column}, or null when every column is known.
     *
     * @param columnsOf the columns the catalog file has, by table name (tables it lacks: absent)
     */
    static String unknownDecisiveColumn(String format, Map<String, List<String>> columnsOf) {
        for (String table : DECISIVE_TABLES) {
            TableDef def = table(format, table);
            List<String> actual = columnsOf.get(table);
            if (def == null || actual == null) continue;
            Set<String> known = new HashSet<>();
            def.columns().forEach(c -> known.add(c.name()));
            for (String column : actual) {
                if (!known.contains(column)) return table + "." + column;
            }
        }
        return null;
    }

    /**
     * Refuses a catalog fdl cannot read exactly: a format not in {@link #KNOWN_FORMATS}, or a
     * decisive table with a column the format does not define.
     *
     * @param catalog  names the catalog in the message
     * @param format   its {@code ducklake_metadata} version
     * @param columnsOf the columns of the file's decisive tables
     * @throws FdlException (exit 1) naming the catalog and the format or the column
     */
    public static void requireKnown(String catalog, String format, Map<String, List<String>> columnsOf) {
        if (!known(format)) {
            throw new FdlException("catalog " + catalog + " has DuckLake format version " + format
                    + ", which this fdl does not know (it reads " + String.join(", ", KNOWN_FORMATS)
                    + "); upgrade fdl, or attach the catalog with a DuckDB whose DuckLake extension knows that format");
        }
        String unknown = unknownDecisiveColumn(format, columnsOf);
        if (unknown != null) {
            throw new FdlException("catalog " + catalog + " (DuckLake format " + format + ") has column " + unknown
                    + ", which format " + format + " does not define; fdl refuses to read it rather than guess what the"
                    + " column changes (upgrade fdl, or attach it with DuckDB's DuckLake extension)");
        }
    }

    /**
     * The system columns of an inlined-data table whose columns are {@code columnNames} (in order):
     * the 1.0 or the 1.1 spelling, whichever its first three columns are; null if neither.
     */
    public static InlinedColumns inlinedColumns(List<String> columnNames) {
        if (columnNames.size() < 3) return null;
        List<String> first = columnNames.subList(0, 3);
        for (InlinedColumns spelling : List.of(INLINED_1_0, INLINED_1_1)) {
            if (first.equals(spelling.names())) return spelling;
        }
        return null;
    }

    /** A visible schema's id, parent schema id (null for a top-level schema) and own name. */
    public record SchemaName(long id, Long parentId, String name) {}

    /**
     * Each schema's name as DuckDB addresses it: its own name for a top-level schema, the dotted
     * path from the top for a nested one ({@code sales.europe}; DuckLake "Nested Schemas"). A schema
     * whose parent is not among {@code schemas} is left out (not visible); a cycle is refused.
     *
     * @throws FdlException (exit 1) naming the catalog when parents form a cycle
     */
    public static Map<Long, String> qualifiedSchemaNames(List<SchemaName> schemas, String catalog) {
        Map<Long, SchemaName> byId = new java.util.HashMap<>();
        schemas.forEach(s -> byId.put(s.id(), s));
        Map<Long, String> result = new java.util.HashMap<>();
        for (SchemaName s : schemas) {
            List<String> parts = new ArrayList<>();
            Set<Long> seen = new HashSet<>();
            SchemaName at = s;
            while (at != null) {
                if (!seen.add(at.id())) {
                    throw new FdlException("catalog " + catalog + ": schema " + s.id() + " is its own ancestor"
                            + " (parent_schema_id cycle); the catalog looks corrupt");
                }
                parts.add(0, at.name());
                if (at.parentId() == null) break;
                at = byId.get(at.parentId());
            }
            if (at != null) result.put(s.id(), String.join(".", parts));
        }
        return result;
    }

    /** The three leading system columns of an inlined-data table, in one of DuckLake's spellings. */
    public record InlinedColumns(String rowId, String begin, String end) {
        public List<String> names() {
            return List.of(rowId, begin, end);
        }

        /** Whether {@code column} is one of the three, in either spelling. */
        static boolean isSystem(String column) {
            return INLINED_1_0.names().contains(column) || INLINED_1_1.names().contains(column);
        }
    }

    private static TableDef parse(String spec) {
        int open = spec.indexOf('(');
        String name = spec.substring(0, open);
        List<ColumnDef> columns = new ArrayList<>();
        for (String part : spec.substring(open + 1, spec.length() - 1).split(", ")) {
            int space = part.indexOf(' ');
            String column = part.substring(0, space);
            String type = part.substring(space + 1);
            boolean primaryKey = type.endsWith(" PRIMARY KEY");
            boolean notNull = type.endsWith(" NOT NULL");
            type = type.replace(" PRIMARY KEY", "").replace(" NOT NULL", "");
            columns.add(new ColumnDef(column, type, notNull || primaryKey, primaryKey));
        }
        return new TableDef(name, columns);
    }

    /**
     * The SQLite column type DuckDB's sqlite extension declares for a DuckDB type:
     * {@code BIGINT}, {@code DOUBLE}, {@code BLOB} or {@code VARCHAR}.
     */
    public static String sqliteType(String duckType) {
        String t = duckType.toUpperCase(Locale.ROOT);
        if (DuckLakeTypes.LONG_INTEGER_TYPES.contains(t)) return "BIGINT";
        switch (t) {
            case "BOOLEAN":
                return "BIGINT";
            case "FLOAT": case "DOUBLE":
                return "DOUBLE";
            case "BLOB":
                return "BLOB";
            default:
                return "VARCHAR";
        }
    }

    /**
     * The SQLite column type of a column of an inlined-data table: DuckLake stores FLOAT, DOUBLE,
     * VARIANT, TIMESTAMPTZ and nested columns as VARCHAR text in a SQLite catalog, the rest as the
     * sqlite extension maps them.
     */
    public static String sqliteInlinedType(String duckType) {
        String upper = duckType.toUpperCase(Locale.ROOT);
        if (upper.equals("FLOAT") || upper.equals("DOUBLE") || upper.equals("VARIANT")
                || upper.equals("TIMESTAMP WITH TIME ZONE") || upper.equals("TIMESTAMPTZ")
                || isNested(upper)) {
            return "VARCHAR";
        }
        return sqliteType(upper);
    }

    static boolean isNested(String duckType) {
        String upper = duckType.toUpperCase(Locale.ROOT);
        return upper.endsWith("]") || upper.startsWith("STRUCT") || upper.startsWith("MAP")
                || upper.startsWith("UNION");
    }

    /** The DuckDB type of a column a SQLite catalog declares with {@code sqliteType}, for tables fdl does not know. */
    public static String duckTypeOfSqlite(String sqliteType) {
        String upper = sqliteType == null ? "" : sqliteType.toUpperCase(Locale.ROOT);
        if (upper.contains("INT")) {
            return "BIGINT";
        }
        if (upper.contains("DOUBLE") || upper.contains("REAL") || upper.contains("FLOA")) {
            return "DOUBLE";
        }
        if (upper.contains("BLOB") || upper.isEmpty()) {
            return "BLOB";
        }
        return "VARCHAR";
    }

    /**
     * One column of a catalog table: its DuckDB type, the type its SQLite side is declared with
     * (BIGINT, DOUBLE, BLOB or VARCHAR: DUCKLAKE.md "The SQLite-backed catalog"), and its
     * constraints.
     */
    public record ColumnDef(String name, String duckType, String sqliteType, boolean notNull, boolean primaryKey) {
        /** A column whose SQLite type is the one the sqlite extension maps {@code duckType} to ({@link DuckLakeSchema#sqliteType}). */
        public ColumnDef(String name, String duckType, boolean notNull, boolean primaryKey) {
            this(name, duckType, DuckLakeSchema.sqliteType(duckType), notNull, primaryKey);
        }
    }

    /** One catalog table. */
    public record TableDef(String name, List<ColumnDef> columns) {
        public TableDef {
            columns = List.copyOf(columns);
        }

        /** CREATE TABLE in DuckDB, as DuckLake writes it. */
        public String duckDbDdl(String qualifier) {
            StringBuilder b = new StringBuilder("CREATE TABLE ").append(qualifier).append(SqlQuote.ident(name)).append('(');
            for (int i = 0; i < columns.size(); i++) {
                ColumnDef c = columns.get(i);
                if (i > 0) {
                    b.append(", ");
                }
                b.append(SqlQuote.ident(c.name())).append(' ').append(c.duckType());
                if (c.primaryKey()) {
                    b.append(" PRIMARY KEY");
                } else if (c.notNull()) {
                    b.append(" NOT NULL");
                }
            }
            return b.append(')').toString();
        }

        /** CREATE TABLE in SQLite with the types DuckDB's sqlite extension declares. */
        public String sqliteDdl(boolean inlined) {
            StringBuilder b = new StringBuilder("CREATE TABLE ").append(SqlQuote.ident(name)).append('(');
            for (int i = 0; i < columns.size(); i++) {
                ColumnDef c = columns.get(i);
                if (i > 0) {
                    b.append(", ");
                }
                String type = inlined && i >= 3 ? sqliteInlinedType(c.duckType()) : sqliteType(c.duckType());
                b.append(SqlQuote.ident(c.name())).append(' ').append(type);
                if (c.primaryKey()) {
                    b.append(" PRIMARY KEY");
                } else if (c.notNull()) {
                    b.append(" NOT NULL");
                }
            }
            return b.append(')').toString();
        }
    }
}
