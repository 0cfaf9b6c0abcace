package dev.fdl.ducklake.working;

import dev.fdl.ducklake.catalog.WholeRows;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** A catalog row as {@link CatalogMatch} copies it: its values by column name, and its rowid (for rows of the working catalog). */
final class CatalogRow {
    final Map<String, Object> values = new LinkedHashMap<>();
    long rowid;

    /** A copy of {@code row} whose values may be changed (ids mapped) before it is inserted elsewhere. */
    static CatalogRow of(WholeRows.Row row) {
        CatalogRow r = new CatalogRow();
        r.rowid = row.rowid();
        r.values.putAll(row.values());
        return r;
    }

    Long num(String c) {
        Object o = values.get(c);
        return o == null ? null : ((Number) o).longValue();
    }

    String text(String c) {
        Object o = values.get(c);
        return o == null ? null : o.toString();
    }

    /** Same columns with equal values, numbers compared by value whatever their Java type. */
    static boolean alike(CatalogRow a, CatalogRow b) {
        if (!a.values.keySet().equals(b.values.keySet())) return false;
        for (Map.Entry<String, Object> e : a.values.entrySet()) {
            Object x = e.getValue(), y = b.values.get(e.getKey());
            boolean same = x instanceof Number n && y instanceof Number m ? n.longValue() == m.longValue() : Objects.equals(x, y);
            if (!same) return false;
        }
        return true;
    }

}
