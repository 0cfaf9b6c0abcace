package dev.fdl.iceberg;

import dev.fdl.ducklake.FixtureCopies;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.QueryResult;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A catalog with every way DuckLake hides or adds rows outside its data files (the towns fixture:
 * a delete file, inlined rows, inlined rows ended, inlined deletes of Parquet rows) read through
 * the Iceberg metadata fdl writes equals fdl's built-in reader row for row.
 */
class IcebergDeletesAndInlinedRowsTest {
    static final String VERSION = "01a24600-0000-7000-8000-000000000001";

    @TempDir Path tmp;


    @Test
    void deletesInlinedDeletesAndInlinedRowsReadAsTheBuiltInReaderReadsThem() throws Exception {
        FixtureCopies.Copy towns = FixtureCopies.townsWithSnapshot16(tmp);
        ObjectStore store = Stores.open(towns.dir().toString());
        Repository repo = Repository.init(store, new RefName("main"));
        String root = towns.dir().toUri().toString();
        List<IcebergMetadataWriter.TableWritten> written = new IcebergMetadataWriter(DuckDbPool.shared(), repo)
                .write(VERSION, towns.catalog(), new IcebergMetadataWriter.Target(store, "", root), Files.createDirectories(tmp.resolve("scratch")));
        assertThat(written).extracting(IcebergMetadataWriter.TableWritten::table).containsExactly("main.towns", "geo.rivers");
        assertThat(written.get(0).extraBytes()).isPositive();

        List<String> expected = new ArrayList<>();
        try (BuiltInReader r = BuiltInReader.open(DuckDbPool.shared(), towns.catalog(), towns.dataPath(), null)) {
            QueryResult q = r.query("SELECT * FROM towns");
            for (List<Object> row : q.rows()) expected.add(canon(q.columns(), row));
        }
        expected.sort(null);
        List<String> actual = IcebergRows.iceberg(towns.dir().resolve(IcebergMetadataWriter.metadataKey(VERSION, "main", "towns")));
        assertThat(actual).hasSize(1868 - 2 - 1 + 1);
        assertThat(actual).isEqualTo(expected);
        assertThat(actual).noneMatch(row -> row.contains("name=town-500,") || row.contains("name=Oslo,"));
        assertThat(actual).anyMatch(row -> row.contains("name=Bergen,"));
    }

    private static String canon(List<String> columns, List<Object> row) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) sb.append(',');
            Object v = row.get(i);
            sb.append(columns.get(i)).append('=').append(v == null ? "null"
                    : v instanceof Number n ? new BigDecimal(n.toString()).stripTrailingZeros().toPlainString() : v.toString());
        }
        return sb.append('}').toString();
    }
}
