package dev.fdl.cli;

import dev.fdl.ducklake.engine.DuckDbPool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** import of several files, a folder, a glob or hive-partitioned folders as one snapshot; data files split at a target size. */
class ImportManyFilesCliTest {
    @TempDir Path dir;
    Path wc;

    @BeforeEach
    void workingCopy() {
        wc = Cli.newWorkingCopy(dir);
    }

    private static void duck(String... sql) throws Exception {
        try (Connection c = DuckDbPool.shared().connection(); Statement st = c.createStatement()) {
            for (String s : sql) st.execute(s);
        }
    }

    private String query(String sql) {
        return Cli.ok(wc, "query", "--working", sql, "--csv").out();
    }


    @Test
    void aFolderOfParquetFilesLoadsAsOneSnapshot() throws Exception {
        Path parts = Files.createDirectories(dir.resolve("parts"));
        duck("COPY (SELECT range AS id, 'a' || range AS s FROM range(0, 100)) TO '" + parts.resolve("part-0.parquet") + "'",
                "COPY (SELECT range AS id, 'a' || range AS s FROM range(100, 250)) TO '" + parts.resolve("part-1.parquet") + "'");
        Files.writeString(parts.resolve("_SUCCESS"), "");
        Cli.Result r = Cli.ok(wc, "import", parts.toString(), "--table", "t", "--json");
        assertThat(r.out()).contains("\"rows\" : 250");
        assertThat(query("SELECT count(*) AS n, sum(id) AS s, count(DISTINCT s) AS d FROM t")).isEqualTo("n,s,d\n250,31125,250\n");
        assertThat(Cli.ok(wc, "status").out()).contains("1 snapshot(s) to commit");
    }

