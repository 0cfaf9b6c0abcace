package dev.fdl.cli;

import dev.fdl.ducklake.engine.DuckDbPool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/** add-files registers Parquet files already in the data folder, without copying; gc keeps them while a live version names them. */
class AddFilesCliTest {
    @TempDir Path dir;
    Path wc;
    Path data;

    @BeforeEach
    void workingCopy() throws Exception {
        wc = Cli.newWorkingCopy(dir);
        data = dir.resolve("repo/data");
    }

    private static void duck(String... sql) throws Exception {
        try (Connection c = DuckDbPool.shared().connection(); Statement st = c.createStatement()) {
            for (String s : sql) st.execute(s);
        }
    }

    /** Writes rows [from, to) as a Parquet file with DuckDB's own COPY, field ids given. */
    private Path part(String key, int from, int to, String fieldIds) throws Exception {
        Path p = data.resolve(key);
        Files.createDirectories(p.getParent());
        duck("COPY (SELECT range AS id, 'n' || range AS name, CAST(range * 0.5 AS DOUBLE) AS score FROM range(" + from + ", " + to + ")) TO '" + p
                + "' (FORMAT parquet" + (fieldIds == null ? "" : ", FIELD_IDS " + fieldIds) + ")");
        return p;
    }

    private String query(String... args) {
        return Cli.ok(wc, args).out();
    }

    @Test
    void filesWrittenByDuckDbIntoTheDataFolderAreRegisteredReadBackEqualAndKeptByGc() throws Exception {
        String ids = "{id: 1, name: 2, score: 3}";
        Path a = part("jobs/run-1/part-0.parquet", 0, 1000, ids);
        Path b = part("jobs/run-1/part-1.parquet", 1000, 2500, ids);
        long sizeA = Files.size(a);
        Cli.Result r = Cli.ok(wc, "add-files", "jobs/run-1/*.parquet", "--table", "events", "--create");
        assertThat(r.out()).contains("Added 2 file(s) of 2500 rows").contains("created the table");
        String expected = "n,s,names,lo,hi\n2500,3123750,2500,0.0,1249.5\n";
        String sql = "SELECT count(*) AS n, sum(id) AS s, count(DISTINCT name) AS names, min(score) AS lo, max(score) AS hi FROM events";
        assertThat(query("query", "--working", sql, "--csv")).isEqualTo(expected);
        // nothing copied: the data folder holds just the two files
        try (var s = Files.walk(data)) {
            assertThat(s.filter(Files::isRegularFile).count()).isEqualTo(2);
        }
        Cli.ok(wc, "commit", "-m", "registered");
        assertThat(query("query", sql, "--csv")).isEqualTo(expected);
        // a filter on the footer statistics still finds the rows
        assertThat(query("query", "SELECT count(*) AS n FROM events WHERE id >= 2400", "--csv")).isEqualTo("n\n100\n");

        Cli.ok(wc, "gc", "--grace", "0");
        assertThat(a).exists();
        assertThat(Files.size(a)).isEqualTo(sizeA);
        assertThat(b).exists();
        assertThat(query("query", sql, "--csv")).isEqualTo(expected);
        Cli.ok(wc, "verify");
    }

    @Test
    void filesAreAddedToAnImportedTableWhenTheirFieldIdsAndTypesMatch() throws Exception {
        Files.writeString(dir.resolve("t.csv"), "id,name,score\n-1,first,0.25\n");
        Cli.ok(wc, "import", dir.resolve("t.csv").toString(), "--table", "t");
        part("main/t/extra.parquet", 0, 10, "{id: 1, name: 2, score: 3}");
        Path path = data.resolve("main/t/extra.parquet");
        Cli.ok(wc, "add-files", path.toString(), "--table", "t"); // a local path inside the data folder
        assertThat(query("query", "--working", "SELECT count(*) AS n, min(id) AS lo, max(id) AS hi FROM t", "--csv"))
                .isEqualTo("n,lo,hi\n11,-1,9\n");
        Cli.Result again = Cli.in(wc, "add-files", "main/t/extra.parquet", "--table", "t");
        assertThat(again.exit()).as(again.toString()).isEqualTo(1);
        assertThat(again.err()).contains("already has it");
    }

