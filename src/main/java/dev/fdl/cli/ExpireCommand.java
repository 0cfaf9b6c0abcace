package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.repo.Repository;
import dev.fdl.retention.Expire;
import dev.fdl.retention.RetentionPlan;
import dev.fdl.retention.RetentionPolicy;
import dev.fdl.site.Site;
import dev.fdl.store.ObjectStore;
import dev.fdl.util.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** {@code fdl expire}: takes old versions out of retention by a policy (SPEC.md section 5; docs/retention.md). */
@Command(name = "expire", mixinStandardHelpOptions = true,
        description = {"Take versions out of retention by a policy: the --keep-* rules (restic's forget semantics, per branch, "
                + "UTC calendar buckets over created_at) or fdl's --keep N [--older-than D]; without rules, the policy saved "
                + "in the repository (--save-policy). Every version a branch or tag points at stays. Expired versions are "
                + "marked (expired.json) and lose their catalogs; data files are left to fdl gc.",
                "Re-running after an interruption finishes the job."})
final class ExpireCommand implements Runnable {
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Spec CommandSpec spec;
    @Mixin RepoOption repoOption;
    @Mixin PolicyOptions policyOptions;

    /** A policy-saving command printed where a policy is missing: a concrete one a user can paste or adapt (it expires nothing). */
    static final String SAVE_POLICY_EXAMPLE = "fdl expire --save-policy --keep-daily 30 --keep-monthly 12";

    @Option(names = "--save-policy", description = "Save the given rules as the repository's policy (in fdl.json, "
            + "If-Match: exit 3 if another writer changed it meanwhile) and expire nothing.") boolean savePolicy;
    @Option(names = "--dry-run", description = "Show, per version, whether it is kept and by which rule; change nothing.") boolean dryRun;
    @Option(names = "--json", description = "Print the result as JSON.") boolean json;

    /** The retention rules, shared with nothing else: parsing only. */
    static final class PolicyOptions {
        @Option(names = "--keep-last", paramLabel = "N", description = "Keep the newest N versions of each branch.") Integer keepLast;
        @Option(names = "--keep-within", paramLabel = "DURATION", converter = DurationConverter.class,
                description = "Keep every version created within DURATION of its branch's newest version (30d, 12h, 2w).") Duration keepWithin;
        @Option(names = "--keep-daily", paramLabel = "N", description = "Keep the newest version of each of the last N UTC days that have one.") Integer keepDaily;
        @Option(names = "--keep-weekly", paramLabel = "N", description = "The same per ISO week (Monday to Sunday, UTC).") Integer keepWeekly;
        @Option(names = "--keep-monthly", paramLabel = "N", description = "The same per calendar month (UTC).") Integer keepMonthly;
        @Option(names = "--keep-yearly", paramLabel = "N", description = "The same per calendar year (UTC).") Integer keepYearly;
        @Option(names = "--keep", paramLabel = "N", description = "fdl's original rule: keep the newest N versions of the whole repository.") Integer keep;
        @Option(names = "--older-than", paramLabel = "DURATION", converter = DurationConverter.class,
                description = "fdl's original rule: only expire versions created longer ago than this (30d, 12h, 2w).") Duration olderThan;
        @Option(names = "--branch", paramLabel = "BRANCH", description = "Apply the policy to this branch's history only; "
                + "versions other branches or tags reach are kept.") String branch;

        /** The policy the options state, or null when none of the rules was given. */
        RetentionPolicy policy() {
            if (keepLast == null && keepWithin == null && keepDaily == null && keepWeekly == null && keepMonthly == null
                    && keepYearly == null && keep == null && olderThan == null) {
                if (branch != null) throw FdlException.usage("--branch needs rules to apply (--keep-last, --keep-daily, ...)");
                return null;
            }
            if (olderThan != null && keep == null)
                throw FdlException.usage("--older-than goes with --keep N (fdl's original rule); with the --keep-* rules use --keep-within");
            return new RetentionPolicy(n(keepLast), keepWithin, n(keepDaily), n(keepWeekly), n(keepMonthly), n(keepYearly),
                    keep, olderThan, branch);
        }

