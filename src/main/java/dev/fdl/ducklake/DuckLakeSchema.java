package dev.fdl.ducklake;

import dev.fdl.util.SqlQuote;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The tables of a DuckLake 1.0 catalog, with the column types and constraints DuckLake itself
 * declares (DUCKLAKE.md "Tables"; checked against the {@code empty} fixture), and the type
 * mappings between the DuckDB-file and the SQLite-backed catalog (DUCKLAKE.md "The
 * SQLite-backed catalog").
 */
final class DuckLakeSchema {
    /** DuckLake format versions fdl reads and writes. */
    static final List<String> KNOWN_FORMATS = List.of("1.0");
    static final String FORMAT = "1.0";
    static final String INLINED_DATA_PREFIX = "ducklake_inlined_data_";
    static final String INLINED_DELETE_PREFIX = "ducklake_inlined_delete_";

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

    private static final Map<String, TableDef> BY_NAME = new LinkedHashMap<>();

    static {
        for (String spec : TABLES) {
            TableDef def = parse(spec);
            BY_NAME.put(def.name(), def);
        }
    }

    private DuckLakeSchema() {}

    /** The fixed DuckLake 1.0 tables, in creation order. */
    static List<TableDef> tables() {
        return List.copyOf(BY_NAME.values());
    }

    /** The fixed definition of a DuckLake table, or null for inlined and unknown tables. */
    static TableDef table(String name) {
        return BY_NAME.get(name);
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
    static String sqliteType(String duckType) {
        switch (duckType.toUpperCase(Locale.ROOT)) {
            case "BOOLEAN": case "TINYINT": case "SMALLINT": case "INTEGER": case "BIGINT":
            case "UTINYINT": case "USMALLINT": case "UINTEGER":
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
    static String sqliteInlinedType(String duckType) {
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
    static String duckTypeOfSqlite(String sqliteType) {
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

    /** One column of a catalog table: its DuckDB type and constraints. */
    record ColumnDef(String name, String duckType, boolean notNull, boolean primaryKey) {}

    /** One catalog table. */
    record TableDef(String name, List<ColumnDef> columns) {
        TableDef {
            columns = List.copyOf(columns);
        }

        /** CREATE TABLE in DuckDB, as DuckLake writes it. */
        String duckDbDdl(String qualifier) {
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
        String sqliteDdl(boolean inlined) {
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