    @Test
    void filesThatWouldRepeatOrNullTheRecordedKeyAreRefusedUnlessTheKeyIsDropped() throws Exception {
        Files.writeString(dir.resolve("t.csv"), "id,name,score\n-1,first,0.25\n-2,second,0.5\n");
        Cli.ok(wc, "import", dir.resolve("t.csv").toString(), "--table", "t", "--mode", "sync", "--key", "id");
        Cli.ok(wc, "commit", "-m", "b1");
        String ids = "{id: 1, name: 2, score: 3}";
        part("jobs/ok/p.parquet", 0, 5, ids);
        Path twice = data.resolve("jobs/dup/p.parquet");
        Files.createDirectories(twice.getParent());
        duck("COPY (SELECT * FROM (VALUES (10::BIGINT, 'a', 1.0::DOUBLE), (-2, 'again', 2.0)) AS v(id, name, score)) TO '" + twice
                + "' (FORMAT parquet, FIELD_IDS " + ids + ")");
        Path nulls = data.resolve("jobs/null/p.parquet");
        Files.createDirectories(nulls.getParent());
        duck("COPY (SELECT * FROM (VALUES (11::BIGINT, 'a', 1.0::DOUBLE), (NULL, 'no key', 2.0)) AS v(id, name, score)) TO '" + nulls
                + "' (FORMAT parquet)");
        String count = "SELECT count(*) AS n FROM t";

        Cli.Result dup = Cli.in(wc, "add-files", "jobs/ok/p.parquet", "jobs/dup/p.parquet", "--table", "t");
        assertThat(dup.exit()).as(dup.toString()).isEqualTo(1);
        assertThat(dup.err()).contains("the table's key (id)").contains("id = -2 would be held by 2 rows")
                .contains("data row 2 of " + twice).contains("--no-key");
        Cli.Result nul = Cli.in(wc, "add-files", "jobs/null/p.parquet", "--table", "t");
        assertThat(nul.exit()).as(nul.toString()).isEqualTo(1);
        assertThat(nul.err()).contains("would be NULL in data row 2 of " + nulls);
        assertThat(query("query", "--working", count, "--csv")).isEqualTo("n\n2\n");

        Cli.ok(wc, "add-files", "jobs/ok/p.parquet", "--table", "t");
        Cli.ok(wc, "add-files", "jobs/dup/p.parquet", "--table", "t", "--no-key");
        Cli.ok(wc, "commit", "-m", "key dropped");
        assertThat(query("query", count, "--csv")).isEqualTo("n\n9\n");
        assertThat(Cli.ok(wc, "diff", "HEAD~1", "HEAD", "--stat").out()).contains("t");
    }

    @Test
    void aFileOutsideTheDataFolderIsRefusedWithTheCommandToCopyItIn() throws Exception {
        Path outside = dir.resolve("elsewhere.parquet");
        duck("COPY (SELECT 1 AS id) TO '" + outside + "' (FORMAT parquet, FIELD_IDS {id: 1})");
        Cli.Result r = Cli.in(wc, "add-files", outside.toString(), "--table", "t", "--create");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("outside the repository's data folder").contains("cp " + outside).contains("fdl import");
        assertThat(Cli.in(wc, "query", "--working", "SELECT * FROM t").exit()).isNotZero();
    }

