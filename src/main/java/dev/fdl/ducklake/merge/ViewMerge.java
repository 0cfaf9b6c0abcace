package dev.fdl.ducklake.merge;

import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.ducklake.format.Visibility;
import dev.fdl.util.SqlQuote;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Views in a three-way merge (docs/SPEC.md section 7), matched by {@code view_uuid} as tables are
 * by {@code table_uuid}: unchanged on theirs, ours kept; created, dropped, renamed or redefined on
 * theirs only, theirs taken (its {@code ducklake_view} row, by uuid); the same change on both, kept;
 * changed differently on both (or dropped on one side, changed on the other), a conflict of kind
 * {@code view}; created on both under one name with different definitions, a conflict of kind
 * {@code created}. Settled conflicts take the settled side's view.
 */
final class ViewMerge {
    /** A view on one side: its uuid, schema and name, and what it reads as (dialect, SQL, column aliases). */
    record View(String uuid, String schema, String name, String definition) {
        String qualified() {
            return schema.equals("main") ? name : schema + "." + name;
        }

        boolean sameAs(View o) {
            return Identifiers.same(qualified(), o.qualified()) && definition.equals(o.definition);
        }
    }

    /** What the views' merge decided: uuids to take from theirs (added to {@code take}), outcomes and conflicts. */
    record Into(Set<String> take, List<MergeResult.TableOutcome> outcomes, List<MergeResult.TableConflict> conflicts) {}

    private ViewMerge() {}

    /** The views {@code side} shows at its snapshot, by uuid. */
    static Map<String, View> read(Connection duck, CatalogSide side) throws SQLException {
        String db = SqlQuote.ident(side.alias) + ".main.";
        Map<String, View> out = new LinkedHashMap<>();
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT CAST(v.view_uuid AS VARCHAR), s.schema_name, v.view_name, "
                     + "concat_ws(chr(31), v.dialect, v.sql, v.column_aliases) FROM " + db + "ducklake_view v JOIN " + db
                     + "ducklake_schema s ON s.schema_id = v.schema_id AND" + Visibility.at("s", side.snapshot)
                     + "WHERE" + Visibility.at("v", side.snapshot))) {
            while (rs.next()) out.put(rs.getString(1), new View(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)));
        }
        return out;
    }

    /** Merges the views of base {@code b}, ours {@code o} and theirs {@code t}, settled by {@code options}. */
    static void merge(Map<String, View> b, Map<String, View> o, Map<String, View> t, MergeOptions options, Into into) {
        Set<String> uuids = new LinkedHashSet<>(o.keySet());
        uuids.addAll(t.keySet());
        uuids.addAll(b.keySet());
        for (String uuid : uuids) {
            View bv = b.get(uuid), ov = o.get(uuid), tv = t.get(uuid);
            View any = ov != null ? ov : tv != null ? tv : bv;
            String name = "view " + any.qualified();
            MergeOptions.MergeSide res = options.resolution(any.schema(), any.name());
            if (same(bv, tv)) continue; // theirs unchanged: ours stands
            if (same(bv, ov)) {
                View clash = bv != null || tv == null ? null : o.values().stream()
                        .filter(x -> !x.uuid().equals(uuid) && Identifiers.same(x.qualified(), tv.qualified())).findFirst().orElse(null);
                if (clash == null) {
                    into.take().add(uuid);
                    into.outcomes().add(new MergeResult.TableOutcome(name, MergeResult.Action.TAKEN,
                            tv == null ? "dropped on theirs" : bv == null ? "created on theirs" : "changed on theirs only"));
                } else if (clash.definition().equals(tv.definition())) {
                    into.outcomes().add(new MergeResult.TableOutcome(name, MergeResult.Action.KEPT, "created on both sides the same way"));
                } else if (res == null) {
                    into.conflicts().add(new MergeResult.TableConflict(name, "created", 1, List.of(new MergeResult.KeyConflict(name, null,
                            clash.definition(), tv.definition()))));
                } else {
                    if (res == MergeOptions.MergeSide.THEIRS) {
                        into.take().add(uuid);
                        into.take().add(clash.uuid()); // ours ends: theirs does not show it
                    }
                    into.outcomes().add(new MergeResult.TableOutcome(name, MergeResult.Action.SETTLED, "created on both sides: " + side(res) + " taken"));
                }
                continue;
            }
            if (ov == null && tv == null || ov != null && tv != null && ov.sameAs(tv)) {
                into.outcomes().add(new MergeResult.TableOutcome(name, MergeResult.Action.KEPT, "changed the same way on both sides"));
                continue;
            }
            if (res == null) {
                into.conflicts().add(new MergeResult.TableConflict(name, "view", 1, List.of(new MergeResult.KeyConflict(name,
                        text(bv), text(ov), text(tv)))));
            } else {
                if (res == MergeOptions.MergeSide.THEIRS) into.take().add(uuid);
                into.outcomes().add(new MergeResult.TableOutcome(name, MergeResult.Action.SETTLED, "changed on both sides: " + side(res) + " taken"));
            }
        }
    }

    private static boolean same(View a, View b) {
        if (a == null || b == null) return a == b;
        return a.sameAs(b);
    }

    private static String text(View v) {
        return v == null ? "dropped" : v.qualified() + ": " + v.definition().replace('\u001f', ' ');
    }

    private static String side(MergeOptions.MergeSide s) {
        return Objects.requireNonNull(s).name().toLowerCase(Locale.ROOT);
    }
}
