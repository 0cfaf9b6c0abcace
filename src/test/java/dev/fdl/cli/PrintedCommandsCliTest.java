package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A command fdl prints for the user to run works when pasted as printed: each message is
 * triggered, its indented command lines taken from it, and run, a shell command through
 * {@code bash -c}, an {@code fdl …} command split into words by bash and run through fdl's Main.
 */
class PrintedCommandsCliTest {
    @TempDir Path dir;

    /** The lines of {@code message} indented by two spaces: the commands it offers, in order. */
    private static List<String> commands(String message) {
        return message.lines().filter(l -> l.startsWith("  ") && !l.isBlank()).map(String::trim).toList();
    }

    /** Runs {@code line} in {@code cwd} as the user would paste it: {@code fdl …} through Main, anything else through bash. */
    private static void paste(Path cwd, String line) throws IOException, InterruptedException {
        if (line.startsWith("fdl ")) {
            List<String> words = shellWords(cwd, line.substring(4));
            Cli.Result r = Cli.in(cwd, words.toArray(String[]::new));
            assertThat(r.exit()).as(line + "\n" + r).isZero();
            return;
        }
        Process p = new ProcessBuilder("bash", "-c", line).directory(cwd.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(line + "\n" + out).isZero();
    }

    /** {@code text} split into words by bash itself (quotes and escapes as the user's shell reads them). */
    private static List<String> shellWords(Path cwd, String text) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", "printf '%s\\0' " + text).directory(cwd.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new ArrayList<>(Arrays.asList(out.split("\0")));
    }

    private Path outsideParquet(String name) throws Exception {
        Path f = dir.resolve("files with space").resolve(name);
        java.nio.file.Files.createDirectories(f.getParent());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("COPY (SELECT range AS id FROM range(3)) TO '" + f.toString().replace("'", "''") + "' (FORMAT parquet, FIELD_IDS {id: 1})");
        }
        return f;
    }

    @Test
    void addFilesOfAFileOutsideTheDataFolder() throws Exception {
        Path wc = Cli.newWorkingCopy(dir.resolve("one"));
        Path f = outsideParquet("it's.parquet");
        Cli.Result refused = Cli.in(wc, "add-files", f.toString(), "--table", "my t", "--create");
        assertThat(refused.exit()).isEqualTo(ExitCodes.FAILURE);
        List<String> printed = commands(refused.err());
        assertThat(printed).hasSize(3);
        assertThat(printed.get(0)).contains("mkdir -p").contains("cp ");
        assertThat(printed.get(1)).startsWith("fdl add-files").contains("'my t'");
        assertThat(printed.get(2)).startsWith("fdl import");
        paste(wc, printed.get(0));
        paste(wc, printed.get(1));
        assertThat(Cli.ok(wc, "query", "--working", "SELECT count(*) AS n FROM \"my t\"", "--csv").out()).isEqualTo("n\n3\n");
        // the other way out, in a working copy of its own
        Path other = Cli.newWorkingCopy(dir.resolve("two"));
        paste(other, printed.get(2));
        assertThat(Cli.ok(other, "query", "--working", "SELECT count(*) AS n FROM \"my t\"", "--csv").out()).isEqualTo("n\n3\n");
    }

    @Test
    void addFilesToAnExistingTable() throws Exception {
        Path wc = Cli.newWorkingCopy(dir.resolve("one"));
        Path f = outsideParquet("more.parquet");
        Cli.ok(wc, "import", f.toString(), "-t", "t");
        List<String> printed = commands(Cli.in(wc, "add-files", f.toString(), "--table", "t").err());
        assertThat(printed).hasSize(3);
        paste(wc, printed.get(0));
        paste(wc, printed.get(1));
        assertThat(Cli.ok(wc, "query", "--working", "SELECT count(*) AS n FROM t", "--csv").out()).isEqualTo("n\n6\n");
        paste(wc, printed.get(2));
        assertThat(Cli.ok(wc, "query", "--working", "SELECT count(*) AS n FROM t", "--csv").out()).isEqualTo("n\n9\n");
    }
}
