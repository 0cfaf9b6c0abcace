package dev.fdl.ducklake.load;

import dev.fdl.FdlException;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.util.SqlQuote;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Several source files of one format read as one relation ({@code fdl import <folder|glob|files…>}).
 *
 * <p>Each file is described on its own, by the same rules as a single import (a CSV file is sniffed
 * over its whole length with its own dialect, and refused naming its bad line). The files must have
 * the same columns, by name (as DuckDB compares identifiers) and order; the first file whose
 * columns differ from the first file's is refused, naming both and the first column that differs.
 * Types that differ are widened to DuckDB's common type when there is one (INTEGER and BIGINT read
 * as BIGINT, BIGINT and DOUBLE as DOUBLE); otherwise the column is refused, naming both files and
 * {@code --schema} as the way to read it as one type.
 *
 * <p>Partition columns of hive-partitioned folders ({@link SourceFiles#hive()}) are added after the
 * file's columns, with the types DuckDB's {@code hive_partitioning} infers from the folder names.
 * Parquet and JSON files are read in one {@code read_parquet}/{@code read_json} over the list
 * (DuckDB adds the partition columns itself); CSV files as a {@code UNION ALL} of one read per file,
 * each with its own dialect, the partition values of its folders added as typed constants.
 */
final class ManyFiles {
    private ManyFiles() {}

    /**
     * The combined relation of {@code files} and its columns, read as {@code reading} says ({@code --schema},
     * {@code --null-string}) every file.
     *
     * @throws FdlException failure naming the two files whose columns differ, or a file as a single import refuses it
     */
    static Importer.SourceColumns describe(Connection duck, SourceFiles files, SourceReading reading) throws SQLException {
        ImportFormat format = reading.format();
        Map<String, String> partitions = files.hive() ? partitionTypes(duck, files) : Map.of();
        List<Importer.SourceColumns> each = new ArrayList<>();
        for (Path f : files.files()) {
            // DuckDB may read a file's own hive folders as columns already: they are added below, once, for all files
            Importer.SourceColumns one = Importer.SourceColumns.describe(duck, f, reading);
            Map<String, String> own = new LinkedHashMap<>(one.types());
            own.keySet().removeIf(c -> partitions.keySet().stream().anyMatch(p -> Identifiers.same(p, c)));
            each.add(new Importer.SourceColumns(one.relation(), own, false));
        }
        Map<String, String> types = unify(duck, files.files(), each);
        StringBuilder relation = new StringBuilder("(");
        if (format == ImportFormat.CSV) {
            for (int i = 0; i < each.size(); i++) {
                if (i > 0) relation.append(" UNION ALL ");
                relation.append("SELECT ").append(casts(types, each.get(i))).append(partitionValues(files.files().get(i), partitions))
                        .append(" FROM ").append(each.get(i).relation()).append(" AS src");
            }
        } else {
            StringBuilder list = new StringBuilder("[");
            for (Path f : files.files()) {
                if (list.length() > 1) list.append(", ");
                list.append(SqlQuote.literal(f.toAbsolutePath().toString()));
            }
            String reader = format == ImportFormat.PARQUET ? "read_parquet" : "read_json";
            relation.append("SELECT ").append(casts(types, null));
            for (String p : partitions.keySet()) relation.append(", ").append(SqlQuote.ident(p));
            relation.append(" FROM ").append(reader).append('(').append(list).append("], union_by_name = true, hive_partitioning = ")
                    .append(files.hive()).append(") AS src");
        }
        relation.append(')');
        Map<String, String> all = new LinkedHashMap<>(types);
        all.putAll(partitions);
        return new Importer.SourceColumns(relation.toString(), all, false);
    }

    /** The columns every file has, with their common types; refuses the first file whose columns differ from the first's. */
    private static Map<String, String> unify(Connection duck, List<Path> files, List<Importer.SourceColumns> each) {
        Map<String, String> types = new LinkedHashMap<>(each.get(0).types());
        List<String> names = new ArrayList<>(types.keySet());
        for (int i = 1; i < each.size(); i++) {
            List<String> other = new ArrayList<>(each.get(i).types().keySet());
            for (int c = 0; c < Math.max(names.size(), other.size()); c++) {
                String a = c < names.size() ? names.get(c) : null;
                String b = c < other.size() ? other.get(c) : null;
                if (a == null || b == null || !Identifiers.same(a, b)) {
                    throw new FdlException("cannot import these files as one table: their columns differ. " + files.get(0) + " has ("
                            + String.join(", ", names) + "), " + files.get(i) + " has (" + String.join(", ", other) + "); column " + (c + 1)
                            + " is " + (a == null ? "missing" : "'" + a + "'") + " in the first and " + (b == null ? "missing" : "'" + b + "'")
                            + " in the second. Import files with the same columns together (--mode append adds the others)");
                }
                String ta = types.get(a), tb = each.get(i).types().get(b);
                if (!ta.equals(tb)) types.put(a, common(duck, a, ta, tb, files.get(0), files.get(i)));
            }
        }
        return types;
    }

    /** DuckDB's common type of {@code a} and {@code b}; refuses types that have none but text. */
    private static String common(Connection duck, String column, String a, String b, Path first, Path second) {
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT typeof([CAST(NULL AS " + a + "), CAST(NULL AS " + b + ")][1])")) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new FdlException("cannot import these files as one table: column '" + column + "' reads as " + a + " in " + first
                    + " but as " + b + " in " + second + "; name one type for it with --schema \"" + column + " " + b + "\" (or "
                    + a + ")");
        }
    }

    /** {@code CAST(src."c" AS T) AS "c", …} for the unified columns, reading {@code from}'s own names (null: the names as they are). */
    private static String casts(Map<String, String> types, Importer.SourceColumns from) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : types.entrySet()) {
            String col = from == null ? e.getKey() : from.column(e.getKey());
            out.add("CAST(src." + SqlQuote.ident(col) + " AS " + e.getValue() + ") AS " + SqlQuote.ident(e.getKey()));
        }
        return String.join(", ", out);
    }

    /**
     * The partition columns and their types as DuckDB's {@code hive_partitioning} infers them from
     * the files' folder names (asked of DuckDB with a read it never runs); DuckDB also refuses files
     * whose folders name different keys.
     */
    private static Map<String, String> partitionTypes(Connection duck, SourceFiles files) {
        StringBuilder list = new StringBuilder("[");
        for (Path f : files.files()) {
            if (list.length() > 1) list.append(", ");
            list.append(SqlQuote.literal(f.toAbsolutePath().toString()));
        }
        String probe = "__fdl_no_column";
        Map<String, String> types = new LinkedHashMap<>();
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM read_csv(" + list
                + "], auto_detect = false, columns = {'" + probe + "': 'VARCHAR'}, hive_partitioning = true)")) {
            while (rs.next()) if (!rs.getString(1).equals(probe)) types.put(rs.getString(1), rs.getString(2));
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot import " + files.first() + " and the files beside it: "
                    + DuckDbErrors.duckError(e), e);
        }
        return types;
    }

    /**
     * {@code , CAST(url_decode('v') AS T) AS "k"} for each partition column, its value from {@code file}'s
     * folder names (the last {@code k=} wins, as in DuckDB). Values are URL-decoded by DuckDB's own
     * {@code url_decode}, as its {@code hive_partitioning} decodes them for Parquet (Spark, Hive and
     * DuckDB's {@code PARTITION_BY} write {@code %20}, {@code %2F}, {@code %3D}; a {@code +} stays a
     * plus, a malformed escape stays as written), so CSV and Parquet imports of the same folders
     * agree; keys are compared as written, as DuckDB does.
     */
    private static String partitionValues(Path file, Map<String, String> partitions) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, String> p : partitions.entrySet()) {
            String value = null;
            Path dir = file.toAbsolutePath().getParent();
            for (int i = 0; dir != null && i < dir.getNameCount(); i++) {
                String seg = dir.getName(i).toString();
                int eq = seg.indexOf('=');
                if (eq > 0 && seg.substring(0, eq).equals(p.getKey())) value = seg.substring(eq + 1);
            }
            b.append(", ").append(value == null ? "NULL" : "CAST(url_decode(" + SqlQuote.literal(value) + ") AS " + p.getValue() + ")")
                    .append(" AS ").append(SqlQuote.ident(p.getKey()));
        }
        return b.toString();
    }
}
