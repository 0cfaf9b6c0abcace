package dev.fdl.ducklake.merge;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a three-way merge settles what it cannot decide itself (docs/SPEC.md section 7, "Merge").
 *
 * @param strategy  every conflict settled for one side ({@code --strategy ours|theirs}); null: conflicts are reported
 * @param perTable  per table name (lower case, {@code [schema.]name} as the user wrote it): the side that wins
 *                  there ({@code --ours T}, {@code --theirs T}), before {@code strategy}
 * @param key       row identity columns for tables without a recorded key ({@code --key}); empty: the
 *                  recorded key, else whole rows as multisets
 * @param strict    {@code --strict}: a row of a table without a key whose count both sides changed
 *                  differently is a conflict (kind {@code count}) instead of a warning
 */
public record MergeOptions(MergeSide strategy, Map<String, MergeSide> perTable, List<String> key, boolean strict) {
    /** The side a conflict is settled for. */
    public enum MergeSide { OURS, THEIRS }

    /** Nothing settled, no key given. */
    public static final MergeOptions NONE = new MergeOptions(null, Map.of(), List.of(), false);

    public MergeOptions {
        perTable = Map.copyOf(perTable);
        key = List.copyOf(key);
    }

    /** Options that are not strict. */
    public MergeOptions(MergeSide strategy, Map<String, MergeSide> perTable, List<String> key) {
        this(strategy, perTable, key, false);
    }

    /** These options with {@code --strict} set as given. */
    public MergeOptions withStrict(boolean strict) {
        return new MergeOptions(strategy, perTable, key, strict);
    }

    /** The side that wins conflicts of table {@code name} (schema {@code main} may be left out), or null. */
    public MergeSide resolution(String schema, String name) {
        MergeSide s = perTable.get((schema + "." + name).toLowerCase(Locale.ROOT));
        if (s == null && "main".equals(schema)) s = perTable.get(name.toLowerCase(Locale.ROOT));
        return s != null ? s : strategy;
    }
}
