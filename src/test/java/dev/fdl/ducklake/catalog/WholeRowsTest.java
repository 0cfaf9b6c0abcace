package dev.fdl.ducklake.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.fdl.ducklake.Fixtures;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.util.SqlQuote;

/**
 * Two SQLite catalogs on one connection, the empty fixture as {@code main} and {@code towns}
 * attached beside it, are read apart ({@link MetadataQueries#sqlite}), and the rows
 * {@link WholeRows} reads whole are those the typed model reads, with every column of the table.
 */
class WholeRowsTest {
    @TempDir
    Path dir;

    @Test
    void anAttachedCatalogIsReadUnderItsAliasAndItsRowsWholeAreTheModelsRows() throws Exception {
        Path empty = Fixtures.catalogAs("empty", "sqlite", dir);
        Path towns = Fixtures.catalogAs("towns", "sqlite", dir);
        try (Connection conn = Sql.sqlite(empty, false)) {
            Sql.exec(conn, "ATTACH DATABASE " + SqlQuote.literal(towns.toString()) + " AS other");
            MetadataQueries main = MetadataQueries.sqlite(conn, "main", empty.toString());
            MetadataQueries other = MetadataQueries.sqlite(conn, "other", towns.toString());
            long newest = other.snapshotRange()[1];
            // the empty catalog's newest snapshot sees no table; towns' sees its tables
            assertThat(main.tableRows(main.snapshotRange()[1])).isEmpty();
            List<MetadataQueries.TableRow> tables = other.tableRows(newest);
            assertThat(tables).isNotEmpty();

            WholeRows rows = other.wholeRows();
            List<WholeRows.Row> tableRows = rows.visible("ducklake_table", newest);
            assertThat(tableRows).extracting(r -> ((Number) r.values().get("table_id")).longValue())
                    .containsExactlyInAnyOrderElementsOf(tables.stream().map(MetadataQueries.TableRow::id).toList());
            assertThat(tableRows).allSatisfy(r -> assertThat(List.copyOf(r.values().keySet())).isEqualTo(other.columns("ducklake_table")));
            assertThat(rows.visible("ducklake_table", null)).hasSameSizeAs(other.tableRows(null));

            List<MetadataQueries.DataFileRow> files = new ArrayList<>();
            other.dataFiles(null, newest, files::add);
            assertThat(rows.count("ducklake_data_file", newest)).isEqualTo(files.size()).isPositive();
            long table = files.get(0).tableId();
            List<Long> everyFileOfTable = new ArrayList<>();
            other.dataFiles(table, null, f -> everyFileOfTable.add(f.id()));
            assertThat(rows.where("ducklake_data_file", "table_id", table))
                    .extracting(r -> ((Number) r.values().get("data_file_id")).longValue())
                    .containsExactlyInAnyOrderElementsOf(everyFileOfTable);

            // a row is found again by its values, whatever its snapshot range; a value changed finds none
            WholeRows.Row file = rows.visible("ducklake_data_file", newest).get(0);
            assertThat(rows.rowidOf("ducklake_data_file", newest, file.values())).isEqualTo(file.rowid());
            java.util.Map<String, Object> moved = new java.util.LinkedHashMap<>(file.values());
            moved.put("path", "elsewhere.parquet");
            assertThat(rows.rowidOf("ducklake_data_file", newest, moved)).isNull();

            assertThat(rows.declaredColumns("ducklake_table")).isEqualTo(main.wholeRows().declaredColumns("ducklake_table"));
            assertThat(rows.columnDefinitions("ducklake_table")).startsWith("(").contains("table_uuid");
        }
    }

    @Test
    void declaredColumnsAreReadFromSqliteCatalogsOnly() throws Exception {
        Path duck = Fixtures.catalog("empty", dir);
        try (Connection conn = Sql.duckDbMemory()) {
            Sql.attach(conn, duck, "d", true);
            WholeRows rows = new MetadataQueries(conn, "d", duck.toString()).wholeRows();
            assertThat(rows.count("ducklake_snapshot", null)).isPositive();
            assertThatThrownBy(() -> rows.declaredColumns("ducklake_table")).isInstanceOf(IllegalStateException.class);
        }
    }
}
