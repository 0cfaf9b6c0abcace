package dev.fdl.ducklake.load;

import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.store.S3MockServer;
import dev.fdl.store.S3Store;
import dev.fdl.store.StoreException;
import dev.fdl.store.UsesS3Mock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static dev.fdl.ducklake.load.DataFileUploadsTest.ROWS;
import static dev.fdl.ducklake.load.DataFileUploadsTest.TARGET;
import static dev.fdl.ducklake.load.DataFileUploadsTest.keys;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Data files uploaded to S3 (S3Mock) while DuckDB writes the next ones: all of them, once each, none left after a failure. */
@UsesS3Mock
class DataFileUploadsOnS3Test {
    @TempDir
    Path tmp;

    @Test
    void anImportSplitIntoSeveralFilesUploadsEachOnceAndAFailedOneLeavesNoKey() throws Exception {
        Path src = DataFileUploadsTest.source(tmp, ROWS);
        try (S3Store s3 = S3MockServer.shared().newStore()) {
            Path catalog = tmp.resolve("catalog.sqlite");
            EmptyCatalog.create(catalog, CatalogKind.SQLITE, s3.location("data/"));
            String before = WorkingCatalogFixture.dump(catalog);

            DataFileUploadsTest.CountingPuts failing = new DataFileUploadsTest.CountingPuts(s3, 2);
            assertThatThrownBy(() -> new Importer(DuckDbPool.shared()).importFile(ImportRequest.of(catalog, failing, "data/", src, "t",
                    ImportMode.CREATE).withTargetFileSize(TARGET))).isInstanceOf(StoreException.class);
            assertThat(keys(s3, "")).isEmpty();
            assertThat(WorkingCatalogFixture.dump(catalog)).isEqualTo(before);

            DataFileUploadsTest.CountingPuts store = new DataFileUploadsTest.CountingPuts(s3, 0);
            ImportResult r = new Importer(DuckDbPool.shared()).importFile(ImportRequest.of(catalog, store, "data/", src, "t",
                    ImportMode.CREATE).withTargetFileSize(TARGET));
            assertThat(r.dataFileKeys()).hasSizeGreaterThanOrEqualTo(3);
            assertThat(keys(s3, "")).containsExactlyInAnyOrderElementsOf(r.dataFileKeys());
            assertThat(store.puts.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));

            // every file the catalog names is in the bucket at its recorded size, and together they hold the source's rows
            List<Path> local = new ArrayList<>();
            try (Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + catalog); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT path, file_size_bytes FROM ducklake_data_file ORDER BY row_id_start")) {
                while (rs.next()) {
                    Path f = tmp.resolve("down-" + local.size() + ".parquet");
                    s3.download("data/main/t/" + rs.getString(1), f).orElseThrow();
                    assertThat(Files.size(f)).isEqualTo(rs.getLong(2));
                    local.add(f);
                }
            }
            assertThat(local).hasSameSizeAs(r.dataFileKeys());
            StringBuilder files = new StringBuilder();
            for (Path f : local) files.append(files.length() == 0 ? "" : ", ").append('\'').append(f).append('\'');
            try (Connection c = DuckDbPool.connect(); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*), sum(id), count(*) FILTER (WHERE h <> md5(CAST(id AS VARCHAR))), "
                         + "count(*) FILTER (WHERE id NOT IN (SELECT id FROM '" + src + "')) FROM read_parquet([" + files + "])")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(ROWS);
                assertThat(rs.getLong(2)).isEqualTo((long) ROWS * (ROWS - 1) / 2);
                assertThat(rs.getLong(3)).isZero();
                assertThat(rs.getLong(4)).isZero();
            }
        }
    }
}
