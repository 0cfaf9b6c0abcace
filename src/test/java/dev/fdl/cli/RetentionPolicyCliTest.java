package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.FdlException;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RepoFixture;
import dev.fdl.repo.Repository;
import dev.fdl.retention.RetentionPolicy;
import dev.fdl.util.Json;
import dev.fdl.util.JsonRead;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 18 through the command line: policies stated, dry-run, saved in fdl.json, applied by commit --expire. */
class RetentionPolicyCliTest {
    @TempDir Path tmp;

    /** main: four versions on three UTC days (two on 2026-11-29, the later one at 23:59:59), HEAD at the newest. */
    List<String> dailyHistory(RepoFixture fx) {
        List<String> v = new ArrayList<>();
        String parent = null;
        for (String at : List.of("2026-11-28T12:00:00Z", "2026-11-29T00:00:00Z", "2026-11-29T23:59:59Z", "2026-11-30T00:00:00Z")) {
            parent = fx.version(parent == null ? List.of() : List.of(parent), Instant.parse(at), fx.textCatalog(List.of()));
            v.add(parent);
        }
        fx.store.put(RepoLayout.refKey(RefValue.Kind.BRANCH, new RefName("main")), Repository.refBytes(parent));
        return v;
    }

    Cli.Result fdl(RepoFixture fx, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--repo");
        all.add(fx.root.toString());
        return Cli.in(tmp, all.toArray(String[]::new));
    }

    @Test
    void dryRunShowsEveryVersionWithItsRuleThenTheSavedPolicyIsAppliedWithoutOptions() throws Exception {
        RepoFixture fx = RepoFixture.create(tmp.resolve("r"));
        List<String> v = dailyHistory(fx);
        // a key some other tool (or a newer fdl) wrote: it must survive saving a policy
        JsonNode cfg = JsonRead.parseObject(fx.store.get("fdl.json").orElseThrow().bytes(), "fdl.json");
        ((com.fasterxml.jackson.databind.node.ObjectNode) cfg).put("x_mirror", "https://data.example.org/");
        fx.store.put("fdl.json", Json.bytes(cfg));
        List<String> before = fx.keys();

        Cli.Result dry = fdl(fx, "expire", "--keep-daily", "2", "--dry-run");
        assertThat(dry.exit()).isZero();
        assertThat(dry.out()).contains("Applying policy: keep 2 daily and what refs point at (per branch)")
                .contains("keep 2 version(s):").contains("expire 2 version(s):")
                .contains(v.get(3) + "  2026-11-30T00:00:00Z  points at: branch main, daily 2026-11-30 [branch main]")
                .contains(v.get(2) + "  2026-11-29T23:59:59Z  daily 2026-11-29 [branch main]")
                .contains("Would expire " + v.get(0)).contains("Would expire " + v.get(1));
        for (String id : v) assertThat(dry.out().split(id, -1)).as("lines naming " + id).hasSize(2); // each version once
        assertThat(fx.keys()).isEqualTo(before);

        Cli.Result json = fdl(fx, "expire", "--keep-daily", "2", "--dry-run", "--json");
        JsonNode j = Json.MAPPER.readTree(json.out());
        assertThat(j.get("policy").toString()).isEqualTo("{\"keep_daily\":2}");
        assertThat(j.get("decisions")).hasSize(4);
        assertThat(j.get("decisions").get(1).get("id").asText()).isEqualTo(v.get(2));
        assertThat(j.get("decisions").get(1).get("keep").asBoolean()).isTrue();
        assertThat(j.get("decisions").get(2).get("keep").asBoolean()).isFalse();
        assertThat(j.get("decisions").get(2).get("reasons")).isEmpty();
        // a dry run reports what it would expire, not an expiry time or deletions that did not happen
        assertThat(j.get("expired")).hasSize(2);
        assertThat(j.get("expired").get(0).has("expired_at")).isFalse();
        assertThat(j.get("expired").get(0).has("catalog_objects_deleted")).isFalse();

        assertThat(fdl(fx, "expire").exit()).as("no policy saved yet").isEqualTo(ExitCodes.USAGE);
        Cli.Result saved = fdl(fx, "expire", "--save-policy", "--keep-daily", "2", "--keep-within", "12h");
        assertThat(saved.exit()).isZero();
        assertThat(saved.out()).contains("keep within 12h of the newest, 2 daily");
        assertThat(fx.keys()).as("saving expires nothing").isEqualTo(before);
        JsonNode after = JsonRead.parseObject(fx.store.get("fdl.json").orElseThrow().bytes(), "fdl.json");
        assertThat(after.get("x_mirror").asText()).isEqualTo("https://data.example.org/");
        assertThat(after.get("retention").toString()).isEqualTo("{\"keep_within\":\"PT12H\",\"keep_daily\":2}");
        assertThat(after.get("id").asText()).isEqualTo(fx.repo.config().id());

        Cli.Result applied = fdl(fx, "expire");
        assertThat(applied.exit()).isZero();
        assertThat(applied.out()).contains("Expired 2 version(s); 2 in retention");
        assertThat(fx.exists(RepoLayout.expiredJson(v.get(0)))).isTrue();
        assertThat(fx.exists(RepoLayout.expiredJson(v.get(1)))).isTrue();
        assertThat(fx.exists(RepoLayout.expiredJson(v.get(2)))).isFalse();
    }

