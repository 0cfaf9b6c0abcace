package dev.fdl.cli;

import static org.assertj.core.api.Assertions.assertThat;
import dev.fdl.ducklake.catalog.CatalogInspector;

import dev.fdl.workingcopy.WorkingCopy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The branch format switch (SPEC.md section 3, {@code ducklake.format}): a working copy keeps its
 * branch's DuckLake format, {@code fdl checkout --ducklake-format 1.1} moves it explicitly, the next
 * commit records it, {@code fdl log} marks where it changed, and an unknown format or a downgrade is
 * refused with exit 2 and changes nothing.
 */
class DuckLakeFormatCliTest {
    @TempDir Path dir;

    private void load(Path in, int rows) throws IOException {
        StringBuilder sb = new StringBuilder("id,name\n");
        for (int i = 1; i <= rows; i++) sb.append(i).append(",n").append(i).append('\n');
        Path f = Files.writeString(dir.resolve("rows-" + rows + ".csv"), sb);
        Cli.ok(in, "import", f.toString(), "--table", "t", "--mode", "replace");
    }

    private static String commit(Path in, String message) {
        String out = Cli.ok(in, "commit", "-m", message, "--json").out();
        return out.replaceAll("(?s).*?\"id\" : \"([0-9a-f-]{36})\".*", "$1");
    }

    private static String format(Path workingCopy) {
        try (CatalogInspector c = CatalogInspector.open(WorkingCopy.find(workingCopy).orElseThrow().catalog())) {
            return c.formatVersion();
        }
    }

    private static String recordedFormat(Path root, String version) throws IOException {
        String json = Files.readString(root.resolve("versions/" + version + "/version.json"));
        return json.replaceAll("(?s).*\"ducklake\"\\s*:\\s*\\{[^}]*\"format\"\\s*:\\s*\"([^\"]+)\".*", "$1");
    }

    @Test
    void aBranchMovesTo11OnlyWhenAskedKeepsItAndLogMarksWhereItChanged() throws IOException {
        Path root = dir.resolve("repo");
        Path wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(dir, "init", root.toString());
        Cli.ok(wc, "checkout", "--repo", root.toString());
        load(wc, 3);
        String v1 = commit(wc, "first");
        assertThat(recordedFormat(root, v1)).isEqualTo("1.0");

        Cli.Result unknown = Cli.in(wc, "checkout", "--ducklake-format", "1.2");
        assertThat(unknown.exit()).as(unknown.toString()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown DuckLake format '1.2'");
        assertThat(format(wc)).isEqualTo("1.0");

        load(wc, 4); // an uncommitted snapshot survives the in-place upgrade
        assertThat(Cli.ok(wc, "checkout", "--ducklake-format", "1.1").out()).contains("DuckLake format 1.1");
        assertThat(format(wc)).isEqualTo("1.1");
        String v2 = commit(wc, "now 1.1");
        assertThat(recordedFormat(root, v2)).isEqualTo("1.1");

        Path wc2 = Files.createDirectories(dir.resolve("wc2"));
        Cli.ok(wc2, "checkout", "--repo", root.toString());
        assertThat(format(wc2)).as("checkout of a 1.1 version gives a 1.1 working catalog").isEqualTo("1.1");
        assertThat(Cli.ok(wc2, "query", "--csv", "SELECT count(*) AS n FROM t").out()).isEqualTo("n\n4\n");
        load(wc2, 5);
        String v3 = commit(wc2, "still 1.1");
        assertThat(recordedFormat(root, v3)).isEqualTo("1.1");

        Cli.Result down = Cli.in(wc2, "checkout", "--ducklake-format", "1.0");
        assertThat(down.exit()).as(down.toString()).isEqualTo(2);
        assertThat(down.err()).contains("downgrade");
        assertThat(format(wc2)).isEqualTo("1.1");
        Cli.Result downByCheckout = Cli.in(wc2, "checkout", "main", "--ducklake-format", "1.0");
        assertThat(downByCheckout.exit()).as(downByCheckout.toString()).isEqualTo(2);
        assertThat(format(wc2)).isEqualTo("1.1");

        List<String> log = Cli.ok(wc2, "log", "--oneline").out().lines().filter(l -> !l.startsWith("#")).toList();
        assertThat(log).hasSize(3);
        assertThat(log.get(0)).startsWith(v3.substring(0, 13)).doesNotContain("DuckLake");
        assertThat(log.get(1)).startsWith(v2.substring(0, 13)).contains("[DuckLake 1.0 -> 1.1]");
        assertThat(log.get(2)).startsWith(v1.substring(0, 13)).doesNotContain("DuckLake");
        assertThat(Cli.ok(wc2, "log").out()).contains("DuckLake:  format 1.1 (was 1.0): DuckDB 1.5 readers cannot open this version");
        assertThat(Cli.ok(wc2, "log", "--json").out()).contains("\"ducklake_format_changed_from\" : \"1.0\"");
    }
}
