package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --schema} with an integer type for a column the file holds with fractions is refused,
 * naming column and value, instead of DuckDB's cast rounding 2.5 to 3 (following
 * sync's own hint after a column went from whole numbers to decimals changed the data silently).
 */
class NoSilentRoundingCliTest {
    @TempDir Path dir;

    @Test
    void anIntegerSchemaForValuesWithFractionsIsRefusedAndWholeValuesStillLoad() throws Exception {
        Path wc = Cli.newWorkingCopy(dir), root = dir.resolve("repo");
        Path c1 = Files.writeString(dir.resolve("c1.csv"), "id,v\n1,1\n2,2\n");
        Path c2 = Files.writeString(dir.resolve("c2.csv"), "id,v\n1,2.0\n2,3.7\n");
        Cli.ok(wc, "import", c1.toString(), "--table", "cc", "--mode", "sync", "--key", "id");

        Cli.Result sync = Cli.in(wc, "import", c2.toString(), "--table", "cc", "--mode", "sync", "--key", "id", "--schema", "v BIGINT");
        assertThat(sync.exit()).isEqualTo(1);
        assertThat(sync.err()).contains("column 'v'").contains("value 3.7 would be stored as 4").contains("c2.csv");
        Cli.Result create = Cli.in(wc, "import", c2.toString(), "--table", "dd", "--schema", "v INTEGER");
        assertThat(create.exit()).isEqualTo(1);
        assertThat(create.err()).contains("value 3.7 would be stored as 4");
        Cli.Result decimal = Cli.in(wc, "import", Files.writeString(dir.resolve("c5.csv"), "id,x\n1,2.2\n2,2.25\n").toString(),
                "--table", "ff", "--schema", "x DECIMAL(5,1)");
        assertThat(decimal.exit()).isEqualTo(1);
        assertThat(decimal.err()).contains("column 'x'").contains("value 2.25 would be stored as 2.3");
        // text holding a decimal is refused the same way
        Path c3 = Files.writeString(dir.resolve("c3.csv"), "id,v\n1,x\n2,4.25\n");
        assertThat(Cli.in(wc, "import", c3.toString(), "--table", "ee", "--schema", "v BIGINT").err()).contains("value 4.25 would be stored as 4");

        // whole values written as decimals are not rounded, so they load
        Path c4 = Files.writeString(dir.resolve("c4.csv"), "id,v\n1,2.0\n2,3.0\n");
        Cli.ok(wc, "import", c4.toString(), "--table", "cc", "--mode", "sync", "--key", "id", "--schema", "v BIGINT");
        assertThat(Cli.ok(wc, "query", "--working", "select sum(v) AS s from cc").out()).contains("5");
        assertThat(Cli.ok(wc, "status").out()).doesNotContain("dd").doesNotContain("ee").doesNotContain("ff");
        // values that fit the DECIMAL load as they are
        Cli.ok(wc, "import", Files.writeString(dir.resolve("c6.csv"), "id,x\n1,2.2\n2,0.1\n").toString(),
                "--table", "gg", "--schema", "x DECIMAL(5,1)");
    }
}
