package dev.fdl.ducklake.load;

import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.FdlException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.read.BuiltInReader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 17: CSV import as DuckDB users expect it. DuckDB's sniffer samples 20,480 rows; a quote
 * that first appears after the sample must still be read as a quote, and a ragged file must be
 * refused naming and quoting its first bad line, never imported as one text column.
 */
class ImporterCsvTest {
    /** Beyond DuckDB's default sample of 20,480 rows. */
    static final int LATE = 25_000;

    @TempDir Path tmp;
    WorkingCatalogFixture wc;

    @BeforeEach
    void setUp() {
        wc = new WorkingCatalogFixture(tmp.resolve("wc"));
    }

    /** A CSV of {@code rows} rows {@code id,name,score}; row {@code special} is {@code line} instead. */
    Path csv(String name, int rows, int special, String line) throws IOException {
        Path p = tmp.resolve(name);
        try (OutputStream raw = Files.newOutputStream(p);
             OutputStream out = name.endsWith(".gz") ? new GZIPOutputStream(raw) : raw) {
            StringBuilder sb = new StringBuilder("id,name,score\n");
            for (int i = 1; i <= rows; i++) {
                sb.append(i == special ? line : i + ",n" + i + "," + i).append('\n');
                if (sb.length() > 1 << 16) {
                    out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
                    sb.setLength(0);
                }
            }
            out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
        }
        return p;
    }

    String value(String sql) {
        try (BuiltInReader r = wc.read(null)) {
            return String.valueOf(r.query(sql).rows().get(0).get(0));
        }
    }

    @Test
    void aQuotedFieldFirstSeenAfterTheSampleIsReadAsQuoted() throws IOException {
        Path p = csv("late.csv", 30_000, LATE, LATE + ",\"late, quoted\"," + LATE);
        ImportResult r = wc.importFile(p, "t", ImportMode.CREATE);
        assertThat(r.rows()).isEqualTo(30_000);
        assertThat(r.columns()).extracting(ImportResult.Column::text).containsExactly("id BIGINT", "name VARCHAR", "score BIGINT");
        assertThat(value("SELECT name FROM t WHERE id = " + LATE)).isEqualTo("late, quoted");
    }

    @Test
    void aLateQuotedFieldWithoutDelimiterDoesNotKeepItsQuotes() throws IOException {
        // DuckDB's default sniff would import this silently as "late" with its quotes.
        Path p = csv("silent.csv.gz", 30_000, LATE, LATE + ",\"late\"," + LATE);
        wc.importFile(p, "t", ImportMode.CREATE);
        assertThat(value("SELECT name FROM t WHERE id = " + LATE)).isEqualTo("late");
    }

