package dev.fdl.ducklake.merge;

import java.util.List;

/**
 * What a three-way merge found and did.
 *
 * @param tables    per table of the merged catalog (or of a side, for a dropped one), what happened to it
 * @param conflicts what could not be merged (empty when the merge was written)
 * @param snapshot  the merge snapshot in the output catalog, or null when nothing was written (conflicts)
 * @param bytesRead bytes of the distinct data and delete files the row merges of tables changed on both
 *                  sides opened (their sizes as the catalogs record them, else on disk); 0 when unknown
 * @param warnings  what was merged by a rule the user may not expect, shaped as conflicts: kind
 *                  {@code count}, rows of a table without a key whose count both sides changed
 *                  differently, merged to {@code max(0, ours + theirs - base)} (keys: the row as a
 *                  JSON object; base, ours, theirs: its counts)
 */
public record MergeResult(List<TableOutcome> tables, List<TableConflict> conflicts, Long snapshot, long bytesRead,
                          List<TableConflict> warnings) {
    public MergeResult {
        tables = List.copyOf(tables);
        conflicts = List.copyOf(conflicts);
        warnings = List.copyOf(warnings);
    }

    /** A result without warnings. */
    public MergeResult(List<TableOutcome> tables, List<TableConflict> conflicts, Long snapshot, long bytesRead) {
        this(tables, conflicts, snapshot, bytesRead, List.of());
    }

    /** A result whose bytes read are not known (0), without warnings. */
    public MergeResult(List<TableOutcome> tables, List<TableConflict> conflicts, Long snapshot) {
        this(tables, conflicts, snapshot, 0);
    }

    /** True when the merge was refused for conflicts and nothing was written. */
    public boolean conflicted() {
        return !conflicts.isEmpty();
    }

    /** What happened to one table: {@code action} is one of {@link Action}; {@code detail} says more for people (may be empty). */
    public record TableOutcome(String table, Action action, String detail) {
        /** How {@link #detail} starts for a table whose rows were merged whole, as multisets: it had no key ({@link RowMerge}). */
        public static final String WHOLE_ROWS = "rows merged as multisets";

        /** Whether this table's rows were merged whole, as multisets (no key recorded or given). */
        public boolean mergedWholeRows() {
            return (action == Action.MERGED || action == Action.SETTLED) && detail.startsWith(WHOLE_ROWS);
        }

        /**
         * This outcome told with the sides' names exchanged: {@code ours} and {@code theirs} in the
         * detail swapped, {@link Action#TAKEN} (the other side's table) becoming {@link Action#KEPT}
         * and a table kept because only this side changed it becoming {@link Action#TAKEN}.
         */
        TableOutcome swapped() {
            String d = SIDE_WORD.matcher(detail).replaceAll(m -> m.group().equals("ours") ? "theirs" : "ours");
            Action a = action == Action.TAKEN ? Action.KEPT
                    : action == Action.KEPT && d.contains("on theirs only") ? Action.TAKEN : action;
            return new TableOutcome(table, a, d);
        }
    }

    private static final java.util.regex.Pattern SIDE_WORD = java.util.regex.Pattern.compile("\\b(ours|theirs)\\b");

    /**
     * This result told from the other side: the engine merged {@code theirs} into {@code ours}, and
     * the user calls them the other way round ({@code fdl pull} merges the working copy, the user's
     * ours, onto the branch's version, the engine's ours). Conflicts' sides and outcomes' words swap.
     */
    public MergeResult sidesSwapped() {
        return new MergeResult(tables.stream().map(TableOutcome::swapped).toList(), swapped(conflicts), snapshot, bytesRead,
                swapped(warnings));
    }

    private static List<TableConflict> swapped(List<TableConflict> conflicts) {
        List<TableConflict> cs = new java.util.ArrayList<>();
        for (TableConflict c : conflicts) {
            List<KeyConflict> ks = new java.util.ArrayList<>();
            for (KeyConflict k : c.keys()) ks.add(new KeyConflict(k.key(), k.base(), k.theirs(), k.ours()));
            cs.add(new TableConflict(c.table(), c.kind(), c.count(), ks));
        }
        return cs;
    }

    /** Per table, one of these. */
    public enum Action {
        /** changed on neither side, or only on ours, or the same way on both: ours kept */
        KEPT,
        /** changed (or created, dropped) on their side only: their table taken by naming its files */
        TAKEN,
        /** changed on both sides: columns and rows merged, the difference written as new data and delete files */
        MERGED,
        /** a conflict settled for one side by a strategy or {@code --ours/--theirs} */
        SETTLED
    }

    /**
     * A conflict in one table.
     *
     * @param table the table
     * @param kind  {@code rows} (different changes to one key), {@code column} (one column changed
     *              differently), {@code table} (dropped on one side, changed on the other), {@code created}
     *              (created on both sides under one name with different contents), {@code key} (the key
     *              is not a column on every side), {@code empty} (the merged table would hold no rows),
 *              {@code name} (renamed differently on both sides), {@code count} (with {@code --strict}: a row
 *              of a table without a key whose count both sides changed differently; base, ours,
 *              theirs hold the counts)
     * @param count how many keys (rows) or columns conflict
     * @param keys  the conflicting keys with their values on each side (all of them; printers show the first 10)
     */
    public record TableConflict(String table, String kind, long count, List<KeyConflict> keys) {
        public TableConflict {
            keys = List.copyOf(keys);
        }
    }

    /**
     * One conflicting key (or column) with the row on each side as a JSON object's text (kind
     * {@code rows}), or the type or table as text (other kinds); null where the side has none.
     */
    public record KeyConflict(String key, String base, String ours, String theirs) {}
}
