package dev.fdl.ducklake;

import dev.fdl.util.SqlQuote;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.DuckDbStorage;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakeSchema;

/**
 * A seeded generator of DuckLake-shaped catalogs in DuckDB files, for differential tests of
 * conversion: every fixed DuckLake table with rows of random values of its column types (NULLs,
 * extreme integers, awkward and long text), row counts around the batch sizes of conversion, and
 * an inlined-data table with a column of every type DuckLake can inline (NaN, ±inf, -0.0,
 * extremes, nested values) whose types {@code ducklake_column} records.
 */
public final class RandomCatalog {
    /** DuckLake column type names and the DuckDB types they stand for, one inlined column each. */
    private static final String[][] INLINED = {
        {"boolean", "BOOLEAN"}, {"int8", "TINYINT"}, {"int16", "SMALLINT"}, {"int32", "INTEGER"}, {"int64", "BIGINT"},
        {"int128", "HUGEINT"}, {"uint8", "UTINYINT"}, {"uint16", "USMALLINT"}, {"uint32", "UINTEGER"}, {"uint64", "UBIGINT"},
        {"uint128", "UHUGEINT"}, {"float32", "FLOAT"}, {"float64", "DOUBLE"}, {"decimal(18,3)", "DECIMAL(18,3)"},
        {"decimal(38,10)", "DECIMAL(38,10)"}, {"varchar", "VARCHAR"}, {"blob", "BLOB"}, {"uuid", "UUID"}, {"date", "DATE"},
        {"time", "TIME"}, {"timestamp", "TIMESTAMP"}, {"timestamptz", "TIMESTAMP WITH TIME ZONE"}, {"timestamp_s", "TIMESTAMP_S"},
        {"timestamp_ms", "TIMESTAMP_MS"}, {"timestamp_ns", "TIMESTAMP_NS"}, {"interval", "INTERVAL"}, {"json", "JSON"},
    };

    /** Row counts around SQLite's multi-row insert (256 rows) and block (4,096 rows) sizes. */
    private static final int[] COUNTS = {0, 1, 2, 3, 7, 255, 256, 257, 511, 4095, 4096, 4097};

    private static final String[] TEXTS = {"", " ", "null", "NULL", "\\N", "\"", "\"\"", "'", "a,b", "line\nbreak", "crlf\r\n",
        "tab\t", "back\\slash", "\\", "nul\u0000inside", "\u0001\u001f\u007f", "ünïcødé", "日本語", "emoji 🦆 \uD83D\uDE00",
        "line\u2028sep", "[1, \"json\"]", "{\"a\": null}", "{}", "-0", "00123", "1e5", "s3://bucket/data/ducklake-1.parquet"};

    private final Random random;

    private RandomCatalog(long seed) {
        this.random = new Random(seed);
    }

    /**
     * Writes a new random catalog of {@code seed} into the DuckDB file {@code file} (which must
     * not exist); at most one table gets more than 511 rows.
     */
    public static void generate(Path file, long seed) throws SQLException {
        new RandomCatalog(seed).write(file);
    }

