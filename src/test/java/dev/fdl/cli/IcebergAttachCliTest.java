package dev.fdl.cli;

import dev.fdl.iceberg.IcebergMetadataWriter;
import dev.fdl.serve.RepoServer;
import dev.fdl.site.SiteOptions;
import dev.fdl.store.LocalStore;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.fdl.cli.Pasted.paste;
import static dev.fdl.cli.Pasted.printed;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/iceberg.md, {@code fdl attach --iceberg} and {@code fdl iceberg} as a reader and a writer
 * meet them: a repository served over HTTP (which cannot be listed) has its version's tables found
 * at their keys; each reader's group of lines starts as the reader needs (the {@code spark-sql}
 * command, {@code INSTALL iceberg; LOAD iceberg;}, pyiceberg's import); a version without metadata
 * says to write it where the repository is written; versions are named as {@code fdl log} names
 * them; metadata written for another root says so, and the copy it offers names the new root.
 */
class IcebergAttachCliTest {
    @TempDir Path dir;

    private static String commit(Path wc, String message) throws IOException {
        return Json.MAPPER.readTree(Cli.ok(wc, "commit", "-m", message, "--json").out()).get("id").asText();
    }

    @Test
    void attachOverHttpFindsTheTablesAtTheirKeysAndPrintsWhatEachReaderRuns() throws Exception {
        Path wc = Cli.newWorkingCopy(dir), root = dir.resolve("repo");
        Cli.ok(wc, "import", Files.writeString(dir.resolve("t.csv"), "id\n1\n2\n").toString(), "-t", "t");
        String one = commit(wc, "one"); // no Iceberg metadata
        Cli.ok(wc, "iceberg", "--enable");
        Cli.ok(wc, "import", Files.writeString(dir.resolve("u.csv"), "id\n3\n").toString(), "-t", "u");
        String two = commit(wc, "two");
        try (LocalStore store = new LocalStore(root); RepoServer server = RepoServer.start(store, SiteOptions.defaults(), "127.0.0.1", 0)) {
            String url = server.url().toString();
            Cli.Result attach = Cli.ok(wc, "attach", "--iceberg", two, "--repo", url);
            List<String> lines = attach.out().lines().toList();
            String t = IcebergMetadataWriter.metadataKey(two, "main", "t"), u = IcebergMetadataWriter.metadataKey(two, "main", "u");
            assertThat(lines).contains("SELECT * FROM iceberg_scan('" + url + t + "');", "SELECT * FROM iceberg_scan('" + url + u + "');");
            // each group runs as pasted: the shell line that starts Spark, DuckDB's extension, pyiceberg's import
            assertThat(lines).contains("spark-sql --packages org.apache.iceberg:iceberg-spark-runtime-4.1_2.13:1.12.0"
                    + " --conf spark.sql.catalog.fdl=org.apache.iceberg.spark.SparkCatalog --conf spark.sql.catalog.fdl.type=hadoop"
                    + " --conf spark.sql.catalog.fdl.warehouse=" + url + "versions/" + two + "/iceberg/");
            assertThat(lines.indexOf("INSTALL iceberg;")).isPositive().isLessThan(lines.indexOf("LOAD iceberg;"));
            assertThat(lines.indexOf("LOAD iceberg;")).isLessThan(lines.indexOf("SELECT * FROM iceberg_scan('" + url + t + "');"));
            int from = lines.indexOf("from pyiceberg.table import StaticTable");
            assertThat(from).isPositive().isEqualTo(lines.indexOf(lines.stream().filter(l -> l.startsWith("StaticTable.")).findFirst().orElseThrow()) - 1);
            assertThat(lines).noneMatch(l -> l.startsWith("-- pyiceberg") || l.startsWith("-- Spark"));
            // Snowflake's path is relative to the external volume over the repository's root
            assertThat(lines).contains("CREATE ICEBERG TABLE main_t EXTERNAL_VOLUME = '<volume>' CATALOG = '<integration>' METADATA_FILE_PATH = '" + t + "';");
            // the metadata names the folder's file: URLs: a reader over HTTP is told, with the copy that names the server's
            String copy = printed(attach.err(), "names its files under file:.*write a copy with (fdl iceberg .*--location \\S+ --out <folder> \\S+)$");
            paste(wc, copy.replace("<folder>", dir.resolve("copy").toString()));
            assertThat(Files.readString(dir.resolve("copy").resolve(t))).contains("\"location\":\"" + url + "versions/" + two + "/iceberg/main/t\"")
                    .doesNotContain("file:");

            // a version without metadata: no listing, and the advice is to write it where the repository is written
            Cli.Result none = Cli.in(wc, "attach", "--iceberg", one, "--repo", url);
            assertThat(none.exit()).as(none.toString()).isEqualTo(ExitCodes.NOT_FOUND);
            assertThat(none.err()).contains("version " + one + " has no Iceberg metadata at " + url + "versions/" + one + "/iceberg/")
                    .doesNotContain("list");
            paste(wc, printed(none.err(), "there, run (fdl iceberg \\S+) "));
            assertThat(Cli.ok(wc, "attach", "--iceberg", one, "--repo", url).out()).contains("iceberg_scan('" + url + IcebergMetadataWriter.metadataKey(one, "main", "t") + "')");
        }
    }

