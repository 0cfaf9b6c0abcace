package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.util.Json;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The description (dataset.json) through {@code fdl pull} and {@code fdl merge}, as git carries a
 * tracked file: a file the working copy did not edit becomes the incoming version's, one only the
 * working copy edited stays, and both edited merge per top-level key (a key both changed
 * differently keeps the working copy's, with a warning). After a pull, status calls the
 * description modified only for the working copy's own edits; after a merge, the merged
 * description is staged (modified, published by the next commit) and {@code merge --abort} puts
 * the working copy's back.
 */
class DescriptionThroughPullAndMergeCliTest {
    @TempDir Path dir;
    Path root, wc, second;
    int files;

    private Path csv(String content) throws IOException {
        return Files.writeString(dir.resolve("f" + (files++) + ".csv"), content);
    }

    private void sync(Path w, String content) throws IOException {
        Cli.ok(w, "import", csv(content).toString(), "--table", "t", "--mode", "sync", "--key", "k");
    }

    private static ObjectNode description(Path w) throws IOException {
        return (ObjectNode) Json.MAPPER.readTree(Files.readAllBytes(w.resolve("dataset.json")));
    }

    private static void edit(Path w, String key, String value) throws IOException {
        ObjectNode d = description(w);
        d.put(key, value);
        Files.write(w.resolve("dataset.json"), Json.bytes(d));
    }

    @BeforeEach
    void twoWorkingCopies() throws IOException {
        root = dir.resolve("repo");
        wc = Cli.newWorkingCopy(dir);
        sync(wc, "k,a\n1,10\n2,20\n");
        Cli.ok(wc, "commit", "-m", "base");
        second = Files.createDirectories(dir.resolve("second"));
        Cli.ok(second, "checkout", "--repo", root.toString());
    }

    private void branchRenamesTheDatasetAndAddsARow() throws IOException {
        edit(second, "title", "Renamed on the branch");
        sync(second, "k,a\n1,10\n2,20\n3,30\n");
        Cli.ok(second, "commit", "-m", "the branch renames the dataset");
    }

    @Test
    void aCleanPullLeavesNoDescriptionChangeBehind() throws IOException {
        sync(second, "k,a\n1,10\n2,20\n3,30\n");
        Cli.ok(second, "commit", "-m", "the branch adds a row");
        sync(wc, "k,a\n1,11\n2,20\n");
        Cli.ok(wc, "pull");
        assertThat(Cli.ok(wc, "status").out()).doesNotContain("Description:");
        assertThat(Json.MAPPER.readTree(Cli.ok(wc, "status", "--json").out()).path("description").asText()).isEqualTo("unchanged");
    }

    @Test
    void aPullTakesTheBranchsDescriptionAndKeepsTheWorkingCopysOwnEdits() throws IOException {
        branchRenamesTheDatasetAndAddsARow();
        edit(wc, "description", "Written in the working copy");
        sync(wc, "k,a\n1,11\n2,20\n");
        Cli.Result pulled = Cli.ok(wc, "pull");
        assertThat(pulled.err()).doesNotContain("warning");
        assertThat(description(wc).path("title").asText()).isEqualTo("Renamed on the branch");
        assertThat(description(wc).path("description").asText()).isEqualTo("Written in the working copy");
        assertThat(Cli.ok(wc, "status").out()).contains("Description: dataset.json modified (published by the next commit)");
        Cli.ok(wc, "commit", "-m", "mine");
        assertThat(description(wc).path("title").asText()).isEqualTo("Renamed on the branch");
        assertThat(description(wc).path("description").asText()).isEqualTo("Written in the working copy");
        assertThat(Cli.ok(wc, "status").out()).doesNotContain("Description:");
    }

    @Test
    void aPullWithoutSnapshotsKeepsTheWorkingCopysDescriptionEdits() throws IOException {
        branchRenamesTheDatasetAndAddsARow();
        edit(wc, "description", "Written in the working copy");
        Cli.ok(wc, "pull");
        assertThat(description(wc).path("title").asText()).isEqualTo("Renamed on the branch");
        assertThat(description(wc).path("description").asText()).isEqualTo("Written in the working copy");
        assertThat(Cli.ok(wc, "status").out()).contains("Description: dataset.json modified (published by the next commit)");
        Cli.ok(wc, "commit", "-m", "describe it");
        assertThat(description(wc).path("description").asText()).isEqualTo("Written in the working copy");
    }

    @Test
    void aKeyBothChangedDifferentlyKeepsTheWorkingCopysWithAWarning() throws IOException {
        edit(second, "title", "Theirs");
        Cli.ok(second, "commit", "-m", "the branch's title");
        edit(wc, "title", "Mine");
        sync(wc, "k,a\n1,11\n2,20\n");
        Cli.Result pulled = Cli.ok(wc, "pull");
        assertThat(pulled.err()).contains("warning: the description: both the working copy and version").contains("changed title differently");
        assertThat(description(wc).path("title").asText()).isEqualTo("Mine");
    }

    private void stagingRenamesTheDatasetAndMainChangesARow() throws IOException {
        Cli.ok(second, "checkout", "-b", "staging");
        edit(second, "title", "From staging");
        sync(second, "k,a\n1,10\n2,20\n3,30\n");
        Cli.ok(second, "commit", "-m", "staging renames the dataset");
        sync(wc, "k,a\n1,11\n2,20\n");
        Cli.ok(wc, "commit", "-m", "main changes a row");
    }

    @Test
    void aMergeStagesTheMergedDescriptionAndAbortPutsItBack() throws IOException {
        stagingRenamesTheDatasetAndMainChangesARow();
        String before = Files.readString(wc.resolve("dataset.json"));
        Cli.ok(wc, "merge", "staging");
        assertThat(description(wc).path("title").asText()).isEqualTo("From staging");
        assertThat(Cli.ok(wc, "status").out()).contains("Description: dataset.json modified (published by the next commit)");
        Cli.ok(wc, "merge", "--abort");
        assertThat(Files.readString(wc.resolve("dataset.json"))).isEqualTo(before);
        assertThat(Cli.ok(wc, "status").out()).doesNotContain("Description:");
        Cli.ok(wc, "merge", "staging");
        Cli.ok(wc, "commit");
        assertThat(description(wc).path("title").asText()).isEqualTo("From staging");
        assertThat(Cli.ok(wc, "status").out()).doesNotContain("Description:");
    }

    @Test
    void abortOfAMergeStartedWithoutADescriptionLeavesNone() throws IOException {
        stagingRenamesTheDatasetAndMainChangesARow();
        Files.delete(wc.resolve("dataset.json"));
        String status = Cli.ok(wc, "status", "--json").out();
        Cli.ok(wc, "merge", "staging");
        assertThat(description(wc).path("title").asText()).isEqualTo("From staging");
        Cli.ok(wc, "merge", "--abort");
        assertThat(wc.resolve("dataset.json")).doesNotExist();
        assertThat(wc.resolve("datapackage.json")).doesNotExist();
        assertThat(Cli.ok(wc, "status", "--json").out()).isEqualTo(status);
        // a later merge from a working copy with a description puts that one back on abort
        Files.writeString(wc.resolve("dataset.json"), "{\"title\": \"Mine\"}\n");
        Cli.ok(wc, "merge", "staging");
        Cli.ok(wc, "merge", "--abort");
        assertThat(Files.readString(wc.resolve("dataset.json"))).isEqualTo("{\"title\": \"Mine\"}\n");
    }

    @Test
    void aFastForwardMergeMovesTheWorkingCopyAndCarriesItsOwnDescriptionEdits() throws IOException {
        Cli.ok(second, "checkout", "-b", "topic");
        sync(second, "k,a\n1,10\n2,20\n3,30\n");
        Cli.ok(second, "commit", "-m", "the topic adds a row");
        edit(wc, "description", "Written in the working copy");

        Cli.Result merged = Cli.ok(wc, "merge", "topic");
        assertThat(merged.out()).contains("Fast-forward");
        String status = Cli.ok(wc, "status").out();
        assertThat(status).doesNotContain("has moved").contains("Description: dataset.json modified");
        assertThat(description(wc).path("description").asText()).isEqualTo("Written in the working copy");
        assertThat(description(wc).path("resources").get(0).path("rows").asLong()).as("the branch's rows, not the base's").isEqualTo(3);
        Cli.ok(wc, "commit", "-m", "describe");
        assertThat(Cli.ok(wc, "status").out()).doesNotContain("Description:").contains("Nothing to commit");
    }

    @Test
    void rowCountsBothSidesChangedAreNoDescriptionConflict() throws IOException {
        Cli.ok(second, "checkout", "-b", "topic");
        sync(second, "k,a\n1,10\n2,20\n3,30\n");
        Cli.ok(second, "commit", "-m", "the topic adds a row");
        sync(wc, "k,a\n1,10\n2,20\n4,40\n5,50\n");
        Cli.ok(wc, "commit", "-m", "main adds two rows");

        Cli.Result merged = Cli.ok(wc, "merge", "topic");
        assertThat(merged.err()).doesNotContain("warning: the description");
        Cli.ok(wc, "commit", "-m", "merge");
        assertThat(description(wc).path("resources").get(0).path("rows").asLong()).as("refilled from the merged table").isEqualTo(5);
        assertThat(Cli.ok(wc, "status").out()).doesNotContain("Description:");
    }
}