    private void write(Path file) throws SQLException {
        try (Connection duck = Sql.duckDbMemory()) {
            CatalogConverter.attachNewDuckDb(duck, file, "cat", DuckDbStorage.DEFAULT);
            Sql.exec(duck, "BEGIN");
            int big = random.nextInt(DuckLakeSchema.tables().size());
            int t = 0;
            for (DuckLakeSchema.TableDef def : DuckLakeSchema.tables()) {
                Sql.exec(duck, def.duckDbDdl("cat.main."));
                int rows = COUNTS[random.nextInt(t == big ? COUNTS.length : COUNTS.length - 3)];
                List<String> tuples = new ArrayList<>();
                for (int r = 0; r < rows; r++) {
                    List<String> values = new ArrayList<>();
                    for (DuckLakeSchema.ColumnDef c : def.columns()) {
                        values.add(c.primaryKey() ? key(r, rows) : value(c.duckType(), c.notNull(), def.name(), c.name()));
                    }
                    tuples.add("(" + String.join(", ", values) + ")");
                }
                insert(duck, def.name(), tuples);
                t++;
            }
            // what CatalogInspector.open checks, and the inlined-data table's types (table 1, schema version 1 at snapshot 1)
            Sql.exec(duck, "INSERT INTO cat.main.ducklake_metadata VALUES ('version', '1.0', NULL, NULL)");
            Sql.exec(duck, "INSERT INTO cat.main.ducklake_schema_versions VALUES (1, 1, 1)");
            StringBuilder ddl = new StringBuilder("CREATE TABLE cat.main.ducklake_inlined_data_1_1(row_id BIGINT, begin_snapshot BIGINT,"
                    + " end_snapshot BIGINT");
            List<String> columnRows = new ArrayList<>();
            int id = 1;
            for (String[] type : INLINED) {
                String name = "c_" + type[0].replaceAll("[^a-z0-9]", "_");
                ddl.append(", ").append(name).append(' ').append(type[1]);
                columnRows.add("(" + id + ", 1, NULL, 1, " + id + ", '" + name + "', '" + type[0] + "', NULL, NULL, true, NULL, NULL, NULL)");
                id++;
            }
            ddl.append(", c_list BIGINT[], c_struct STRUCT(a INTEGER, b VARCHAR))");
            columnRows.add("(" + id + ", 1, NULL, 1, " + id + ", 'c_list', 'list', NULL, NULL, true, NULL, NULL, NULL)");
            columnRows.add("(" + (id + 1) + ", 1, NULL, 1, 0, 'element', 'int64', NULL, NULL, true, " + id + ", NULL, NULL)");
            columnRows.add("(" + (id + 2) + ", 1, NULL, 1, " + (id + 2) + ", 'c_struct', 'struct', NULL, NULL, true, NULL, NULL, NULL)");
            columnRows.add("(" + (id + 3) + ", 1, NULL, 1, 0, 'a', 'int32', NULL, NULL, true, " + (id + 2) + ", NULL, NULL)");
            columnRows.add("(" + (id + 4) + ", 1, NULL, 1, 1, 'b', 'varchar', NULL, NULL, true, " + (id + 2) + ", NULL, NULL)");
            insert(duck, "ducklake_column", columnRows);
            Sql.exec(duck, ddl.toString());
            int rows = COUNTS[random.nextInt(COUNTS.length - 3)] + 20;
            List<String> tuples = new ArrayList<>();
            for (int r = 0; r < rows; r++) {
                StringBuilder tuple = new StringBuilder("(").append(r).append(", ").append(1 + random.nextInt(5)).append(", ")
                        .append(random.nextBoolean() ? "NULL" : String.valueOf(6 + random.nextInt(5)));
                for (String[] type : INLINED) {
                    tuple.append(", ").append(inlined(type[1], r));
                }
                tuple.append(", ").append(random.nextInt(5) == 0 ? "NULL" : "[" + bigint(false) + ", NULL, " + bigint(false) + "]::BIGINT[]");
                tuple.append(", ").append(random.nextInt(5) == 0 ? "NULL"
                        : "{'a': " + random.nextInt() + ", 'b': " + literal(text()) + "}");
                tuples.add(tuple.append(')').toString());
            }
            insert(duck, "ducklake_inlined_data_1_1", tuples);
            Sql.exec(duck, "INSERT INTO cat.main.ducklake_inlined_data_tables VALUES (1, 'ducklake_inlined_data_1_1', 1)");
            Sql.exec(duck, "COMMIT");
            Sql.exec(duck, "DETACH cat");
        }
    }

    private static void insert(Connection duck, String table, List<String> tuples) throws SQLException {
        for (int from = 0; from < tuples.size(); from += 500) {
            Sql.exec(duck, "INSERT INTO cat.main." + SqlQuote.ident(table) + " VALUES "
                    + String.join(", ", tuples.subList(from, Math.min(tuples.size(), from + 500))));
        }
    }

    /** Distinct keys for {@code rows} rows: the extremes first, then values around them. */
    private static String key(int r, int rows) {
        return switch (r) {
            case 0 -> String.valueOf(Long.MIN_VALUE);
            case 1 -> String.valueOf(Long.MAX_VALUE);
            case 2 -> "0";
            default -> String.valueOf(r % 2 == 0 ? r * 1_000_003L : -r);
        };
    }

    private String value(String duckType, boolean notNull, String table, String column) {
        if (!notNull && random.nextInt(6) == 0) {
            return "NULL";
        }
        // ducklake_column's rows of table 1 are the inlined table's types (written afterwards)
        boolean tableId = column.equals("table_id") && (table.equals("ducklake_column") || table.equals("ducklake_schema_versions"));
        return switch (duckType) {
            case "BIGINT" -> tableId ? String.valueOf(1000 + random.nextInt(1000)) : bigint(true);
            case "BOOLEAN" -> random.nextBoolean() ? "true" : "false";
            case "UUID" -> "'" + new UUID(random.nextLong(), random.nextLong()) + "'::UUID";
            case "TIMESTAMP WITH TIME ZONE" -> micros();
            default -> literal(text());
        };
    }

    /** A TIMESTAMPTZ between the years 1 and 9999, to the microsecond. */
    private String micros() {
        long max = 253_402_300_799_999_999L;
        long min = -62_135_596_800_000_000L;
        return "CAST(make_timestamp(" + (min + Math.floorMod(random.nextLong(), max - min)) + ") AS TIMESTAMPTZ)";
    }

    private String bigint(boolean extremes) {
        return switch (random.nextInt(extremes ? 6 : 3)) {
            case 0 -> String.valueOf(random.nextInt(100));
            case 1 -> String.valueOf(random.nextLong());
            case 2 -> String.valueOf(-random.nextInt(1000));
            case 3 -> String.valueOf(Long.MIN_VALUE);
            case 4 -> String.valueOf(Long.MAX_VALUE);
            default -> "0";
        };
    }

