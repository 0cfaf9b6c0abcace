package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.FdlException;
import dev.fdl.util.JsonRead;
import dev.fdl.repo.RepoFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetentionCommandsTest {
    @TempDir Path tmp;
    RepoFixture fx;
    String out, err;

    @BeforeEach
    void setUp() {
        fx = RepoFixture.create(tmp);
    }

    int fdl(String... args) {
        StringWriter o = new StringWriter(), e = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(o));
        cl.setErr(new PrintWriter(e));
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--repo");
        all.add(fx.root.toString());
        int code = cl.execute(all.toArray(String[]::new));
        out = o.toString();
        err = e.toString();
        return code;
    }

    @Test
    void aShortGracePeriodWarnsThatUncommittedImportsLoseTheirDataFiles() {
        fx.copyFixtureData("towns", RepoFixture.OLD);
        fx.commit("main", fx.fixtureCatalog("towns"));
        String cache = tmp.resolve("cache").toString();

        assertThat(fdl("gc", "--grace", "0", "--cache-dir", cache, "--dry-run")).as(() -> err).isZero();
        assertThat(err).contains("warning: a grace period of", "would delete the data files of imports that are not committed yet");
        assertThat(fdl("gc", "--grace", "59m", "--cache-dir", cache)).isZero();
        assertThat(err).contains("deletes the data files of imports that are not committed yet");

        assertThat(fdl("gc", "--grace", "1h", "--cache-dir", cache)).isZero();
        assertThat(err).doesNotContain("warning");
        assertThat(fdl("gc", "--cache-dir", cache)).isZero();
        assertThat(err).doesNotContain("warning");
    }

    @Test
    void aBrokenRefIsReportedAndTheOtherRefsAreStillListedButGcRefuses() throws Exception {
        String v = fx.commit("main", List.of());
        fx.tag("good", v);
        java.nio.file.Files.writeString(fx.root.resolve("refs/tags/bad"), "{\"version\": \"not-a-version\"");

        assertThat(fdl("refs")).as(() -> err).isZero();
        assertThat(out).contains("main", "good").doesNotContain("bad");
        assertThat(err).contains("warning: ignoring a broken ref", "refs/tags/bad");
        assertThat(fdl("tag")).as(() -> err).isZero();
        assertThat(out).contains("good");
        assertThat(fdl("log", "--oneline")).as(() -> err).isZero();
        assertThat(out).contains("tag: good");
        assertThat(err).contains("refs/tags/bad");

        // what decides what is live must not go on without a ref
        assertThat(fdl("gc", "--cache-dir", tmp.resolve("cache").toString(), "--dry-run")).isEqualTo(1);
        assertThat(err).contains("refs/tags/bad");
    }

    @Test
    void expireKeepsTheNewestAndLogMarksTheExpired() {
        List<String> v = new ArrayList<>();
        for (int i = 0; i < 4; i++) v.add(fx.commit("main", List.of()));

        assertThat(fdl("expire", "--keep", "2", "--dry-run")).isZero();
        assertThat(out).contains("Would expire " + v.get(0), "Would expire " + v.get(1));
        assertThat(fx.exists("versions/" + v.get(0) + "/expired.json")).isFalse();

        assertThat(fdl("expire", "--keep", "2")).isZero();
        assertThat(out).contains("Expired " + v.get(0), "Expired " + v.get(1), "Expired 2 version(s); 2 in retention");
        assertThat(fdl("log", "--oneline")).isZero();
        assertThat(out.lines().filter(l -> l.contains("[expired ")).count()).isEqualTo(2);

        assertThat(fdl("expire", "--keep", "1", "--json")).isZero();
        JsonNode j = json();
        assertThat(j.get("expired")).hasSize(1);
        assertThat(j.get("expired").get(0).get("id").asText()).isEqualTo(v.get(2));
    }

    @Test
    void expireNeedsKeepAndAValidDuration() {
        assertThat(fdl("expire")).isEqualTo(ExitCodes.USAGE);
        assertThat(fdl("expire", "--keep", "1", "--older-than", "soon")).isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("invalid duration 'soon'");
    }

    @Test
    void gcDeletesUnreferencedDataAndReportsCountsAndBytesPerKind() {
        fx.copyFixtureData("towns", RepoFixture.OLD);
        fx.commit("main", fx.fixtureCatalog("towns"));
        fx.dataFile("main/towns/ducklake-orphan.parquet", RepoFixture.OLD);
        fx.dataFile("main/towns/ducklake-young.parquet", Instant.now());

        assertThat(fdl("gc", "--grace", "1d", "--cache-dir", tmp.resolve("cache").toString(), "--json")).isZero();
        JsonNode j = json();
        assertThat(j.get("live_versions").asInt()).isEqualTo(1);
        assertThat(j.get("live_file_names").asInt()).isEqualTo(3);
        assertThat(j.get("data_files").get("count").asInt()).isEqualTo(1);
        assertThat(j.get("data_files").get("bytes").asLong()).isPositive();
        assertThat(j.get("young_unreferenced_data_files").get("count").asInt()).isEqualTo(1);
        assertThat(j.get("unfinished_version_folders").get("count").asInt()).isZero();
        assertThat(fx.exists("data/main/towns/ducklake-orphan.parquet")).isFalse();
        assertThat(fx.exists("data/main/towns/ducklake-young.parquet")).isTrue();

        assertThat(fdl("gc", "--cache-dir", tmp.resolve("cache").toString())).isZero();
        assertThat(out).contains("Read 1 live version(s) (0 catalog(s) downloaded, 1 cached)", "Deleted 0 unreferenced data file(s)");
    }

    @Test
    void gcMarksAConflictLoserSaysHowToKeepItAndDeletesItAGracePeriodLater() {
        fx.copyFixtureData("towns", RepoFixture.OLD);
        String v1 = fx.commit("main", fx.fixtureCatalog("towns"));
        String lost = fx.version(java.util.List.of(v1), Instant.now(), fx.fixtureCatalog("towns"));
        fx.age("versions/" + lost + "/", RepoFixture.OLD);
        String cache = tmp.resolve("cache").toString();

        assertThat(fdl("verify", "--cache-dir", cache, "--json")).isZero();
        assertThat(json().get("unreachable_versions").asInt()).isEqualTo(1);
        List<String> before = fx.keys();
        assertThat(fdl("gc", "--grace", "1d", "--cache-dir", cache, "--dry-run")).isZero();
        assertThat(out).contains("Would mark 1 version(s) unreachable: no branch or tag reaches them any more:\n  " + lost + "\n",
                "Would delete 0 unreachable version(s)", "fdl tag <name> <version-id>");
        assertThat(fx.keys()).isEqualTo(before);

        assertThat(fdl("gc", "--grace", "1d", "--cache-dir", cache)).isZero();
        assertThat(out).contains("Marked 1 version(s) unreachable", "  " + lost, "Kept 1 unreachable version(s)",
                "marked for 1d (the first after ", "If you want to keep one, this may be a good time to do so with:\n  fdl tag <name> <version-id>");
        assertThat(fx.exists("versions/" + lost + "/version.json")).isTrue();
        assertThat(fdl("verify", "--cache-dir", cache, "--json")).isZero();
        assertThat(json().get("marked_unreachable_versions").asInt()).isEqualTo(1);

        fx.tag("keep", lost);
        assertThat(fdl("gc", "--grace", "1d", "--cache-dir", cache, "--json")).isZero();
        assertThat(json().get("unmarked_versions").get("count").asInt()).isEqualTo(1);
        assertThat(fdl("tag", "-d", "keep")).as(() -> err).isZero();
        assertThat(fdl("gc", "--grace", "1d", "--cache-dir", cache, "--json")).isZero();
        JsonNode marked = json();
        assertThat(marked.get("marked_versions").get("count").asInt()).isEqualTo(1);
        assertThat(marked.get("marked_versions").get("ids").get(0).asText()).isEqualTo(lost);
        assertThat(marked.get("unreachable_versions_kept").asInt()).isEqualTo(1);

        fx.age("versions/" + lost + "/unreachable.json", Instant.now().minus(Duration.ofDays(2)));
        assertThat(fdl("gc", "--grace", "1d", "--cache-dir", cache, "--json")).isZero();
        JsonNode j = json();
        assertThat(j.get("unreachable_versions").get("count").asInt()).isEqualTo(1);
        assertThat(j.get("unreachable_versions").get("bytes").asLong()).isPositive();
        assertThat(j.get("unreachable_versions_kept").asInt()).isZero();
        assertThat(j.get("incomplete_uploads").asInt()).isZero();
        assertThat(j.get("live_versions").asInt()).isEqualTo(1);
        assertThat(fx.keys()).noneMatch(k -> k.startsWith("versions/" + lost + "/"));
    }

    @Test
    void verifyIsCleanOnAHealthyRepositoryAndListsProblemsWithExit1() {
        fx.copyFixtureData("towns", RepoFixture.OLD);
        fx.commit("main", fx.fixtureCatalog("towns"));
        String cache = tmp.resolve("cache").toString();
        assertThat(fdl("verify", "--cache-dir", cache)).isZero();
        assertThat(out).contains("no problems");

        fx.store.delete("data/main/towns/ducklake-01a22959-f487-780c-9bbb-d3e43bb46f07.parquet");
        fx.tag("ghost", "01a22959-0000-7000-8000-000000000000");
        assertThat(fdl("verify", "--cache-dir", cache)).isEqualTo(1);
        assertThat(out).contains("data/main/towns/ducklake-01a22959-f487-780c-9bbb-d3e43bb46f07.parquet, which does not exist",
                "refs/tags/ghost: points at 01a22959-0000-7000-8000-000000000000", "2 problem(s)");
        assertThat(err).contains("verify found 2 problem(s)");

        assertThat(fdl("verify", "--cache-dir", cache, "--json")).isEqualTo(1);
        assertThat(json().get("problems")).hasSize(2);
    }

    @Test
    void durationsTakeAUnitOrIso8601() {
        assertThat(DurationConverter.parse("30d")).isEqualTo(Duration.ofDays(30));
        assertThat(DurationConverter.parse("12h")).isEqualTo(Duration.ofHours(12));
        assertThat(DurationConverter.parse("90m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(DurationConverter.parse("2w")).isEqualTo(Duration.ofDays(14));
        assertThat(DurationConverter.parse("0s")).isEqualTo(Duration.ZERO);
        assertThat(DurationConverter.parse("PT36H")).isEqualTo(Duration.ofHours(36));
        assertThatThrownBy(() -> DurationConverter.parse("-1d")).isInstanceOf(FdlException.class);
        assertThatThrownBy(() -> DurationConverter.parse("7y")).hasMessageContaining("a number and a unit");
        assertThat(DurationConverter.format(Duration.ofDays(7))).isEqualTo("7d");
    }

    JsonNode json() {
        return JsonRead.parseObject(out.getBytes(), "output");
    }
}
