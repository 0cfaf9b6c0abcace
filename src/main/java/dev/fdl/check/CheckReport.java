package dev.fdl.check;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.util.Json;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every check's outcome for one version or working copy, and the row constraints that held (the
 * keys {@link RowRule#key()} that let the next version check only its added rows).
 *
 * @param results     one per check, in the order they ran: guards, constraints, SQL checks, hooks
 * @param held        keys of the row constraints that held on every row
 * @param incremental true when at least one row constraint was checked on added rows only
 */
public record CheckReport(List<CheckResult> results, Set<String> held, boolean incremental) {
    /** The key of version.json that records a version's checks (SPEC.md section 3; unknown to older fdl, which keeps it). */
    public static final String VERSION_KEY = dev.fdl.repo.VersionInfo.CHECKS;

    public CheckReport {
        results = List.copyOf(results);
        held = java.util.Collections.unmodifiableSet(new TreeSet<>(held));
    }

    /** The failed checks. */
    public List<CheckResult> failed() {
        return results.stream().filter(r -> r.status() == CheckResult.Status.FAILED).toList();
    }

    /** The checks that warned. */
    public List<CheckResult> warned() {
        return results.stream().filter(r -> r.status() == CheckResult.Status.WARNED).toList();
    }

    /**
     * The error a commit refused by its checks ends with: every failed check in words
     * ({@link CheckResult#describe()}) and that nothing was uploaded.
     */
    public String failureMessage() {
        StringBuilder sb = new StringBuilder(failed().size() + " check(s) failed; nothing was uploaded:");
        for (CheckResult r : failed()) sb.append("\n  ").append(r.describe().replace("\n", "\n  "));
        sb.append("\nfix the data (or dataset.json), or run fdl check --working to see every result");
        return sb.toString();
    }

    /** The JSON of {@code fdl check --json}: the summary and every result. */
    public ObjectNode toJson() {
        ObjectNode o = summary();
        ArrayNode rs = o.putArray("results");
        results.forEach(r -> rs.add(r.toJson()));
        return o;
    }

    /**
     * What version.json keeps under {@link #VERSION_KEY}: counts, the mode, the warnings (name,
     * table, count, detail: no rows, to keep version.json small) and the row constraints that held.
     */
    public ObjectNode toVersionJson() {
        ObjectNode o = summary();
        ArrayNode w = o.putArray("warnings");
        for (CheckResult r : warned()) {
            ObjectNode x = r.toJson();
            x.remove("columns");
            x.remove("rows");
            x.remove("status");
            w.add(x);
        }
        ArrayNode h = o.putArray("held");
        held.forEach(h::add);
        return o;
    }

    private ObjectNode summary() {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("checked", results.size());
        o.put("passed", results.size() - failed().size() - warned().size());
        o.put("warned", warned().size());
        o.put("failed", failed().size());
        o.put("mode", incremental ? "incremental" : "full");
        return o;
    }
}