    private String text() {
        return switch (random.nextInt(5)) {
            case 0 -> TEXTS[random.nextInt(TEXTS.length)] + TEXTS[random.nextInt(TEXTS.length)];
            case 1 -> {
                // long text, some of it beyond the Basic Multilingual Plane
                StringBuilder b = new StringBuilder();
                int n = random.nextInt(3000);
                for (int i = 0; i < n; i++) {
                    b.appendCodePoint(random.nextInt(10) == 0 ? 0x1F600 + random.nextInt(50) : 0x20 + random.nextInt(0x250));
                }
                yield b.toString();
            }
            default -> TEXTS[random.nextInt(TEXTS.length)];
        };
    }

    /** A value of {@code duckType} for the inlined table: its extremes and special values often, NULL sometimes. */
    private String inlined(String duckType, int row) {
        if (random.nextInt(7) == 0) {
            return "NULL";
        }
        int pick = random.nextInt(4);
        String v = switch (duckType) {
            case "BOOLEAN" -> random.nextBoolean() ? "true" : "false";
            case "TINYINT" -> pick(pick, "-128", "127", String.valueOf(random.nextInt(256) - 128));
            case "SMALLINT" -> pick(pick, "-32768", "32767", String.valueOf(random.nextInt(65536) - 32768));
            case "INTEGER" -> pick(pick, String.valueOf(Integer.MIN_VALUE), String.valueOf(Integer.MAX_VALUE), String.valueOf(random.nextInt()));
            case "BIGINT" -> pick(pick, String.valueOf(Long.MIN_VALUE), String.valueOf(Long.MAX_VALUE), String.valueOf(random.nextLong()));
            case "HUGEINT" -> pick(pick, "-170141183460469231731687303715884105728", "170141183460469231731687303715884105727",
                    random.nextLong() + "" + Math.abs(random.nextLong()));
            case "UTINYINT" -> pick(pick, "0", "255", String.valueOf(random.nextInt(256)));
            case "USMALLINT" -> pick(pick, "0", "65535", String.valueOf(random.nextInt(65536)));
            case "UINTEGER" -> pick(pick, "0", "4294967295", String.valueOf(random.nextInt() & 0xffffffffL));
            case "UBIGINT" -> pick(pick, "0", "18446744073709551615", Long.toUnsignedString(random.nextLong()));
            case "UHUGEINT" -> pick(pick, "0", "340282366920938463463374607431768211455", Long.toUnsignedString(random.nextLong()) + "7");
            case "FLOAT" -> "'" + pick(random.nextInt(7), "nan", "inf", "-inf", "-0.0", "1.4e-45", "3.4028235e38",
                    String.valueOf(Float.intBitsToFloat(random.nextInt()))) + "'";
            case "DOUBLE" -> "'" + pick(random.nextInt(7), "nan", "inf", "-inf", "-0.0", "4.9e-324", "1.7976931348623157e308",
                    String.valueOf(Double.longBitsToDouble(random.nextLong()))) + "'";
            case "DECIMAL(18,3)" -> pick(pick, "-999999999999999.999", "999999999999999.999", (random.nextInt() / 1000.0) + "");
            case "DECIMAL(38,10)" -> pick(pick, "-9999999999999999999999999999.9999999999", "0.0000000001", random.nextInt() + ".5");
            case "VARCHAR", "JSON" -> duckType.equals("JSON") ? "'{\"k\": [1, \"" + row + "\", null]}'" : literal(text());
            case "BLOB" -> {
                byte[] b = new byte[random.nextInt(4) == 0 ? 0 : random.nextInt(300)];
                random.nextBytes(b);
                yield "from_hex('" + HexFormat.of().formatHex(b) + "')";
            }
            case "UUID" -> "'" + new UUID(random.nextLong(), random.nextLong()) + "'";
            case "DATE" -> pick(pick, "'-5877641-06-25'", "'5881580-07-10'", "'" + (1 + random.nextInt(9000)) + "-02-28'");
            case "TIME" -> pick(pick, "'00:00:00'", "'24:00:00'", "'13:" + (10 + random.nextInt(50)) + ":07.123456'");
            case "TIMESTAMP", "TIMESTAMP_NS", "TIMESTAMP_MS", "TIMESTAMP_S" -> pick(pick, "'infinity'", "'-infinity'",
                    "'" + (1700 + random.nextInt(500)) + "-01-31 23:59:59.123456'");
            case "TIMESTAMP WITH TIME ZONE" -> pick(pick, "'infinity'", "'2026-06-01 12:00:00+05:30'", micros());
            case "INTERVAL" -> "INTERVAL '" + random.nextInt(1000) + " months " + random.nextInt(100) + " days " + random.nextInt(100000) + " microseconds'";
            default -> throw new IllegalArgumentException(duckType);
        };
        return "CAST(" + v + " AS " + duckType + ")";
    }

    /** A SQL literal of {@code text}; DuckDB's parser ends a statement at NUL, so NUL is concatenated in. */
    private static String literal(String text) {
        return "(" + SqlQuote.literal(text).replace("\u0000", "' || chr(0) || '") + ")";
    }

    private static String pick(int pick, String... values) {
        return values[Math.min(pick, values.length - 1)];
    }
}
