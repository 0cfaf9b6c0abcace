package dev.fdl.ducklake.format;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A delete file as the DuckLake extension writes it: file_path and pos with Iceberg's reserved field ids, sorted by pos. */
class DeleteFileLayoutTest {
    @TempDir
    Path tmp;

    @Test
    void writesPathAndSortedPositionsUnderTheReservedFieldIds() throws Exception {
        Path file = tmp.resolve("d.parquet");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute(DeleteFileLayout.copy("s3://b/data/main/t/f.parquet", "SELECT * FROM (VALUES (7), (2), (5)) v(pos)", file));
            assertThat(st.getUpdateCount()).isEqualTo(3);
            Map<String, String> ids = new LinkedHashMap<>();
            try (ResultSet rs = st.executeQuery("SELECT name, field_id, type FROM parquet_schema('" + file + "') WHERE name IN ('file_path', 'pos')")) {
                while (rs.next()) ids.put(rs.getString(1), rs.getString(2) + " " + rs.getString(3));
            }
            assertThat(ids).containsEntry("file_path", "2147483646 BYTE_ARRAY").containsEntry("pos", "2147483645 INT64");
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT file_path, pos FROM read_parquet('" + file + "')")) {
                while (rs.next()) rows.add(rs.getString(1) + "#" + rs.getLong(2));
            }
            assertThat(rows).containsExactly("s3://b/data/main/t/f.parquet#2", "s3://b/data/main/t/f.parquet#5", "s3://b/data/main/t/f.parquet#7");
        }
    }
}