    @Test
    void aQuotedGlobOfCsvAndGzipLoadsEveryMatchingFile() throws Exception {
        Files.writeString(dir.resolve("a.csv"), "id,name\n1,x\n2,y\n");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(dir.resolve("b.csv.gz")))) {
            out.write("id,name\n3,z\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        Files.writeString(dir.resolve("c.txt"), "not,matched\n");
        Cli.ok(wc, "import", "../*.csv*", "--table", "t");
        assertThat(query("SELECT id, name FROM t ORDER BY id")).isEqualTo("id,name\n1,x\n2,y\n3,z\n");
    }

    @Test
    void severalFilesNamedOneByOneLoadTogether() throws Exception {
        Path a = Files.writeString(dir.resolve("a.csv"), "id,v\n1,1.5\n");
        Path b = Files.writeString(dir.resolve("b.csv"), "id,v\n2,2\n");
        Cli.ok(wc, "import", a.toString(), b.toString(), "--table", "t");
        // the types differ (DOUBLE and BIGINT): widened to DOUBLE
        assertThat(query("SELECT id, v, typeof(v) AS ty FROM t ORDER BY id")).isEqualTo("id,v,ty\n1,1.5,DOUBLE\n2,2.0,DOUBLE\n");
    }

    @Test
    void hivePartitionValuesAreUrlDecodedAlikeForCsvAndParquet() throws Exception {
        // DuckDB's PARTITION_BY (like Spark and Hive) URL-encodes values in folder names: a space as %20, a slash as %2F
        String rows = "SELECT range AS id, CASE WHEN range % 2 = 0 THEN 'São Paulo' ELSE 'a/b=c d' END AS city, 'x+y' AS tag FROM range(10)";
        Path csv = dir.resolve("csv"), parquet = dir.resolve("parquet");
        duck("COPY (" + rows + ") TO '" + csv + "' (FORMAT csv, HEADER, PARTITION_BY (city, tag))",
                "COPY (" + rows + ") TO '" + parquet + "' (FORMAT parquet, PARTITION_BY (city, tag))");
        try (Stream<Path> s = Files.walk(csv)) {
            assertThat(s.map(Path::toString)).anyMatch(f -> f.contains("city=a%2Fb%3Dc%20d")).anyMatch(f -> f.contains("S%C3%A3o%20Paulo"));
        }
        Cli.ok(wc, "import", csv + "/**/*.csv", "--table", "from_csv");
        Cli.ok(wc, "import", parquet + "/**/*.parquet", "--table", "from_parquet");
        String expected = "city,tag,n\nSão Paulo,x+y,5\na/b=c d,x+y,5\n";
        assertThat(query("SELECT city, tag, count(*) AS n FROM from_csv GROUP BY ALL ORDER BY city")).isEqualTo(expected);
        assertThat(query("SELECT city, tag, count(*) AS n FROM from_parquet GROUP BY ALL ORDER BY city")).isEqualTo(expected);
    }

    @Test
    void hivePartitionedFoldersKeepTheirPartitionColumns() throws Exception {
        Path root = dir.resolve("sales");
        for (String m : new String[] {"01", "02"}) {
            Path d = Files.createDirectories(root.resolve("year=2026").resolve("month=" + m));
            duck("COPY (SELECT range AS id FROM range(3)) TO '" + d.resolve("part-0.parquet") + "'");
            Files.writeString(d.resolve("part-0.csv"), "id\n7\n");
        }
        Cli.ok(wc, "import", root + "/**.parquet", "--table", "p");
        assertThat(query("SELECT year, month, count(*) AS n FROM p GROUP BY ALL ORDER BY ALL"))
                .isEqualTo("year,month,n\n2026,01,3\n2026,02,3\n");
        assertThat(query("SELECT typeof(year) AS y FROM p LIMIT 1")).isEqualTo("y\nBIGINT\n");
        Cli.ok(wc, "import", root + "/**.csv", "--table", "c");
        assertThat(query("SELECT year, month, id, typeof(year) AS y FROM c ORDER BY ALL"))
                .isEqualTo("year,month,id,y\n2026,01,7,BIGINT\n2026,02,7,BIGINT\n");
    }

    @Test
    void filesWhoseColumnsDifferAreRefusedNamingTheFirstTwo() throws Exception {
        Path a = Files.writeString(dir.resolve("a.csv"), "id,name\n1,x\n");
        Path b = Files.writeString(dir.resolve("b.csv"), "id,name\n2,y\n");
        Path c = Files.writeString(dir.resolve("c.csv"), "id,title\n3,z\n");
        Cli.Result r = Cli.in(wc, "import", a.toString(), b.toString(), c.toString(), "--table", "t");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains(a.toString()).contains(c.toString()).doesNotContain(b.toString())
                .contains("'name'").contains("'title'");
        assertThat(Cli.in(wc, "query", "--working", "SELECT * FROM t").exit()).isNotZero();
    }

    @Test
    void typesWithNoCommonTypeAreRefusedNamingSchema() throws Exception {
        Path a = Files.writeString(dir.resolve("a.csv"), "id,day\n1,2026-01-02\n");
        Path b = Files.writeString(dir.resolve("b.csv"), "id,day\n2,soon\n");
        Cli.Result r = Cli.in(wc, "import", a.toString(), b.toString(), "--table", "t");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("'day'").contains("--schema");
        Cli.ok(wc, "import", a.toString(), b.toString(), "--table", "t", "--schema", "day VARCHAR");
        assertThat(query("SELECT day FROM t ORDER BY id")).isEqualTo("day\n2026-01-02\nsoon\n");
    }

    @Test
    void mixedFormatsAreRefused() throws Exception {
        Path a = Files.writeString(dir.resolve("a.csv"), "id\n1\n");
        Path b = dir.resolve("b.parquet");
        duck("COPY (SELECT 2 AS id) TO '" + b + "'");
        Cli.Result r = Cli.in(wc, "import", a.toString(), b.toString(), "--table", "t");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("different formats").contains(a.toString()).contains(b.toString());
    }

    @Test
    void aGlobMatchingNothingIsRefused() {
        Cli.Result r = Cli.in(wc, "import", "nothing-*.csv", "--table", "t");
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(r.err()).contains("no file matches");
    }

    @Test
    void aSmallTargetFileSizeSplitsTheDataIntoSeveralFilesReadBackEqual() throws Exception {
        Path src = dir.resolve("big.parquet");
        duck("COPY (SELECT range AS id, md5(CAST(range AS VARCHAR)) AS h FROM range(300000)) TO '" + src + "' (ROW_GROUP_SIZE 50000)");
        Cli.Result r = Cli.ok(wc, "import", src.toString(), "--table", "t", "--target-file-size", "2MB", "--json");
        assertThat(r.out()).contains("\"rows\" : 300000");
        long files;
        try (Stream<Path> s = Files.walk(dir.resolve("repo/data"))) {
            files = s.filter(p -> p.toString().endsWith(".parquet")).count();
        }
        assertThat(files).isGreaterThan(1);
        assertThat(query("SELECT count(*) AS n, sum(id) AS s, count(DISTINCT h) AS d FROM t"))
                .isEqualTo("n,s,d\n300000,44999850000,300000\n");
        // the same rows as the source, row for row
        assertThat(query("SELECT count(*) AS n FROM t WHERE h <> md5(CAST(id AS VARCHAR))")).isEqualTo("n\n0\n");
        // the row ids DuckLake gives run on across the files, without gaps or overlaps
        long next = 0;
        Path catalog;
        try (Stream<Path> s = Files.list(wc.resolve(".fdl"))) {
            catalog = s.filter(p -> p.getFileName().toString().endsWith(".sqlite")).findFirst().orElseThrow();
        }
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + catalog); Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT row_id_start, record_count FROM ducklake_data_file ORDER BY row_id_start")) {
            while (rs.next()) {
                assertThat(rs.getLong(1)).isEqualTo(next);
                next += rs.getLong(2);
            }
        }
        assertThat(next).isEqualTo(300000);
        Cli.ok(wc, "commit", "-m", "split");
        assertThat(Cli.ok(wc, "query", "SELECT count(*) AS n FROM t", "--csv").out()).isEqualTo("n\n300000\n");
    }

    @Test
    void fdlJsonSetsTheTargetFileSizeForTheRepository() throws Exception {
        Path config = dir.resolve("repo/fdl.json");
        Files.writeString(config, Files.readString(config).replaceFirst("\\}\\s*$", ", \"target_file_size\": \"2MB\"}"));
        Path src = dir.resolve("big.parquet");
        duck("COPY (SELECT range AS id, md5(CAST(range AS VARCHAR)) AS h FROM range(300000)) TO '" + src + "' (ROW_GROUP_SIZE 50000)");
        Cli.Result r = Cli.ok(wc, "import", src.toString(), "--table", "t");
        assertThat(r.out()).contains("data files");
        Files.writeString(config, Files.readString(config).replace("\"2MB\"", "\"lots\""));
        Cli.Result bad = Cli.in(wc, "import", src.toString(), "--table", "u");
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(1);
        assertThat(bad.err()).contains("fdl.json").contains("target_file_size");
    }

    private long parquetFiles() throws Exception {
        try (Stream<Path> s = Files.walk(dir.resolve("repo/data"))) {
            return s.filter(p -> p.toString().endsWith(".parquet") && !p.toString().endsWith("-delete.parquet")).count();
        }
    }

    @Test
    void syncAndCompactWriteThroughTheSameSplittingWriter() throws Exception {
        Path config = dir.resolve("repo/fdl.json");
        Files.writeString(config, Files.readString(config).replaceFirst("\\}\\s*$", ", \"target_file_size\": \"2MB\"}"));
        Path src = dir.resolve("v1.parquet");
        duck("COPY (SELECT range AS id, md5(CAST(range AS VARCHAR)) AS h FROM range(10)) TO '" + src + "'");
        Cli.ok(wc, "import", src.toString(), "--table", "t", "--mode", "sync", "--key", "id");
        long before = parquetFiles();
        // the sync adds 300,000 rows: more than one data file at 2 MB
        duck("COPY (SELECT range AS id, md5(CAST(range AS VARCHAR)) AS h FROM range(300010)) TO '" + src + "'");
        Cli.ok(wc, "import", src.toString(), "--table", "t", "--mode", "sync");
        assertThat(parquetFiles() - before).isGreaterThan(1);
        String all = "SELECT count(*) AS n, sum(id) AS s, count(*) FILTER (WHERE h <> md5(CAST(id AS VARCHAR))) AS bad FROM t";
        assertThat(query(all)).isEqualTo("n,s,bad\n300010,45002850045,0\n");
        before = parquetFiles();
        Cli.Result r = Cli.ok(wc, "compact", "t");
        assertThat(parquetFiles() - before).isGreaterThan(1);
        assertThat(r.out()).doesNotContain("-> 1 data file");
        assertThat(query(all)).isEqualTo("n,s,bad\n300010,45002850045,0\n");
    }
}
