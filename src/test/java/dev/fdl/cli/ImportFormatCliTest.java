package dev.fdl.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** import decides the format from the file's extension; a name that says none is refused until --format names it. */
class ImportFormatCliTest {
    @TempDir Path dir;
    Path wc;

    @BeforeEach
    void workingCopy() throws Exception {
        wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(dir, "init", dir.resolve("repo").toString());
        Cli.ok(wc, "checkout", "--repo", dir.resolve("repo").toString());
    }

    @Test
    void aFileWhoseNameSaysNoFormatIsRefusedNamingItAndFormat() throws Exception {
        Path dat = Files.writeString(dir.resolve("export.dat"), "id,name\n1,a\n2,b\n");
        Cli.Result r = Cli.in(wc, "import", dat.toString(), "--table", "t");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("cannot import " + dat).contains("--format csv|parquet|json");
        assertThat(Cli.in(wc, "query", "--working", "SELECT count(*) FROM t").exit()).isNotZero(); // nothing imported
    }

    @Test
    void formatNamesTheFormatOfSuchAFileForImportAndSync() throws Exception {
        Path dat = Files.writeString(dir.resolve("export.dat"), "id,name\n1,a\n2,b\n");
        Cli.ok(wc, "import", dat.toString(), "--format", "csv", "--table", "t");
        assertThat(Cli.ok(wc, "query", "--working", "SELECT count(*) AS n FROM t", "--csv").out()).isEqualTo("n\n2\n");
        Files.writeString(dat, "id,name\n1,a\n2,b\n3,c\n");
        Cli.ok(wc, "import", dat.toString(), "--format", "CSV", "--table", "t", "--mode", "sync", "--key", "id");
        assertThat(Cli.ok(wc, "query", "--working", "SELECT count(*) AS n FROM t", "--csv").out()).isEqualTo("n\n3\n");
    }

    @Test
    void aGzippedCsvWhoseNameLacksGzIsSaidToBeGzip() throws Exception {
        Path blob = dir.resolve("export.blob");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(blob))) {
            out.write("id,name\n1,a\n2,b\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        Cli.Result r = Cli.in(wc, "import", blob.toString(), "--format", "csv", "--table", "t");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("it is gzip-compressed").contains("export.blob.gz").doesNotContain("iconv");
        Path gz = Files.move(blob, dir.resolve("export.csv.gz"));
        Cli.ok(wc, "import", gz.toString(), "--table", "t"); // named as the message says, it loads
    }

    @Test
    void anUnknownFormatNameIsAUsageError() throws Exception {
        Path dat = Files.writeString(dir.resolve("export.dat"), "id\n1\n");
        Cli.Result r = Cli.in(wc, "import", dat.toString(), "--format", "xml", "--table", "t");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("invalid --format 'xml': use csv, parquet or json");
    }
}