    private void refusedNaming(Path p, String lineNumber, String quoted) {
        String before = wc.dump();
        assertThatThrownBy(() -> wc.importFile(p, "t", ImportMode.CREATE))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.FAILURE))
                .hasMessageContaining(p.toString())
                .hasMessageContaining("line " + lineNumber + " has ")
                .hasMessageContaining(quoted)
                .hasMessageContaining("nothing was imported");
        assertThat(wc.dump()).isEqualTo(before);
    }

    @Test
    void aRowWithAnExtraFieldInsideTheSampleIsRefusedNotReadAsOneColumn() throws IOException {
        refusedNaming(csv("extra.csv", 99, 50, "50,x,50,extra"), "51", "50,x,50,extra");
    }

    @Test
    void aLastRowWithAnExtraFieldIsRefusedNotTakenAsTheHeader() throws IOException {
        // DuckDB's sniffer answers skip = 2 here: the wide last line would become the header and no row would remain
        Path p = tmp.resolve("last.csv");
        Files.writeString(p, "id,name,pop\n1,A,1\n2,B,2,x\n");
        refusedNaming(p, "3", "2,B,2,x");
    }

    @Test
    void aRowWithAMissingFieldAfterTheSampleIsRefused() throws IOException {
        refusedNaming(csv("short.csv.gz", 30_000, LATE, LATE + ",x"), String.valueOf(LATE + 1), LATE + ",x");
    }

    @Test
    void aRowWithAnExtraFieldAfterTheSampleIsRefused() throws IOException {
        refusedNaming(csv("late-extra.csv", 30_000, LATE, LATE + ",x," + LATE + ",extra"), String.valueOf(LATE + 1),
                LATE + ",x," + LATE + ",extra");
    }

    @Test
    void aByteThatIsNotUtf8AfterTheSampleIsRefusedNamingItsLine() throws IOException {
        Path p = csv("late-latin1.csv", 30_000, LATE, LATE + ",caf\u00e9," + LATE);
        byte[] bytes = Files.readAllBytes(p);
        String text = new String(bytes, StandardCharsets.UTF_8);
        Files.write(p, text.replace("caf\u00e9", "caf\u0001").getBytes(StandardCharsets.UTF_8));
        bytes = Files.readAllBytes(p);
        for (int i = 0; i < bytes.length; i++) if (bytes[i] == 1) bytes[i] = (byte) 0xE9; // Latin-1 é
        Files.write(p, bytes);
        String before = wc.dump();
        assertThatThrownBy(() -> wc.importFile(p, "t", ImportMode.CREATE))
                .hasMessageContaining("not UTF-8").hasMessageContaining("line " + (LATE + 1) + " ");
        assertThat(wc.dump()).isEqualTo(before);
    }

    @Test
    void aValueOfAnotherTypeAfterTheSampleGetsTheTypeTheWholeFileHas() throws IOException {
        // the sample's types (score BIGINT) do not fit the file: it is sniffed whole and read again
        Path p = csv("late-type.csv", 30_000, LATE, LATE + ",n," + "2.5");
        ImportResult r = wc.importFile(p, "t", ImportMode.CREATE);
        assertThat(r.columns()).extracting(ImportResult.Column::text).containsExactly("id BIGINT", "name VARCHAR", "score DOUBLE");
        assertThat(value("SELECT score FROM t WHERE id = " + LATE)).isEqualTo("2.5");
        assertThat(value("SELECT count(*) FROM t")).isEqualTo("30000");
    }

    @Test
    void anIntegerWrittenInAnotherFormAfterTheSampleIsReadAsTheWholeFileSniffReadsIt() throws IOException {
        // DuckDB casts 1e3 to the BIGINT 1000 and +5 to 5: the strict read stops at them, the whole file decides
        Path p = csv("late-forms.csv", 30_000, LATE, LATE + ",n,1e3");
        ImportResult r = wc.importFile(p, "t", ImportMode.CREATE);
        assertThat(r.columns()).extracting(ImportResult.Column::text).containsExactly("id BIGINT", "name VARCHAR", "score DOUBLE");
        assertThat(value("SELECT score FROM t WHERE id = " + LATE)).isEqualTo("1000.0");
        Path plus = csv("late-plus.csv", 30_000, LATE, LATE + ",n,+5");
        // the whole-file sniff keeps a column holding +5 as text
        ImportResult u = wc.importFile(plus, "u", ImportMode.CREATE);
        assertThat(u.columns()).extracting(ImportResult.Column::text).containsExactly("id BIGINT", "name VARCHAR", "score VARCHAR");
        assertThat(value("SELECT score FROM u WHERE id = " + LATE)).isEqualTo("+5");
        assertThat(value("SELECT count(*) FROM u")).isEqualTo("30000");
    }

    @Test
    void aDateWrittenInAnotherFormAfterTheSampleIsReadAsTheWholeFileSniffReadsIt() throws IOException {
        Path p = tmp.resolve("late-date.csv");
        StringBuilder sb = new StringBuilder("id,day\n");
        for (int i = 1; i <= 30_000; i++) sb.append(i).append(',').append(i == LATE ? "4 March 2021" : "2021-03-04").append('\n');
        Files.writeString(p, sb.toString());
        ImportResult r = wc.importFile(p, "t", ImportMode.CREATE);
        assertThat(r.columns()).extracting(ImportResult.Column::text).containsExactly("id BIGINT", "day VARCHAR");
        assertThat(value("SELECT day FROM t WHERE id = " + LATE)).isEqualTo("4 March 2021");
    }

    @Test
    void aTimestampAfterTheSampleOfDatesKeepsItsTime() throws IOException {
        Path p = tmp.resolve("late-time.csv");
        StringBuilder sb = new StringBuilder("id,day\n");
        for (int i = 1; i <= 30_000; i++) sb.append(i).append(',').append(i == LATE ? "2021-03-04 10:30:00" : "2021-03-04").append('\n');
        Files.writeString(p, sb.toString());
        ImportResult r = wc.importFile(p, "t", ImportMode.CREATE);
        assertThat(r.columns()).extracting(ImportResult.Column::text).containsExactly("id BIGINT", "day TIMESTAMP");
        assertThat(value("SELECT CAST(day AS VARCHAR) FROM t WHERE id = " + LATE)).isEqualTo("2021-03-04 10:30:00");
    }

    @Test
    void aFileQuotedWithAnotherCharacterIsReadAsTheWholeFileSniffReadsIt() throws IOException {
        Path p = tmp.resolve("single.csv");
        StringBuilder sb = new StringBuilder("id,name\n");
        for (int i = 1; i <= 100; i++) sb.append(i).append(",'a, ").append(i).append("'\n");
        Files.writeString(p, sb.toString());
        ImportResult r = wc.importFile(p, "t", ImportMode.CREATE);
        assertThat(r.rows()).isEqualTo(100);
        assertThat(value("SELECT name FROM t WHERE id = 7")).isEqualTo("a, 7");
    }

    @Test
    void aRaggedSemicolonFileNamesItsDelimiter() throws IOException {
        Path p = tmp.resolve("semi.csv");
        Files.writeString(p, "id;name;score\n1;a;1\n2;b\n3;c;3\n");
        refusedNaming(p, "3", "2;b");
        assertThatThrownBy(() -> wc.importFile(p, "t", ImportMode.CREATE)).hasMessageContaining("delimiter ';'");
    }

    @Test
    void aHeaderNamingAColumnTwiceIsRefusedNotRenamed() throws IOException {
        // DuckDB's reader would import the second as "Id_1"
        Path p = tmp.resolve("twice.csv");
        Files.writeString(p, "id,name,Id\n1,a,2\n3,b,4\n");
        String before = wc.dump();
        assertThatThrownBy(() -> wc.importFile(p, "t", ImportMode.CREATE))
                .isInstanceOf(FdlException.class)
                .hasMessageContaining(p.toString())
                .hasMessageContaining("names column 'Id' twice (fields 1 and 3");
        assertThat(wc.dump()).isEqualTo(before);
        // the same names, distinct, import as they are
        Files.writeString(p, "id,name,id2\n1,a,2\n");
        assertThat(wc.importFile(p, "t", ImportMode.CREATE).columns()).extracting(ImportResult.Column::text).containsExactly("id BIGINT", "name VARCHAR", "id2 BIGINT");
    }

    @Test
    void aFileThatIsNotUtf8IsRefusedNamingTheFirstBadLine() throws IOException {
        for (String name : new String[]{"latin1.csv", "latin1.csv.gz"}) {
            // row LATE is Latin-1 ("café" with é as the single byte 0xE9): line LATE + 1, far past the first buffer
            Path p = csv(name, 30_000, LATE, LATE + ",caf\u00e9," + LATE);
            byte[] b = name.endsWith(".gz") ? new java.util.zip.GZIPInputStream(Files.newInputStream(p)).readAllBytes() : Files.readAllBytes(p);
            String text = new String(b, StandardCharsets.UTF_8).replace("caf\u00e9", "caf\u0000");
            byte[] latin = text.getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < latin.length; i++) if (latin[i] == 0) latin[i] = (byte) 0xE9;
            try (OutputStream out = name.endsWith(".gz") ? new GZIPOutputStream(Files.newOutputStream(p)) : Files.newOutputStream(p)) {
                out.write(latin);
            }
            String before = wc.dump();
            assertThatThrownBy(() -> wc.importFile(p, "t", ImportMode.CREATE))
                    .isInstanceOf(FdlException.class)
                    .hasMessageContaining(p + ": it is not UTF-8 text: line " + (LATE + 1) + " holds a byte sequence that is not UTF-8 (starting with the byte 0xE9)")
                    .hasMessageContaining("iconv").hasMessageContaining("nothing was imported");
            assertThat(wc.dump()).isEqualTo(before);
        }
    }

    @Test
    void aSingleColumnFileIsStillOneColumn() throws IOException {
        Path p = tmp.resolve("one.csv");
        Files.writeString(p, "\"city, country\"\nLyon\nParis\n");
        ImportResult r = wc.importFile(p, "t", ImportMode.CREATE);
        assertThat(r.columns()).extracting(ImportResult.Column::text).containsExactly("city, country VARCHAR");
        assertThat(r.rows()).isEqualTo(2);
    }

    @Test
    void schemaOverrideStillReachesTheReader() throws IOException {
        Path p = tmp.resolve("zip.csv");
        Files.writeString(p, "zip,name\n01234,a\n99999,b\n");
        ImportResult r = new Importer(DuckDbPool.shared()).importFile(ImportRequest.of(wc.catalog, wc.store, "data/", p, "t", ImportMode.CREATE)
                .withSchemaOverride("zip VARCHAR"));
        assertThat(r.columns()).extracting(ImportResult.Column::text).containsExactly("zip VARCHAR", "name VARCHAR");
        assertThat(value("SELECT min(zip) FROM t")).isEqualTo("01234");
    }
}
