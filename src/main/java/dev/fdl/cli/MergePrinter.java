package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.ducklake.merge.MergeOptions;
import dev.fdl.ducklake.merge.MergeResult;
import dev.fdl.workingcopy.Merge;
import dev.fdl.util.Json;
import dev.fdl.util.ShellQuote;

import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Prints what {@code fdl merge}, {@code pull} and {@code revert} did, and their conflicts (the first 10 keys per table; {@code --json}: all). */
final class MergePrinter {
    private MergePrinter() {}

    /** The options of {@code --strategy}, {@code --ours T}, {@code --theirs T} and {@code --key}. */
    static MergeOptions options(String strategy, List<String> ours, List<String> theirs, String key) {
        MergeOptions.MergeSide s = null;
        if (strategy != null) {
            switch (strategy.toLowerCase(Locale.ROOT)) {
                case "ours" -> s = MergeOptions.MergeSide.OURS;
                case "theirs" -> s = MergeOptions.MergeSide.THEIRS;
                default -> throw FdlException.usage("--strategy takes ours or theirs, not '" + strategy + "'");
            }
        }
        Map<String, MergeOptions.MergeSide> per = new HashMap<>();
        if (ours != null) ours.forEach(t -> per.put(t.toLowerCase(Locale.ROOT), MergeOptions.MergeSide.OURS));
        if (theirs != null) for (String t : theirs) {
            if (per.put(t.toLowerCase(Locale.ROOT), MergeOptions.MergeSide.THEIRS) != null)
                throw FdlException.usage("table " + t + " is named by both --ours and --theirs");
        }
        List<String> k = key == null || key.isBlank() ? List.of() : List.of(key.split("\\s*,\\s*"));
        return new MergeOptions(s, per, k);
    }

    /**
     * {@code command} (shell words) followed by the options that shape a merge as given: {@code --key},
     * {@code --strict} and the tables already settled per side, for the commands a conflict suggests.
     */
    static List<String> rerun(List<String> command, String key, boolean strict, List<String> ours, List<String> theirs) {
        List<String> out = new java.util.ArrayList<>(command);
        if (key != null) out.addAll(List.of("--key", key));
        if (strict) out.add("--strict");
        if (ours != null) ours.forEach(t -> out.addAll(List.of("--ours", t)));
        if (theirs != null) theirs.forEach(t -> out.addAll(List.of("--theirs", t)));
        return out;
    }

