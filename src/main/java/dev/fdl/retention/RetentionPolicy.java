package dev.fdl.retention;

import dev.fdl.repo.RepoLayout;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RepoConfig;
import dev.fdl.repo.Repository;
import dev.fdl.util.Json;
import dev.fdl.util.JsonRead;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * A retention policy a publisher states (docs/retention.md, "Policies"): which versions stay in
 * retention, with the rules of restic's {@code forget} ({@code --keep-last}, {@code --keep-within},
 * {@code --keep-daily/weekly/monthly/yearly}), applied per branch over UTC calendar buckets of
 * {@code created_at}, plus fdl's original {@code --keep N} / {@code --older-than D}. A version
 * kept by any rule is kept; tags and every version a ref points at are always kept
 * ({@link RetentionPlan}).
 *
 * @param keepLast    the newest N versions of each branch's history
 * @param keepWithin  every version created within this of the branch's newest version (null: none)
 * @param keepDaily   the newest version of each of the N newest UTC days that have one
 * @param keepWeekly  the same per ISO-8601 week (Monday to Sunday, UTC; week-based year)
 * @param keepMonthly the same per calendar month (UTC)
 * @param keepYearly  the same per calendar year (UTC)
 * @param keep        fdl's original rule: the newest N reachable versions of the whole repository
 *                    by version id (null: not used)
 * @param olderThan   fdl's original rule: every version younger than this (relative to now) stays (null: none)
 * @param branch      apply the policy to this branch's history only (null: every branch)
 */
