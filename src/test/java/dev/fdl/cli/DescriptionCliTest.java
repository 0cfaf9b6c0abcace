package dev.fdl.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 17: dataset.json is carried between versions like a file git tracks. */
class DescriptionCliTest {
    static final String DESCRIBED = """
            {"name": "towns", "title": "Towns of somewhere",
             "licenses": [{"name": "CC-BY-4.0", "path": "https://creativecommons.org/licenses/by/4.0/"}],
             "resources": [{"name": "t", "description": "one row per town"}]}
            """;

    @TempDir Path dir;
    Path root, wc, other;

    @BeforeEach
    void firstVersionWithADescription() throws IOException {
        root = dir.resolve("repo");
        wc = Files.createDirectories(dir.resolve("wc"));
        other = Files.createDirectories(dir.resolve("other"));
        Cli.ok(dir, "init", root.toString());
        Cli.ok(wc, "checkout", "--repo", root.toString());
        load(wc, "id,name\n1,a\n");
        Files.writeString(wc.resolve("dataset.json"), DESCRIBED);
        Cli.ok(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "described");
    }

    void load(Path in, String csv) throws IOException {
        Path f = Files.writeString(dir.resolve("load-" + csv.hashCode() + ".csv"), csv);
        Cli.ok(in, "import", f.toString(), "--table", "t", "--mode", "replace");
    }

    String published() throws IOException {
        String id = Cli.ok(dir, "show", "--repo", root.toString(), "--json").out()
                .replaceAll("(?s).*?\"id\" : \"([0-9a-f-]{36})\".*", "$1");
        return Files.readString(root.resolve("versions/" + id + "/dataset.json"));
    }

    long versionFolders() throws IOException {
        try (Stream<Path> s = Files.list(root.resolve("versions"))) {
            return s.count();
        }
    }

    @Test
    void checkoutPlacesTheVersionsDescriptionAndStatusShowsEdits() throws IOException {
        Cli.ok(other, "checkout", "--repo", root.toString());
        assertThat(other.resolve("dataset.json")).hasContent(published());
        assertThat(Files.readString(other.resolve("dataset.json"))).contains("Towns of somewhere").contains("CC-BY-4.0");
        assertThat(Cli.ok(other, "status").out()).doesNotContain("Description:");
        assertThat(Cli.ok(wc, "status").out()).as("commit wrote the filled file back").doesNotContain("Description:");
        Files.writeString(other.resolve("dataset.json"), Files.readString(other.resolve("dataset.json")).replace("Towns of", "Villages of"));
        assertThat(Cli.ok(other, "status").out()).contains("Description: dataset.json modified");
        assertThat(Cli.ok(other, "status", "--json").out()).contains("\"description\" : \"modified\"");
    }

    @Test
    void commitCarriesTheDescriptionForwardEvenWhenColumnsChange() throws IOException {
        Cli.ok(other, "checkout", "--repo", root.toString());
        load(other, "id,name,population\nx1,a,10\n");  // id becomes VARCHAR, a column is added
        Cli.ok(other, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "ids are text now");
        String ds = published();
        assertThat(ds).contains("Towns of somewhere").contains("CC-BY-4.0").contains("one row per town")
                .contains("\"ducklake_type\" : \"VARCHAR\"").contains("population");
        load(other, "code\nz\n");  // every described column gone: only what fdl filled referred to them
        Cli.ok(other, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "one column");
        assertThat(published()).contains("Towns of somewhere").doesNotContain("population");
    }

    @Test
    void aCommitThatDropsTheLicenseOrTitleIsRefusedUnlessAllowed() throws IOException {
        load(wc, "id,name\n1,a\n2,b\n");
        Files.writeString(wc.resolve("dataset.json"), "{\"name\": \"towns\"}\n");
        long before = versionFolders();
        Cli.Result r = Cli.in(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "lost it");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("title 'Towns of somewhere'").contains("licenses").contains("CC-BY-4.0")
                .contains("--allow-description-loss").contains("Nothing was uploaded");
        assertThat(versionFolders()).isEqualTo(before);
        Files.delete(wc.resolve("dataset.json"));
        assertThat(Cli.ok(wc, "status").out()).contains("Description: dataset.json deleted");
        assertThat(Cli.in(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "lost it").exit()).isEqualTo(1);
        Cli.ok(wc, "commit", "--allow-drop", "--allow-schema-change", "--allow-shrink", "-m", "dropped on purpose", "--allow-description-loss");
        assertThat(published()).doesNotContain("Towns of somewhere");
    }

    @Test
    void checkoutDoesNotOverwriteAnEditedDescription() throws IOException {
        Files.writeString(other.resolve("dataset.json"), "{\"name\": \"mine\"}\n");
        Cli.Result r = Cli.in(other, "checkout", "--repo", root.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("dataset.json").contains("--force");
        assertThat(other.resolve("dataset.json")).hasContent("{\"name\": \"mine\"}\n");
        Cli.ok(other, "checkout", "--repo", root.toString(), "--force");
        assertThat(Files.readString(other.resolve("dataset.json"))).contains("Towns of somewhere");
    }
}
