package dev.fdl.iceberg;

import dev.fdl.cli.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/iceberg.md end to end: versions described as Iceberg tables read by Iceberg's Java reader as fdl query reads them. */
class IcebergCliTest {
    @TempDir Path dir;

    static Path month(Path dir, String date) throws Exception {
        Path p = dir.resolve("world-cities-" + date + ".csv.gz");
        try (InputStream in = IcebergCliTest.class.getResourceAsStream("/demo/world-cities/world-cities-" + date + ".csv.gz")) {
            Files.copy(in, p, StandardCopyOption.REPLACE_EXISTING);
        }
        return p;
    }

    static Path metadata(Path root, String versionId, String schema, String table) {
        return root.resolve(IcebergMetadataWriter.metadataKey(versionId, schema, table));
    }

    /** A repository at {@code dir/repo} made with {@code fdl init --iceberg}, checked out in {@code dir/wc}; returns the working copy. */
    static Path icebergWorkingCopy(Path dir) throws Exception {
        Path wc = Files.createDirectories(dir.resolve("wc"));
        Cli.ok(dir, "init", "--iceberg", dir.resolve("repo").toString());
        Cli.ok(wc, "checkout", "--repo", dir.resolve("repo").toString());
        return wc;
    }

    private static String versionOf(Path wc, String ref) {
        try {
            return dev.fdl.util.Json.MAPPER.readTree(Cli.ok(wc, "show", "--json", ref).out()).get("id").asText();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void commitsOfARepositoryThatAsksWriteIcebergMetadataThatReadsAsFdlQueryDoes() throws Exception {
        Path root = dir.resolve("repo"), wc = icebergWorkingCopy(dir);
        String repo = root.toString();
        Cli.ok(wc, "import", month(dir, "2024-10-04").toString(), "--table", "cities", "--mode", "sync", "--key", "geonameid");
        Cli.ok(wc, "commit", "-m", "first");
        Cli.ok(wc, "tag", "m0");
        Cli.ok(wc, "import", month(dir, "2024-12-01").toString(), "--table", "cities", "--mode", "sync", "--key", "geonameid");
        Cli.ok(wc, "commit", "-m", "second");
        String first = versionOf(wc, "m0"), second = versionOf(wc, "main");
        // the tag and the synced version (a delete file of the rows the sync removed) each read as fdl query reads them
        IcebergRows.assertSame(metadata(root, first, "main", "cities"), wc, repo, "m0", "cities");
        IcebergRows.assertSame(metadata(root, second, "main", "cities"), wc, repo, "main", "cities");
        assertThat(IcebergRows.table(metadata(root, second, "main", "cities")).currentSnapshot().summary())
                .containsEntry("total-delete-files", "1");
        // written again: the version's files are kept as they are
        assertThat(Cli.ok(wc, "iceberg", "m0").out()).contains("main.cities: ").contains("(there already)");
        assertThat(Cli.ok(wc, "verify").out()).isNotEmpty();
        String url = metadata(root, first, "main", "cities").toUri().toString();
        assertThat(Cli.ok(wc, "attach", "--iceberg", "m0").out()).contains("iceberg_scan('" + url + "')")
                .contains("StaticTable.from_metadata(\"" + url + "\")").contains("register_table(schema_name => 'main', table_name => 'cities'");
        // verify parses each metadata file
        Files.writeString(metadata(root, first, "main", "cities"), "{}");
        Cli.Result verify = Cli.in(wc, "verify");
        assertThat(verify.exit()).as(verify.toString()).isEqualTo(1);
        assertThat(verify.out() + verify.err()).contains(IcebergMetadataWriter.metadataKey(first, "main", "cities")).contains("is not Iceberg table metadata");
    }

    @Test
    void badInputIsRefusedAndChangesNothing() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        Path root = dir.resolve("repo");
        String repo = root.toString();
        Path huge = dir.resolve("huge.parquet");
        IcebergTypesCliTest.duck("COPY (SELECT INTERVAL 1 DAY AS span, 'a' AS name) TO '" + huge + "' (FORMAT parquet)");
        Cli.ok(wc, "import", month(dir, "2024-10-04").toString(), "--table", "cities");
        Cli.ok(wc, "import", huge.toString(), "--table", "huge");
        Cli.ok(wc, "commit", "-m", "an INTERVAL column");
        String id = versionOf(wc, "main");
        Cli.Result refused = Cli.in(wc, "iceberg");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).contains("table main.huge").contains("column span").contains("'interval'");
        assertThat(root.resolve("versions/" + id + "/iceberg")).doesNotExist();
        Cli.Result attach = Cli.in(wc, "attach", "--iceberg");
        assertThat(attach.exit()).isEqualTo(4);
        assertThat(attach.err()).contains("has no Iceberg metadata").contains("fdl iceberg --enable");
        // a location that is no URL: a usage error, nothing written
        Cli.Result notUrl = Cli.in(wc, "iceberg", "--location", "mirror/folder", "--out", dir.resolve("out").toString());
        assertThat(notUrl.exit()).isEqualTo(2);
        assertThat(notUrl.err()).contains("--location mirror/folder is not a URL");
        assertThat(Cli.in(wc, "iceberg", "--published-at", "not a url").exit()).isEqualTo(2);
        assertThat(Files.readString(root.resolve("fdl.json"))).doesNotContain("iceberg");
        // a commit of a repository that asks, refused before version.json: the branch stays where it was
        Cli.ok(wc, "iceberg", "--enable");
        Cli.ok(wc, "import", huge.toString(), "--table", "huge", "--mode", "append");
        Cli.Result commit = Cli.in(wc, "commit", "-m", "again");
        assertThat(commit.exit()).as(commit.toString()).isEqualTo(1);
        assertThat(versionOf(wc, "main")).isEqualTo(id);
    }
}
