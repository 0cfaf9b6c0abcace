package dev.fdl.ducklake.format;

import dev.fdl.ducklake.engine.DuckDbPool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fdl.FdlException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.catalog.CatalogFiles;
import dev.fdl.ducklake.catalog.NamedFile;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.load.ImportResult;
import dev.fdl.ducklake.read.BuiltInReader;

/**
 * Pins DuckLake's path rule (DUCKLAKE.md "Paths", {@link DuckLakePaths}) case by case. Each case
 * is one where a wrong rule makes gc name a file at another key than the one it lives at: gc would
 * then delete the live file (its real key is not named) and keep a dead one (the named key).
 */
class DuckLakePathsTest {
    private static final String DATA = "/r/data/";

    @TempDir
    Path dir;

    /** (what, data_path, schema path, schema relative, table path, table relative, expected table folder). */
    static Stream<Arguments> folders() {
        return Stream.of(
                Arguments.of("schema and table paths as DuckLake writes them", DATA, "main/", true, "t/", true, "/r/data/main/t/"),
                Arguments.of("NULL schema path: the data path itself", DATA, null, null, "t/", true, "/r/data/t/"),
                Arguments.of("empty schema path", DATA, "", true, "t/", true, "/r/data/t/"),
                Arguments.of("NULL table path: the schema's folder", DATA, "main/", true, null, null, "/r/data/main/"),
                Arguments.of("empty table path", DATA, "main/", true, "", true, "/r/data/main/"),
                Arguments.of("NULL schema and table paths", DATA, null, null, null, null, "/r/data/"),
                Arguments.of("schema path without a trailing slash: concatenated as is", DATA, "main", true, "t/", true, "/r/data/maint/"),
                Arguments.of("data path without a trailing slash gets one", "/r/data", "main/", true, "t/", true, "/r/data/main/t/"),
                Arguments.of("data path with two trailing slashes keeps one", "/r/data//", "main/", true, "t/", true, "/r/data/main/t/"),
                Arguments.of("double slash inside a path is kept", DATA, "main//", true, "t/", true, "/r/data/main//t/"),
                Arguments.of("absolute schema path", DATA, "/elsewhere/s/", false, "t/", true, "/elsewhere/s/t/"),
                Arguments.of("absolute table path under an absolute schema", DATA, "/elsewhere/s/", false, "/r/data/x/", false, "/r/data/x/"),
                Arguments.of("path_is_relative NULL with a path counts as relative", DATA, "main/", null, "t/", null, "/r/data/main/t/"),
                Arguments.of("spaces", DATA, "my schema/", true, "a table/", true, "/r/data/my schema/a table/"),
                Arguments.of("plus and percent are not decoded", DATA, "a+b/", true, "c%20d/", true, "/r/data/a+b/c%20d/"),
                Arguments.of("unicode", DATA, "städte/", true, "東京 🗼/", true, "/r/data/städte/東京 🗼/"),
                Arguments.of("object store data path", "s3://b/repo/data", "main/", true, "t/", true, "s3://b/repo/data/main/t/"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("folders")
    void resolvesTheTableFolderAsTheExtensionDoes(String what, String dataPath, String schemaPath, Boolean schemaRelative,
                                                   String tablePath, Boolean tableRelative, String expected) {
        DuckLakePaths paths = DuckLakePaths.of(dataPath, null);
        String schema = paths.schemaFolder(schemaPath, schemaRelative);
        String table = paths.tableFolder(schema, tablePath, tableRelative);
        assertThat(table).isEqualTo(expected);
        assertThat(paths.file(table, "f.parquet", true, "data file 1")).isEqualTo(expected + "f.parquet");
        assertThat(paths.file(table, "/abs/f.parquet", false, "data file 1")).isEqualTo("/abs/f.parquet");
    }

    @Test
    void aFileRowWithoutAPathIsRefusedNotResolvedToItsFolder() {
        // A NULL path resolved to the table folder would make gc keep a "file" at the folder's key.
        DuckLakePaths paths = DuckLakePaths.of(DATA, null);
        assertThatThrownBy(() -> paths.file("/r/data/main/t/", null, true, "data file 7 of main.t"))
                .isInstanceOf(FdlException.class).hasMessageContaining("data file 7 of main.t").hasMessageContaining("no path");
    }

    @Test
    void anOverriddenDataPathMovesRelativePathsAndAbsolutePathsUnderTheRecordedOne() {
        DuckLakePaths paths = DuckLakePaths.of("/old/data/", "/mirror/cache");
        assertThat(paths.base()).isEqualTo("/mirror/cache/");
        String main = paths.schemaFolder("main/", true);
        assertThat(main).isEqualTo("/mirror/cache/main/");
        assertThat(paths.file(main, "f.parquet", true, "f")).isEqualTo("/mirror/cache/main/f.parquet");
        assertThat(paths.file(main, "/old/data/main/t/g.parquet", false, "g")).isEqualTo("/mirror/cache/main/t/g.parquet");
        assertThat(paths.file(main, "/old/database/h.parquet", false, "h")).isEqualTo("/old/database/h.parquet");
        assertThat(paths.file(main, "/other/i.parquet", false, "i")).isEqualTo("/other/i.parquet");
        // the empty override: names relative to the data path (what the reader fetches into a mirror)
        DuckLakePaths relative = DuckLakePaths.of("/old/data/", "");
        assertThat(relative.file(relative.schemaFolder(null, null), "/old/data/main/t/g.parquet", false, "g"))
                .isEqualTo("main/t/g.parquet");
        // no override, no data path: relative paths stay relative
        assertThat(DuckLakePaths.of(null, null).schemaFolder("main/", true)).isEqualTo("main/");
    }

    @Test
    void dataPathNormalisationTrimsEverySeparatorAndAddsOne() {
        assertThat(DuckLakePaths.dataPath("/r/data")).isEqualTo("/r/data/");
        assertThat(DuckLakePaths.dataPath("/r/data/")).isEqualTo("/r/data/");
        assertThat(DuckLakePaths.dataPath("/r/data//")).isEqualTo("/r/data/");
        assertThat(DuckLakePaths.dataPath("C:\\lake\\")).isEqualTo("C:\\lake/");
        assertThat(DuckLakePaths.dataPath("")).isEmpty();
        assertThat(DuckLakePaths.dataPath(null)).isNull();
    }

    @Test
    void gcNamesAFileInADoubleSlashFolderNoKeyAtAllSoCommitRefusesIt() {
        // "main//t/f" is one file on a local disk and another key on S3: no single key is right, so
        // the name counts as outside the data folder (commit step 5 refuses such a catalog).
        NamedFile f = new NamedFile(DATA, "/r/data/main//t/f.parquet", false, 1, true);
        assertThat(f.nameIn(DATA)).isNull();
        assertThat(new NamedFile(DATA, "/r/data/my schema/a+b%20/東京.parquet", false, 1, true).nameIn(DATA))
                .isEqualTo("my schema/a+b%20/東京.parquet");
    }

    /** (what, schema path, schema relative, table path, table relative, expected key of the table folder under data/). */
    static Stream<Arguments> workingCatalogs() {
        return Stream.of(
                Arguments.of("NULL schema path", null, null, "t/", true, "t/"),
                Arguments.of("empty schema path", "", true, "t/", true, "t/"),
                Arguments.of("NULL table path", "main/", true, null, null, "main/"),
                Arguments.of("NULL schema and table paths", null, null, null, null, ""),
                Arguments.of("schema path without a trailing slash", "main", true, "t/", true, "maint/"),
                Arguments.of("absolute table path inside the data folder", "main/", true, "{data}x y/", false, "x y/"),
                Arguments.of("path_is_relative NULL", "main/", null, "t/", null, "main/t/"),
                Arguments.of("spaces, plus, percent, unicode", "my schema+/", true, "c%20d 東京/", true, "my schema+/c%20d 東京/"));
    }

    /**
     * The importer writes a file where the rule puts it, and gc's file list (commit step 5, verify),
     * the built-in reader and the importer agree on its key: a difference would let gc delete the
     * file just imported.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("workingCatalogs")
    void importerGcListAndReaderAgreeOnWhereAFileIs(String what, String schemaPath, Boolean schemaRelative,
                                                     String tablePath, Boolean tableRelative, String folderKey) throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(dir);
        Path csv = dir.resolve("rows.csv");
        Files.writeString(csv, "a,b\n1,x\n2,y\n");
        wc.importFile(csv, "t", ImportMode.CREATE);
        String dataLocation = wc.store.location("data/");
        try (Connection c = Sql.sqlite(wc.catalog, false)) {
            set(c, "UPDATE ducklake_schema SET path = ?, path_is_relative = ? WHERE schema_name = 'main'", schemaPath, schemaRelative, dataLocation);
            set(c, "UPDATE ducklake_table SET path = ?, path_is_relative = ? WHERE table_name = 't'", tablePath, tableRelative, dataLocation);
        }

        ImportResult appended = wc.importFile(csv, "t", ImportMode.REPLACE);

        String fileName = appended.dataFileKey().substring(appended.dataFileKey().lastIndexOf('/') + 1);
        assertThat(appended.dataFileKey()).isEqualTo("data/" + folderKey + fileName);
        assertThat(wc.store.stat(appended.dataFileKey())).isPresent();
        List<String> gcNames = new ArrayList<>();
        CatalogFiles.duckLake().forEach(wc.catalog, f -> gcNames.add(f.nameIn(dataLocation)));
        assertThat(gcNames).contains(folderKey + fileName);
        Path duck = dir.resolve("converted.duckdb");
        CatalogConverter.convert(wc.catalog, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        assertThat(BuiltInReader.requiredFiles(DuckDbPool.shared(), duck, null)).contains(folderKey + fileName);
        try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), duck, null, null);
             var st = reader.connection().createStatement();
             var rs = st.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(2); // only the new file is visible
        }
    }

    /**
     * Nested schemas (DuckLake 1.1 {@code parent_schema_id}): every schema's path is relative to the
     * data path, whatever its parent, as the 1.1 extension reads it ({@code FromRelativePath(path,
     * base_data_path)} for every schema row). A rule that resolved a nested schema through its
     * parent would name {@code /r/data/sales/europe/…} while the extension's files live under
     * {@code /r/data/europe/…}, and gc would delete them. A parent the rows do not describe changes
     * nothing.
     */
    @Test
    void aNestedSchemasFolderIsRelativeToTheDataPathNotToItsParent() {
        DuckLakePaths paths = DuckLakePaths.of(DATA, null);
        java.util.Map<Long, String> folders = paths.schemaFolders(List.of(
                new DuckLakePaths.SchemaRow(1, "sales/", true),
                new DuckLakePaths.SchemaRow(2, "europe/", true),
                new DuckLakePaths.SchemaRow(3, null, null),
                new DuckLakePaths.SchemaRow(5, "/elsewhere/", false),
                new DuckLakePaths.SchemaRow(6, "x/", true)));
        assertThat(folders).containsEntry(1L, "/r/data/sales/").containsEntry(2L, "/r/data/europe/")
                .containsEntry(3L, "/r/data/").containsEntry(5L, "/elsewhere/").containsEntry(6L, "/r/data/x/");
        assertThat(paths.tableFolder(folders.get(2L), "orders/", true)).isEqualTo("/r/data/europe/orders/");
    }

    private static void set(Connection c, String sql, String path, Boolean relative, String dataLocation) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, path == null ? null : path.replace("{data}", dataLocation));
            if (relative == null) ps.setNull(2, java.sql.Types.BIGINT);
            else ps.setLong(2, relative ? 1 : 0);
            ps.executeUpdate();
        }
    }
}