public record RetentionPolicy(int keepLast, Duration keepWithin, int keepDaily, int keepWeekly, int keepMonthly,
                              int keepYearly, Integer keep, Duration olderThan, String branch) {
    /** The key of the saved policy in fdl.json. */
    public static final String CONFIG_KEY = "retention";

    public RetentionPolicy {
        count("--keep-last", keepLast);
        count("--keep-daily", keepDaily);
        count("--keep-weekly", keepWeekly);
        count("--keep-monthly", keepMonthly);
        count("--keep-yearly", keepYearly);
        if (keep != null) count("--keep", keep);
        if (keepWithin != null && keepWithin.isNegative()) throw FdlException.usage("--keep-within cannot be negative: " + keepWithin);
        if (olderThan != null && olderThan.isNegative()) throw FdlException.usage("--older-than cannot be negative: " + olderThan);
        if (branch != null && RefName.problem(branch) != null)
            throw FdlException.usage("--branch '" + branch + "' is not a valid branch name: " + RefName.problem(branch));
    }

    private static void count(String option, int n) {
        if (n < 0) throw FdlException.usage(option + " must be 0 or more, got " + n);
    }

    /** fdl's original policy: the newest {@code keep} versions, and (optionally) every version younger than {@code olderThan}. */
    public static RetentionPolicy legacy(int keep, Duration olderThan) {
        return new RetentionPolicy(0, null, 0, 0, 0, 0, keep, olderThan, null);
    }

    /** The same rules applied to {@code branch}'s history only (null: every branch). */
    public RetentionPolicy onBranch(String branch) {
        return new RetentionPolicy(keepLast, keepWithin, keepDaily, keepWeekly, keepMonthly, keepYearly, keep, olderThan, branch);
    }

    /**
     * The saved form, a JSON object under {@value #CONFIG_KEY} in fdl.json: {@code keep_last},
     * {@code keep_within} (ISO-8601, e.g. {@code PT720H}), {@code keep_daily}, {@code keep_weekly},
     * {@code keep_monthly}, {@code keep_yearly}, {@code keep}, {@code older_than}, {@code branch};
     * rules that are not used are left out.
     */
    public ObjectNode toJson() {
        ObjectNode o = Json.MAPPER.createObjectNode();
        if (keepLast > 0) o.put("keep_last", keepLast);
        if (keepWithin != null) o.put("keep_within", keepWithin.toString());
        if (keepDaily > 0) o.put("keep_daily", keepDaily);
        if (keepWeekly > 0) o.put("keep_weekly", keepWeekly);
        if (keepMonthly > 0) o.put("keep_monthly", keepMonthly);
        if (keepYearly > 0) o.put("keep_yearly", keepYearly);
        if (keep != null) o.put("keep", keep);
        if (olderThan != null) o.put("older_than", olderThan.toString());
        if (branch != null) o.put("branch", branch);
        return o;
    }

    /**
     * Parses the saved form strictly.
     *
     * @param file names the file in errors (fdl.json)
     * @throws FdlException exit 1 naming the key when a value has the wrong type, is negative or
     *                      is not an ISO-8601 duration, or when an unknown rule is named (a newer
     *                      fdl's rule must not be silently ignored: it could expire versions it keeps)
     */
    public static RetentionPolicy fromJson(JsonNode node, String file) {
        String where = "key '" + CONFIG_KEY + "'";
        if (!(node instanceof ObjectNode o)) throw FdlException.corrupt(file, where + " must be an object, found " + node);
        List<String> known = List.of("keep_last", "keep_within", "keep_daily", "keep_weekly", "keep_monthly", "keep_yearly",
                "keep", "older_than", "branch");
        List<String> unknown = new ArrayList<>();
        o.fieldNames().forEachRemaining(k -> {
            if (!known.contains(k)) unknown.add(k);
        });
        if (!unknown.isEmpty())
            throw FdlException.corrupt(file, where + " names rules this fdl does not know: " + unknown
                    + "; upgrade fdl, or save a policy again with fdl expire --save-policy");
        try {
            return new RetentionPolicy(n(o, "keep_last", file), d(o, "keep_within", file), n(o, "keep_daily", file),
                    n(o, "keep_weekly", file), n(o, "keep_monthly", file), n(o, "keep_yearly", file),
                    o.has("keep") ? n(o, "keep", file) : null, d(o, "older_than", file),
                    o.has("branch") ? JsonRead.string(o, "branch", file) : null);
        } catch (FdlException e) {
            if (e.kind() != FdlException.Kind.USAGE) throw e;
            throw FdlException.corrupt(file, where + ": " + e.getMessage());
        }
    }

    /**
     * The policy saved in a repository's fdl.json, if any.
     *
     * @throws FdlException exit 1 naming fdl.json and the key when the saved policy is malformed
     */
    public static java.util.Optional<RetentionPolicy> saved(RepoConfig config) {
        JsonNode n = config.extra().get(CONFIG_KEY);
        return n == null || n.isNull() ? java.util.Optional.empty() : java.util.Optional.of(fromJson(n, RepoLayout.CONFIG));
    }

    /**
     * Saves this policy in the repository's fdl.json (every other key kept), with {@code If-Match}
     * on the ETag read when {@code repo} was opened.
     *
     * @return the repository as it is now
     * @throws FdlException exit 3 when fdl.json changed since {@code repo} read it (nothing written)
     */
    public Repository saveIn(Repository repo) {
        requireARuleToApply();
        return repo.saveConfig(repo.config().withExtra(CONFIG_KEY, toJson()));
    }

    /**
     * Refuses a policy whose every rule is 0 (restic's {@code forget} does the same: all-zero is no
     * policy): applied, it would expire every version no ref points at, and expiry deletes catalogs
     * for good. {@code --keep 0} (fdl's original rule) says so on purpose and is accepted.
     *
     * @throws FdlException usage (exit 2) when every rule is 0
     */
    public void requireARuleToApply() {
        if (keepsOnlyRefs())
            throw FdlException.usage("every rule is 0: this policy would expire every version no branch or tag points at. "
                    + "Give a rule above 0 (--keep-last 10, --keep-daily 7, ...), or --keep 0 to expire them all on purpose");
    }

    /**
     * True when no rule keeps anything beyond the refs (every count 0, {@code --keep-within} absent
     * or 0, which keeps only each branch's newest version, no {@code keep}).
     */
    public boolean keepsOnlyRefs() {
        return keepLast == 0 && (keepWithin == null || keepWithin.isZero()) && keepDaily == 0 && keepWeekly == 0
                && keepMonthly == 0 && keepYearly == 0 && keep == null && olderThan == null;
    }

    private static int n(ObjectNode o, String key, String file) {
        JsonNode v = o.get(key);
        if (v == null) return 0;
        if (!v.isInt()) throw FdlException.corrupt(file, "key '" + CONFIG_KEY + "." + key + "' must be a whole number, found " + v);
        return v.asInt();
    }

    private static Duration d(ObjectNode o, String key, String file) {
        JsonNode v = o.get(key);
        if (v == null) return null;
        try {
            if (v.isTextual()) return Duration.parse(v.asText());
        } catch (DateTimeParseException e) {
            // reported below
        }
        throw FdlException.corrupt(file, "key '" + CONFIG_KEY + "." + key + "' must be an ISO-8601 duration such as \"PT720H\", found " + v);
    }
}