    @Test
    void badPolicyOptionsAreUsageErrors() {
        RepoFixture fx = RepoFixture.create(tmp.resolve("r"));
        dailyHistory(fx);
        assertThat(fdl(fx, "expire", "--keep-daily", "-1").exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(fdl(fx, "expire", "--branch", "main").exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(fdl(fx, "expire", "--older-than", "30d").exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(fdl(fx, "expire", "--save-policy").exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(fdl(fx, "expire", "--save-policy", "--keep-last", "0").exit()).as("a saved policy that keeps only refs")
                .isEqualTo(ExitCodes.USAGE);
        Cli.Result nope = fdl(fx, "expire", "--keep-last", "1", "--branch", "nope");
        assertThat(nope.exit()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(nope.err()).contains("no branch 'nope'");
    }

    @Test
    void anAllZeroPolicyExpiresNothingAndADryRunSavesNothing() throws Exception {
        RepoFixture fx = RepoFixture.create(tmp.resolve("r"));
        List<String> v = dailyHistory(fx);
        byte[] config = fx.store.get("fdl.json").orElseThrow().bytes();
        List<String> before = fx.keys();
        for (String[] rules : List.of(new String[] {"--keep-daily", "0"}, new String[] {"--keep-last", "0", "--keep-weekly", "0"},
                new String[] {"--keep-within", "0s"})) {
            List<String> args = new ArrayList<>(List.of("expire"));
            args.addAll(List.of(rules));
            Cli.Result r = fdl(fx, args.toArray(String[]::new));
            assertThat(r.exit()).as(String.join(" ", rules)).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains("every rule is 0").contains("--keep 0");
        }
        assertThat(fx.keys()).isEqualTo(before);

        Cli.Result dry = fdl(fx, "expire", "--save-policy", "--keep-last", "3", "--dry-run");
        assertThat(dry.exit()).isZero();
        assertThat(dry.out()).contains("Would save the retention policy").contains("3 last");
        assertThat(fx.store.get("fdl.json").orElseThrow().bytes()).isEqualTo(config);
        assertThat(fdl(fx, "expire", "--save-policy", "--keep-last", "0", "--dry-run").exit()).isEqualTo(ExitCodes.USAGE);

        // said on purpose: fdl's original rule with 0 expires what no ref points at
        assertThat(fdl(fx, "expire", "--keep", "0").exit()).isZero();
        assertThat(fx.exists(RepoLayout.expiredJson(v.get(0)))).isTrue();
        assertThat(fx.exists(RepoLayout.expiredJson(v.get(3)))).isFalse();
    }

    @Test
    void ofTwoWritersWhoReadTheSameFdlJsonOneWinsAndTheOtherGetsAConflict() {
        RepoFixture fx = RepoFixture.create(tmp.resolve("r"));
        Repository first = Repository.open(fx.store), second = Repository.open(fx.store);
        RetentionPolicy daily = new RetentionPolicy(0, null, 7, 0, 0, 0, null, null, null);
        RetentionPolicy last = new RetentionPolicy(3, null, 0, 0, 0, 0, null, null, null);
        daily.saveIn(first);
        assertThatThrownBy(() -> last.saveIn(second))
                .isInstanceOfSatisfying(FdlException.class, e -> assertThat(e.kind()).isEqualTo(FdlException.Kind.CONFLICT))
                .hasMessageContaining("fdl.json").hasMessageContaining("changed since it was read");
        assertThat(RetentionPolicy.saved(Repository.open(fx.store).config())).contains(daily);
        // read again, the second writer's change goes on top of the first
        last.saveIn(Repository.open(fx.store));
        assertThat(RetentionPolicy.saved(Repository.open(fx.store).config())).contains(last);
    }

    @Test
    void concurrentWritersRacingOnTheStoreLeaveExactlyOneWinner() throws Exception {
        RepoFixture fx = RepoFixture.create(tmp.resolve("r"));
        int n = 6;
        CyclicBarrier allRead = new CyclicBarrier(n);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int keep = i + 1;
                results.add(pool.submit(() -> {
                    Repository r = Repository.open(fx.store);
                    allRead.await(); // every writer has read fdl.json before any writes
                    try {
                        new RetentionPolicy(keep, null, 0, 0, 0, 0, null, null, null).saveIn(r);
                        return keep;
                    } catch (FdlException e) {
                        assertThat(e.kind()).isEqualTo(FdlException.Kind.CONFLICT);
                        return 0;
                    }
                }));
            }
            List<Integer> winners = new ArrayList<>();
            for (Future<Integer> f : results) if (f.get() > 0) winners.add(f.get());
            assertThat(winners).hasSize(1);
            assertThat(RetentionPolicy.saved(Repository.open(fx.store).config()).orElseThrow().keepLast()).isEqualTo(winners.get(0));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void commitExpireAppliesTheSavedPolicyAfterASuccessfulCommit() throws Exception {
        Path root = tmp.resolve("repo"), wc = tmp.resolve("wc"), csv = tmp.resolve("t.csv");
        Files.createDirectories(wc);
        Cli.ok(tmp, "init", root.toString());
        Cli.ok(wc, "checkout", "--repo", root.toString());
        Files.writeString(csv, "id,name\n1,a\n", StandardCharsets.UTF_8);
        Cli.ok(wc, "import", csv.toString(), "--table", "t");

        Cli.Result refused = Cli.in(wc, "commit", "--expire", "-m", "first");
        assertThat(refused.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(refused.err()).contains("has none").contains("nothing was committed");
        assertThat(Cli.ok(wc, "status").out()).contains("1 snapshot(s) to commit");

        Cli.ok(wc, "expire", "--save-policy", "--keep-last", "1");
        String first = Json.MAPPER.readTree(Cli.ok(wc, "commit", "--expire", "-m", "first", "--json").out()).get("id").asText();
        Files.writeString(csv, "id,name\n2,b\n", StandardCharsets.UTF_8);
        Cli.ok(wc, "import", csv.toString(), "--table", "t", "--mode", "append");
        Cli.Result second = Cli.ok(wc, "commit", "--expire", "-m", "second");
        assertThat(second.out()).contains("Expired " + first).contains("Expired 1 version(s); 1 in retention");
        assertThat(Files.exists(root.resolve("versions/" + first + "/expired.json"))).isTrue();
    }
}
