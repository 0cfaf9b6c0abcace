package dev.fdl.ducklake.read;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Which column of a table before a change is which column after it, as {@code fdl diff} and the
 * change guards tell a rename from a drop plus an add (docs/data.md, "fdl diff"): within one
 * table (same table id), by DuckLake column id, which a rename keeps; then by name among the
 * columns the ids left unpaired, since a column dropped and added again under its name (as
 * {@code import --mode replace} with other columns does) holds the same data to a reader. A pair
 * whose names differ is a rename.
 */
public final class ColumnPairing {
    private ColumnPairing() {}

    /**
     * Pairs the columns.
     *
     * @param before    the columns before, in their order
     * @param after     the columns after
     * @param sameTable true when both are one table (same table id): ids pair first
     * @param id        a column's DuckLake column id
     * @param name      a column's name
     * @return per column of {@code after} (by identity), its column of {@code before}; absent: added
     */
    public static <C> Map<C, C> pair(List<C> before, List<C> after, boolean sameTable, ToLongFunction<C> id, Function<C, String> name) {
        Map<C, C> oldOf = new IdentityHashMap<>();
        Set<C> paired = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        if (sameTable) {
            Map<Long, C> byId = new HashMap<>();
            for (C c : before) byId.put(id.applyAsLong(c), c);
            for (C c : after) {
                C old = byId.get(id.applyAsLong(c));
                if (old != null) {
                    oldOf.put(c, old);
                    paired.add(old);
                }
            }
        }
        Map<String, C> byName = new HashMap<>();
        for (C c : before) if (!paired.contains(c)) byName.putIfAbsent(name.apply(c), c);
        for (C c : after) {
            if (oldOf.containsKey(c)) continue;
            C old = byName.remove(name.apply(c));
            if (old != null) {
                oldOf.put(c, old);
                paired.add(old);
            }
        }
        return oldOf;
    }
}