    /**
     * From a folder outside any working copy, with --repo: the iceberg that writes a version's
     * missing metadata and the copy the warning offers for a folder served over HTTP (and the one
     * {@code fdl iceberg} offers once published there) run as pasted there; the readers' groups are parted by empty lines, each comment in its line's language.
     */
    @Test
    void hintsRunAsPastedOutsideAWorkingCopyAndCommentsAreInTheirLinesLanguage() throws Exception {
        Path wc = Cli.newWorkingCopy(dir), root = dir.resolve("repo"), elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Cli.ok(wc, "import", Files.writeString(dir.resolve("t.csv"), "id\n1\n2\n").toString(), "-t", "t");
        String one = commit(wc, "one"); // no Iceberg metadata
        Cli.Result none = Cli.in(elsewhere, "attach", "--iceberg", one, "--repo", root.toString());
        assertThat(none.exit()).as(none.toString()).isEqualTo(ExitCodes.NOT_FOUND);
        paste(elsewhere, printed(none.err(), "write it with (fdl iceberg [^,]+),"));
        paste(elsewhere, printed(none.err(), "have every commit write it with (fdl iceberg .*--enable)$"));
        assertThat(Cli.ok(elsewhere, "iceberg", "--enable", "--repo", root.toString()).out()).contains("already writes");
        try (LocalStore store = new LocalStore(root); RepoServer server = RepoServer.start(store, SiteOptions.defaults(), "127.0.0.1", 0)) {
            String url = server.url().toString();
            Cli.Result attach = Cli.ok(elsewhere, "attach", "--iceberg", one, "--repo", url);
            String copy = printed(attach.err(), "write a copy with (fdl iceberg .* --out <folder> \\S+)$");
            paste(elsewhere, copy.replace("<folder>", dir.resolve("copy").toString()));
            assertThat(Files.readString(dir.resolve("copy").resolve(IcebergMetadataWriter.metadataKey(one, "main", "t"))))
                    .contains("\"location\":\"" + url + "versions/" + one + "/iceberg/main/t\"");
            assertCommentsInTheirLinesLanguage(attach.out());

            // fdl iceberg --repo says the same of metadata written for the folder, with a copy that runs there too
            Cli.ok(elsewhere, "iceberg", "--published-at", url, "--repo", root.toString());
            String again = Cli.ok(elsewhere, "iceberg", one, "--repo", root.toString()).out();
            paste(elsewhere, printed(again, "write a copy with (fdl iceberg .* --out <folder> \\S+)\\)").replace("<folder>", dir.resolve("copy2").toString()));
            assertThat(dir.resolve("copy2").resolve(IcebergMetadataWriter.metadataKey(one, "main", "t"))).exists();
        }
    }

