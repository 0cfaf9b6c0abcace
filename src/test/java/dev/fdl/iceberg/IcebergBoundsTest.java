package dev.fdl.iceberg;

import dev.fdl.cli.Cli;
import dev.fdl.ducklake.engine.DuckDbPool;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each data file's lower and upper bounds in the Iceberg metadata equal the minimum and maximum
 * DuckDB computes over that Parquet file, column by column (a swapped or shifted bound would make
 * engines skip rows they must read), and the null counts equal DuckDB's.
 */
class IcebergBoundsTest {
    @TempDir Path dir;

    /** Each bounded column and the SQL giving a value as Iceberg's bound holds it (days, microseconds, unscaled decimals). */
    static final Map<String, String> AS_ICEBERG = Map.of("id", "%s(id)", "small", "%s(small)::INTEGER", "neg", "%s(neg)",
            "even", "%s(even)", "d", "date_diff('day', DATE '1970-01-01', %s(d))", "ts", "epoch_us(%s(ts))", "dec", "%s(dec)",
            "score", "%s(score)", "ratio", "%s(ratio)", "f32", "%s(f32)");

    @Test
    void everyBoundIsTheFilesMinimumOrMaximumAsDuckDbComputesIt() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path root = dir.resolve("repo");
        for (int part = 0; part < 3; part++) {
            Path file = dir.resolve("part-" + part + ".parquet");
            // each part spans its own range, with values descending in the file, negatives and nulls
            IcebergTypesCliTest.duck("COPY (SELECT (" + part + " * 1000 + 999 - i)::BIGINT AS id, (i % 300 - 150)::SMALLINT AS small,"
                    + " CASE WHEN i % 7 = 0 THEN NULL ELSE -i * " + (part + 1) + " END::INTEGER AS neg, i % 2 = 0 AS even,"
                    + " DATE '2024-06-30' - (i + " + part + " * 400)::INTEGER AS d,"
                    + " TIMESTAMP '2024-01-01 10:00:00' - INTERVAL (i * 37 + " + part + ") MINUTE AS ts,"
                    + " ((i - 500) / 8 + " + part + ")::DECIMAL(12,3) AS dec, (i - 250) * 0.25 + " + part + " AS score,"
                    + " ((i - 250) / 7 + " + part + ")::DOUBLE AS ratio, ((i - 250) / 3 + " + part + ")::FLOAT AS f32"
                    + " FROM range(0, 1000) t(i)) TO '" + file + "' (FORMAT parquet)");
            Cli.ok(wc, "import", file.toString(), "--table", "t", "--mode", part == 0 ? "create" : "append");
        }
        Cli.ok(wc, "commit", "-m", "three parts");
        String id = Cli.ok(wc, "iceberg").out().split(" ")[1];
        Table table = IcebergRows.table(root.resolve(IcebergMetadataWriter.metadataKey(id, "main", "t")));

        List<DataFile> files = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
            tasks.forEach(t -> files.add(t.file()));
        }
        assertThat(files).hasSize(3);
        try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement()) {
            for (DataFile f : files) {
                String parquet = Path.of(URI.create(f.location())).toString();
                for (Map.Entry<String, String> col : AS_ICEBERG.entrySet()) {
                    int fieldId = table.schema().findField(col.getKey()).fieldId();
                    Type type = table.schema().findType(fieldId);
                    String sql = "SELECT " + String.format(col.getValue(), "min") + ", " + String.format(col.getValue(), "max")
                            + ", count(*) - count(" + col.getKey() + ") FROM read_parquet('" + parquet + "')";
                    try (ResultSet r = st.executeQuery(sql)) {
                        r.next();
                        String where = col.getKey() + " of " + parquet;
                        assertThat(bound(type, f.lowerBounds().get(fieldId))).as("lower bound of " + where).isEqualTo(number(r.getObject(1)));
                        assertThat(bound(type, f.upperBounds().get(fieldId))).as("upper bound of " + where).isEqualTo(number(r.getObject(2)));
                        assertThat(f.nullValueCounts().get(fieldId)).as("nulls of " + where).isEqualTo(r.getLong(3));
                    }
                }
            }
        }
    }

    /** A bound as comparable text (null when there is none). */
    private static String bound(Type type, ByteBuffer bytes) {
        return bytes == null ? null : number(Conversions.fromByteBuffer(type, bytes));
    }

    private static String number(Object v) {
        if (v instanceof Boolean b) return b.toString();
        return new BigDecimal(v.toString()).stripTrailingZeros().toPlainString();
    }
}