        private static int n(Integer i) {
            return i == null ? 0 : i;
        }
    }

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        RetentionPolicy given = policyOptions.policy();
        try (ObjectStore store = repoOption.openStore()) {
            Repository repo = Repository.open(store);
            if (savePolicy) {
                if (given == null) throw FdlException.usage("--save-policy needs the rules to save (--keep-last, --keep-daily, ...)");
                if (dryRun) given.requireARuleToApply(); // what saveIn would refuse, without writing
                else given.saveIn(repo);
                if (json) {
                    ObjectNode o = Json.MAPPER.createObjectNode();
                    o.put("dry_run", dryRun);
                    o.set("saved_policy", given.toJson());
                    Out.json(out, o);
                } else {
                    out.println((dryRun ? "Would save the retention policy in " : "Saved the retention policy in ")
                            + repo.root() + "fdl.json: " + describe(given));
                    out.println("fdl expire (no options) and fdl commit --expire " + (dryRun ? "would apply it." : "apply it."));
                    out.flush();
                }
                return;
            }
            RetentionPolicy policy = given != null ? given : RetentionPolicy.saved(repo.config()).orElseThrow(() -> FdlException.usage(
                    "no retention policy: give rules (--keep-last, --keep-within, --keep-daily, --keep-weekly, --keep-monthly, "
                            + "--keep-yearly, or --keep N), or save a policy first, for example: " + SAVE_POLICY_EXAMPLE));
            if (given != null) given.requireARuleToApply();
            Expire.Report r = run(repo, CommandContext.of(spec), policy, dryRun);
            // expired versions' pages must stop offering attach statements that now fail
            Site.SiteResult site = dryRun || r.expired().isEmpty() ? null
                    : SiteUpkeep.afterChange(repo, CommandContext.of(spec), false, r.expired().size() + " version(s) expired", false, spec.commandLine().getErr());
            if (json) {
                ObjectNode o = toJson(r, policy);
                if (site != null) o.put("site_pages_written", site.written());
                Out.json(out, o);
                return;
            }
            print(out, r, policy, false);
            if (site != null) out.println(SiteUpkeep.summary(site));
            out.flush();
        }
    }

    /** Applies {@code policy} to {@code repo}, reading catalogs through the run's cache. */
    static Expire.Report run(Repository repo, CommandContext context, RetentionPolicy policy, boolean dryRun) {
        return new Expire(repo, context.clock(), context.cache()).run(new Expire.Options(policy, dryRun));
    }

    /** Prints a report as {@code fdl expire} does ({@code --dry-run} adds every decision and its rules, as restic's forget does). */
    static void print(PrintWriter out, Expire.Report r, RetentionPolicy policy, boolean json) {
        if (json) {
            Out.json(out, toJson(r, policy));
            return;
        }
        if (r.dryRun()) {
            out.println("Applying policy: " + describe(policy));
            List<RetentionPlan.Decision> keep = new ArrayList<>(), drop = new ArrayList<>();
            for (RetentionPlan.Decision d : r.decisions()) (d.kept() ? keep : drop).add(d);
            out.println("keep " + keep.size() + " version(s):");
            for (RetentionPlan.Decision d : keep)
                out.println("  " + d.id() + "  " + d.createdAt() + "  " + String.join(", ", d.reasons()));
            out.println("expire " + drop.size() + " version(s):"); // each is listed once, as "Would expire <id>", below
        }
        String verb = r.dryRun() ? "Would expire " : "Expired ";
        for (Expire.Expired e : r.expired())
            out.println(verb + e.id() + (e.createdAt() == null ? "" : " (created " + e.createdAt() + ")")
                    + (e.resumed() ? " [finishing an earlier expire]" : ""));
        out.println(verb + r.expired().size() + " version(s); "
                + r.kept() + " in retention. Data files are deleted by fdl gc after the grace period.");
        out.flush();
    }

    static ObjectNode toJson(Expire.Report r, RetentionPolicy policy) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("dry_run", r.dryRun());
        o.set("policy", policy.toJson());
        o.put("kept", r.kept());
        ArrayNode a = o.putArray("expired");
        for (Expire.Expired e : r.expired()) {
            ObjectNode x = a.addObject();
            x.put("id", e.id());
            x.put("created_at", e.createdAt() == null ? null : e.createdAt().toString());
            if (!r.dryRun()) { // what was done; a dry run did nothing
                x.put("expired_at", e.expiredAt() == null ? null : e.expiredAt().toString());
                x.put("catalog_objects_deleted", e.catalogDeleted());
            }
            x.put("resumed", e.resumed());
        }
        ArrayNode ds = o.putArray("decisions");
        for (RetentionPlan.Decision d : r.decisions()) {
            ObjectNode x = ds.addObject();
            x.put("id", d.id());
            x.put("created_at", d.createdAt().toString());
            x.put("keep", d.kept());
            ArrayNode rs = x.putArray("reasons");
            d.reasons().forEach(rs::add);
        }
        return o;
    }

    /** The policy in words: {@code keep 7 daily, 5 weekly, within 30d; on branch main}. */
    static String describe(RetentionPolicy p) {
        List<String> rules = new ArrayList<>();
        if (p.keepLast() > 0) rules.add(p.keepLast() + " last");
        if (p.keepWithin() != null) rules.add("within " + DurationConverter.format(p.keepWithin()) + " of the newest");
        if (p.keepDaily() > 0) rules.add(p.keepDaily() + " daily");
        if (p.keepWeekly() > 0) rules.add(p.keepWeekly() + " weekly");
        if (p.keepMonthly() > 0) rules.add(p.keepMonthly() + " monthly");
        if (p.keepYearly() > 0) rules.add(p.keepYearly() + " yearly");
        if (p.keep() != null) rules.add("the newest " + p.keep() + " of the repository");
        if (p.olderThan() != null) rules.add("those younger than " + DurationConverter.format(p.olderThan()));
        String s = "keep " + (rules.isEmpty() ? "only what refs point at" : String.join(", ", rules) + " and what refs point at");
        if (p.branch() != null) return s + " (branch " + p.branch() + " only)";
        boolean perBranch = p.keepLast() > 0 || p.keepWithin() != null || p.keepDaily() > 0 || p.keepWeekly() > 0
                || p.keepMonthly() > 0 || p.keepYearly() > 0;
        return perBranch ? s + " (per branch)" : s;
    }
}