    @Test
    void filesWithoutFieldIdsAreRegisteredByNameAndReadBackEqualAfterCommitAndCheckout() throws Exception {
        // DuckDB's plain COPY writes no field ids (nor do Spark and Trino): the columns are matched by name
        part("plain/part-0.parquet", 0, 1000, null);
        Cli.ok(wc, "add-files", "plain/part-0.parquet", "--table", "t", "--create");
        // into the table made from it: another file, columns in another order and case
        Path p = data.resolve("plain/part-1.parquet");
        duck("COPY (SELECT CAST(range * 0.5 AS DOUBLE) AS SCORE, 'n' || range AS Name, range AS ID FROM range(1000, 2500)) TO '" + p
                + "' (FORMAT parquet)");
        Cli.ok(wc, "add-files", "plain/part-1.parquet", "--table", "t");
        // and one with field ids, read by id beside them
        part("ids/part-2.parquet", 2500, 3000, "{id: 1, name: 2, score: 3}");
        Cli.ok(wc, "add-files", "ids/part-2.parquet", "--table", "t");
        String sql = "SELECT count(*) AS n, sum(id) AS s, count(DISTINCT name) AS names, min(score) AS lo, max(score) AS hi, "
                + "bit_xor(hash(id, name, score)) AS h FROM t";
        String expected;
        try (Connection c = DuckDbPool.shared().connection(); Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT count(*) || ',' || sum(id) || ',' || count(DISTINCT name) || ',' || "
                     + "min(score) || ',' || max(score) || ',' || bit_xor(hash(id, name, score)) FROM (SELECT range AS id, 'n' || range AS name, "
                     + "CAST(range * 0.5 AS DOUBLE) AS score FROM range(0, 3000))")) {
            rs.next();
            expected = "n,s,names,lo,hi,h\n" + rs.getString(1) + "\n";
        }
        assertThat(query("query", "--working", sql, "--csv")).isEqualTo(expected);
        assertThat(Cli.ok(wc, "query", "--working", "--csv", "SELECT name FROM t WHERE id = 1700").out()).isEqualTo("name\nn1700\n");
        Cli.ok(wc, "commit", "-m", "registered by name");
        assertThat(query("query", sql, "--csv")).isEqualTo(expected);
        Path other = Files.createDirectories(dir.resolve("other"));
        Cli.ok(other, "checkout", "--repo", dir.resolve("repo").toString());
        assertThat(Cli.ok(other, "query", "--working", sql, "--csv").out()).isEqualTo(expected);
        // deletes land on the name-mapped files by position: a keyed sync removing and changing rows
        Path v2 = dir.resolve("v2.csv");
        duck("COPY (SELECT range AS id, CASE WHEN range % 7 = 0 THEN 'changed' ELSE 'n' || range END AS name, CAST(range * 0.5 AS DOUBLE) AS score "
                + "FROM range(0, 3000) WHERE range % 11 <> 0) TO '" + v2 + "' (HEADER)");
        Cli.ok(other, "import", v2.toString(), "--table", "t", "--mode", "sync", "--key", "id");
        String v2sql = "SELECT count(*) AS n, sum(id) AS s, count(*) FILTER (WHERE name = 'changed') AS c FROM t";
        String v2expected = Cli.ok(other, "query", "--working", "--csv", "SELECT count(*) AS n, sum(id) AS s, count(*) FILTER (WHERE name = 'changed') AS c "
                + "FROM read_csv('" + v2 + "')").out();
        assertThat(Cli.ok(other, "query", "--working", v2sql, "--csv").out()).isEqualTo(v2expected);
        Cli.ok(other, "commit", "-m", "synced");
        Cli.ok(other, "compact", "t");
        assertThat(Cli.ok(other, "query", "--working", v2sql, "--csv").out()).isEqualTo(v2expected);
        Cli.ok(other, "commit", "-m", "compacted");
        Cli.ok(other, "gc", "--grace", "0");
        Cli.ok(other, "verify");
        assertThat(Cli.ok(other, "query", "@~1", v2sql, "--csv").out()).isEqualTo(v2expected);
        assertThat(Cli.ok(other, "query", "@~2", sql, "--csv").out()).isEqualTo(expected);
        // restore brings the name-mapped files back with their mapping
        Cli.ok(other, "restore", "@~2");
        assertThat(Cli.ok(other, "query", "--working", sql, "--csv").out()).isEqualTo(expected);
        Cli.ok(other, "commit", "-m", "restored");
        assertThat(Cli.ok(other, "query", sql, "--csv").out()).isEqualTo(expected);
        Cli.ok(other, "site");
    }

    @Test
    void aFileWithoutFieldIdsMissingOrMistypingAColumnIsRefusedNamingFileAndColumn() throws Exception {
        part("plain/part-0.parquet", 0, 5, null);
        Cli.ok(wc, "add-files", "plain/part-0.parquet", "--table", "t", "--create");
        Path missing = data.resolve("plain/part-1.parquet");
        duck("COPY (SELECT range AS id, 0.5::DOUBLE AS score FROM range(3)) TO '" + missing + "' (FORMAT parquet)");
        Cli.Result r = Cli.in(wc, "add-files", "plain/part-1.parquet", "--table", "t");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("part-1.parquet").contains("no column 'name'");
        Path mistyped = data.resolve("plain/part-2.parquet");
        duck("COPY (SELECT range AS id, 'x' AS name, CAST(range AS VARCHAR) AS score FROM range(3)) TO '" + mistyped + "' (FORMAT parquet)");
        r = Cli.in(wc, "add-files", "plain/part-2.parquet", "--table", "t");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("part-2.parquet").contains("column 'score' is DOUBLE in the table but VARCHAR in the file");
        assertThat(query("query", "--working", "SELECT count(*) AS n FROM t", "--csv")).isEqualTo("n\n5\n");
    }

    @Test
    void aColumnOfAnotherTypeIsRefusedNamingFileAndColumn() throws Exception {
        part("a/part-0.parquet", 0, 5, "{id: 1, name: 2, score: 3}");
        Cli.ok(wc, "add-files", "a/part-0.parquet", "--table", "t", "--create");
        Path p = data.resolve("a/part-1.parquet");
        duck("COPY (SELECT CAST(range AS INTEGER) AS id, 'x' AS name, 0.5::DOUBLE AS score FROM range(3)) TO '" + p
                + "' (FORMAT parquet, FIELD_IDS {id: 1, name: 2, score: 3})");
        Cli.Result r = Cli.in(wc, "add-files", "a/part-1.parquet", "--table", "t");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("part-1.parquet").contains("column 'id' is BIGINT in the table but INTEGER in the file");
        assertThat(query("query", "--working", "SELECT count(*) AS n FROM t", "--csv")).isEqualTo("n\n5\n");
    }
}
