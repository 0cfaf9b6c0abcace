package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table or schema named like an existing one but for letter case is refused at import: DuckDB
 * compares names ignoring case, so the version's views could not be made and every query of the
 * version would fail.
 */
class NameCaseCliTest {
    @TempDir Path dir;

    @Test
    void aTableOrSchemaDifferingOnlyInCaseIsRefusedAndTheCatalogStaysReadable() throws Exception {
        Path wc = Cli.newWorkingCopy(dir), root = dir.resolve("repo");
        Path s = Files.writeString(dir.resolve("s.csv"), "x\n1\n");
        Cli.ok(wc, "import", s.toString(), "--table", "T");
        Cli.Result t = Cli.in(wc, "import", s.toString(), "--table", "t");
        assertThat(t.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(t.err()).contains("main.T").contains("ignoring case");
        Cli.Result schema = Cli.in(wc, "import", s.toString(), "--table", "MAIN.u");
        assertThat(schema.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(schema.err()).contains("schema 'main'");
        Cli.ok(wc, "import", s.toString(), "--table", "T", "--mode", "append"); // the table's own name still works
        // DuckDB folds the case of ASCII letters only: É1 and é1 are two tables to it
        Cli.ok(wc, "import", s.toString(), "--table", "É1");
        Cli.ok(wc, "import", s.toString(), "--table", "é1");
        Cli.ok(wc, "commit", "-m", "one");
        assertThat(Cli.ok(wc, "query", "select count(*) AS n from T").out()).contains("2");
    }

    @Test
    void namesDifferingInTheCaseOfANonAsciiLetterAreTwoNamesOnEveryPath() throws Exception {
        // DuckDB folds ASCII letters only: the reader, import, sync and their keys must agree with it
        Path wc = Cli.newWorkingCopy(dir);
        Path one = Files.writeString(dir.resolve("one.csv"), "x\n1\n");
        Path two = Files.writeString(dir.resolve("two.csv"), "x\n1\n2\n");
        Cli.ok(wc, "import", one.toString(), "--table", "É1");
        Cli.ok(wc, "import", two.toString(), "--table", "é1");
        Cli.ok(wc, "commit", "-m", "two tables");
        assertThat(Cli.ok(wc, "query", "select count(*) AS n from \"É1\"").out()).contains("\n1\n(1 row)");
        assertThat(Cli.ok(wc, "query", "select count(*) AS n from \"é1\"").out()).contains("\n2\n(1 row)");
        // two columns to DuckDB, so not a repeated header; a key names one of them, not both
        Path cols = Files.writeString(dir.resolve("cols.csv"), "É,é\n1,2\n");
        Cli.ok(wc, "import", cols.toString(), "--table", "c");
        Path keyed = Files.writeString(dir.resolve("keyed.csv"), "É,v\n1,2\n");
        Cli.Result sync = Cli.in(wc, "import", keyed.toString(), "--table", "k", "--mode", "sync", "--key", "é");
        assertThat(sync.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(sync.err()).contains("--key names column 'é'");
        Cli.ok(wc, "import", keyed.toString(), "--table", "k", "--mode", "sync", "--key", "É");
    }

    @Test
    void aSchemaNamedLikeOneOfDuckDbsOwnIsRefusedAndTheCatalogStaysReadable() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path s = Files.writeString(dir.resolve("s.csv"), "x\n1\n");
        Cli.ok(wc, "import", s.toString(), "--table", "t");
        for (String schema : new String[] {"pg_catalog", "information_schema", "Temp", "system", "memory"}) {
            Cli.Result r = Cli.in(wc, "import", s.toString(), "--table", schema + ".t");
            assertThat(r.exit()).as(schema).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).as(schema).contains("cannot create schema '" + schema + "'").contains("choose another schema name");
        }
        Cli.ok(wc, "import", s.toString(), "--table", "temps.t"); // a name merely like one is fine
        Cli.ok(wc, "commit", "-m", "one");
        assertThat(Cli.ok(wc, "query", "select count(*) AS n from t").out()).contains("1");
    }
}