    /**
     * Fails unless {@code printed} is five groups parted by empty lines (Spark, Trino, DuckDB,
     * pyiceberg, Snowflake) whose comments, whole-line or trailing, are in the language their line
     * runs in: the shell up to and with Spark's {@code spark-sql} line, Python in the pyiceberg
     * group, SQL elsewhere ({@code #} in the shell and Python, {@code --} in SQL).
     */
    private static void assertCommentsInTheirLinesLanguage(String printed) {
        List<List<String>> groups = java.util.Arrays.stream(printed.strip().split("\n\\s*\n")).map(g -> g.lines().toList()).toList();
        assertThat(groups).as(printed).hasSize(5);
        java.util.regex.Pattern comment = java.util.regex.Pattern.compile("^(#|--) |\\s{2}(#|--) ");
        for (List<String> group : groups) {
            boolean python = group.stream().anyMatch(l -> l.startsWith("from pyiceberg"));
            int sparkSql = group.indexOf(group.stream().filter(l -> l.startsWith("spark-sql ")).findFirst().orElse(null));
            for (int i = 0; i < group.size(); i++) {
                String marker = python || i <= sparkSql ? "#" : "--";
                java.util.regex.Matcher m = comment.matcher(group.get(i));
                if (m.find()) assertThat(m.group(1) != null ? m.group(1) : m.group(2)).as(group.get(i)).isEqualTo(marker);
            }
        }
    }

    @Test
    void versionsAreNamedAsLogNamesThemAndMetadataForAnotherRootSaysSo() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Cli.ok(wc, "import", Files.writeString(dir.resolve("t.csv"), "id\n1\n2\n").toString(), "-t", "t");
        String one = commit(wc, "one");
        Cli.ok(wc, "tag", "v1");
        Cli.ok(wc, "import", Files.writeString(dir.resolve("u.csv"), "id\n3\n").toString(), "-t", "u");
        String two = commit(wc, "two");
        Cli.ok(wc, "import", Files.writeString(dir.resolve("w.csv"), "id\n4\n").toString(), "-t", "w");
        String three = commit(wc, "three");
        Cli.ok(wc, "branch", "old", two);
        String all = Cli.ok(wc, "iceberg", "--all").out();
        assertThat(all).contains("Version " + one + " (tag: v1): 1 Iceberg table(s)", "Version " + two + " (old): 2 Iceberg table(s)",
                "Version " + three + " (HEAD -> main): 3 Iceberg table(s)").doesNotContain("(" + one + ")");
        assertThat(Cli.ok(wc, "iceberg", "v1").out()).contains("Version " + one + " (v1): ");
        assertThat(Cli.ok(wc, "attach", one).out()).startsWith("-- version " + one + " (tag: v1), ");
        // in a folder too, Snowflake's path is the key under the repository's root, which its external volume is over
        assertThat(Cli.ok(wc, "attach", "--iceberg", "v1").out()).contains("METADATA_FILE_PATH = '"
                + IcebergMetadataWriter.metadataKey(one, "main", "t") + "';");

        // a root that is no URL is refused naming the option it was given with
        Cli.Result badRoot = Cli.in(wc, "attach", "--iceberg", "--root-url", "mirror/folder");
        assertThat(badRoot.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(badRoot.err()).contains("--root-url mirror/folder is not a URL");
        Cli.Result badPublished = Cli.in(wc, "iceberg", "--published-at", "mirror/folder");
        assertThat(badPublished.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(badPublished.err()).contains("--published-at mirror/folder is not a URL");

        String published = "https://data.example.org/cities/";
        assertThat(Cli.ok(wc, "iceberg", "--published-at", published).out()).contains("versions already described keep the root they were written with");
        String again = Cli.ok(wc, "iceberg", two).out();
        assertThat(again).contains("(there already, naming its files under file:").contains("for readers at " + published);
        paste(wc, printed(again, "write a copy with (fdl iceberg --location \\S+ --out <folder> \\S+)\\)").replace("<folder>", dir.resolve("copy").toString()));
        assertThat(Files.readString(dir.resolve("copy").resolve(IcebergMetadataWriter.metadataKey(two, "main", "u"))))
                .contains("\"location\":\"" + published + "versions/" + two + "/iceberg/main/u\"");
    }
}