    /**
     * Prints the result; exit 1 (an exception after the listing) when the merge stopped on conflicts,
     * naming the commands that settle them: {@code rerun} (the command that ran, as shell words:
     * {@code fdl merge <ref>} or {@code fdl pull} with the options it ran with) with each side chosen
     * throughout and per conflicting table; null for a command that takes no side (revert).
     */
    static void print(PrintWriter out, PrintWriter err, Merge.MergeOutcome r, boolean json, List<String> rerun) {
        if (json) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("result", r.kind().name().toLowerCase(Locale.ROOT));
            if (r.other() != null) o.put("other", r.other().id());
            if (r.base() != null) o.put("base", r.base().id());
            if (r.baseAmbiguous()) o.put("base_ambiguous", true);
            if (!r.descriptionKept().isEmpty()) r.descriptionKept().forEach(o.putArray("description_kept")::add);
            if (r.merge() != null) {
                if (r.merge().snapshot() != null) o.put("snapshot", r.merge().snapshot());
                ArrayNode tables = o.putArray("tables");
                for (MergeResult.TableOutcome t : r.merge().tables())
                    tables.addObject().put("table", t.table()).put("action", t.action().name().toLowerCase(Locale.ROOT)).put("detail", t.detail());
                ArrayNode conflicts = o.putArray("conflicts");
                for (MergeResult.TableConflict c : r.merge().conflicts()) {
                    ObjectNode n = conflicts.addObject().put("table", c.table()).put("kind", c.kind()).put("count", c.count());
                    ArrayNode keys = n.putArray("keys");
                    boolean rows = c.kind().equals("rows");
                    for (MergeResult.KeyConflict k : c.keys()) {
                        ObjectNode kn = keys.addObject().put("key", k.key());
                        kn.set("base", side(k.base(), rows));
                        kn.set("ours", side(k.ours(), rows));
                        kn.set("theirs", side(k.theirs(), rows));
                    }
                }
            }
            if (r.merge() != null) {
                ArrayNode warnings = o.putArray("warnings");
                for (MergeResult.TableConflict w : r.merge().warnings()) {
                    ArrayNode rows = warnings.addObject().put("table", w.table()).put("kind", w.kind()).put("count", w.count()).putArray("rows");
                    for (MergeResult.KeyConflict k : w.keys())
                        rows.addObject().put("base", Long.parseLong(k.base())).put("ours", Long.parseLong(k.ours()))
                                .put("theirs", Long.parseLong(k.theirs())).set("row", side(k.key(), true));
                }
            }
            Out.json(out, o);
        } else {
            if (r.baseAmbiguous())
                Out.context(err, "several common ancestors are equally near; merged from the newest by seq, " + r.base().id());
            switch (r.kind()) {
                case UP_TO_DATE -> out.println("Already up to date" + (r.other() == null ? "" : " with version " + r.other().id()) + ".");
                case FAST_FORWARD -> out.println("Fast-forward to version " + r.other().id() + ".");
                case ABORTED -> out.println("Merge aborted: the working catalog is as it was before the merge.");
                default -> {
                    if (r.base() != null && r.kind() != Merge.Kind.REVERTED) Out.context(err, "merge base: version " + r.base().id());
                    for (MergeResult.TableOutcome t : r.merge().tables())
                        out.println("  " + t.action().name().toLowerCase(Locale.ROOT) + " " + t.table() + (t.detail().isEmpty() ? "" : ": " + t.detail()));
                    warnings(err, r.merge());
                    if (!r.merge().conflicted()) out.println(done(r));
                }
            }
            if (!r.descriptionKept().isEmpty()) {
                err.println("warning: the description: both the working copy and version " + r.other().id() + " changed "
                        + String.join(", ", r.descriptionKept()) + " differently; kept the working copy's");
                err.flush();
            }
            if (r.merge() != null) {
                for (MergeResult.TableConflict c : r.merge().conflicts()) {
                    out.println("CONFLICT (" + c.kind() + ") in " + c.table() + ": " + c.count() + (c.kind().equals("rows") ? " key(s)" : c.kind().equals("count") ? " row(s) (counts)" : ""));
                    c.keys().stream().limit(10).forEach(k -> out.println("    " + k.key() + "  base: " + text(k.base()) + "  ours: "
                            + text(k.ours()) + "  theirs: " + text(k.theirs())));
                    if (c.keys().size() > 10) out.println("    ... and " + (c.keys().size() - 10) + " more (--json lists all)");
                }
            }
        }
        out.flush();
        if (r.kind() == Merge.Kind.CONFLICTS) {
            long n = r.merge().conflicts().size();
            if (rerun == null) throw new FdlException("stopped on conflicts in " + n + " table(s) (listed above); nothing was written");
            throw new FdlException("stopped on conflicts in " + n + " table(s) (listed above); nothing was written. Settle them, for one side "
                    + "throughout or per table, by running it again as one of:" + settle(rerun, r.merge().conflicts()));
        }
    }

    /** The lines of {@link #print}'s conflict message: {@code rerun} with {@code --strategy}, then with {@code --ours}/{@code --theirs} per table. */
    private static String settle(List<String> rerun, List<MergeResult.TableConflict> conflicts) {
        StringBuilder ours = new StringBuilder(), theirs = new StringBuilder();
        for (MergeResult.TableConflict c : conflicts) {
            ours.append(" --ours ").append(ShellQuote.word(c.table()));
            theirs.append(" --theirs ").append(ShellQuote.word(c.table()));
        }
        String command = ShellQuote.command(rerun);
        return "\n  " + command + " --strategy ours\n  " + command + " --strategy theirs\n  " + command + ours + "\n  " + command + theirs;
    }

    /** The rows of tables without a key whose count both sides changed differently (the first 10 per table). */
    private static void warnings(PrintWriter err, MergeResult m) {
        for (MergeResult.TableConflict w : m.warnings()) {
            err.println("warning: " + w.table() + ": " + w.count() + " row(s) whose count both sides changed differently, merged to "
                    + "max(0, ours + theirs - base) copies (--strict makes them a conflict):");
            w.keys().stream().limit(10).forEach(k -> err.println("    " + k.key() + "  base: " + k.base() + "  ours: " + k.ours()
                    + "  theirs: " + k.theirs()));
            if (w.keys().size() > 10) err.println("    ... and " + (w.keys().size() - 10) + " more (--json lists all)");
        }
        err.flush();
    }

    /**
     * What {@code fdl commit --pull} pulled before committing again: the branch's version it pulled
     * and, per table, what happened (ours: the working copy).
     */
    static void pulled(PrintWriter out, Merge.MergeOutcome r) {
        out.println("Pulled version " + r.other().id() + " (the branch moved since checkout) under the working copy's snapshots:");
        for (MergeResult.TableOutcome t : r.merge().tables())
            out.println("  " + t.action().name().toLowerCase(Locale.ROOT) + " " + t.table() + (t.detail().isEmpty() ? "" : ": " + t.detail()));
        out.flush();
    }

    private static String done(Merge.MergeOutcome r) {
        return switch (r.kind()) {
            case MERGED -> "Merged version " + r.other().id() + " into the working catalog as snapshot " + r.merge().snapshot()
                    + "; publish it with fdl commit (its parents: the branch's version and " + r.other().id() + "), or undo it with fdl merge --abort.";
            case PULLED -> "Pulled version " + r.other().id() + ": it is the working copy's base now, with your snapshots replayed on top"
                    + " (the newest is snapshot " + r.merge().snapshot() + "); publish them with fdl commit.";
            case REVERTED -> "Reverted version " + r.base().id() + " in the working catalog as snapshot " + r.merge().snapshot()
                    + "; publish it with fdl commit.";
            default -> "";
        };
    }

    private static String text(String s) {
        return s == null ? "(none)" : s;
    }

    /** A conflict's side: a row as a JSON object (kind rows), else text; JSON null where the side has none. */
    private static com.fasterxml.jackson.databind.JsonNode side(String value, boolean row) {
        if (value == null) return com.fasterxml.jackson.databind.node.NullNode.getInstance();
        if (!row) return com.fasterxml.jackson.databind.node.TextNode.valueOf(value);
        try {
            return Json.MAPPER.readTree(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return com.fasterxml.jackson.databind.node.TextNode.valueOf(value);
        }
    }
}
