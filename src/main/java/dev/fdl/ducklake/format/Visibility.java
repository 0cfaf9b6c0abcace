package dev.fdl.ducklake.format;

/**
 * The one visibility rule of DuckLake (DUCKLAKE.md "Snapshots and visibility"; DuckLake 1.0
 * specification): a row with {@code begin_snapshot}/{@code end_snapshot} is visible at snapshot S
 * when {@code begin_snapshot <= S AND (end_snapshot IS NULL OR S < end_snapshot)}. Every query of
 * fdl that asks what a snapshot sees builds its condition here.
 */
public final class Visibility {
    private Visibility() {}

    /** The SQL condition (with a space either side) that the unqualified row is visible at {@code snapshot}. */
    public static String at(long snapshot) {
        return at("", Long.toString(snapshot));
    }

    /** As {@link #at(long)} for the row of table alias {@code alias} (empty: unqualified). */
    public static String at(String alias, long snapshot) {
        return at(alias, Long.toString(snapshot));
    }

    /**
     * The SQL condition that the row of {@code alias} (empty: unqualified) is visible at the snapshot
     * the SQL expression {@code snapshot} gives (a literal, or a column such as {@code s.snapshot_id}).
     */
    public static String at(String alias, String snapshot) {
        return at(alias, "begin_snapshot", "end_snapshot", snapshot);
    }

    /**
     * As {@link #at(String, String)} for a row whose snapshot range is held by columns
     * {@code beginColumn} and {@code endColumn} (unquoted identifiers): inlined-data tables of
     * DuckLake 1.1 name them {@code _ducklake_begin_snapshot} and {@code _ducklake_end_snapshot}.
     */
    public static String at(String alias, String beginColumn, String endColumn, String snapshot) {
        String a = alias.isEmpty() ? "" : alias + ".";
        return " " + a + beginColumn + " <= " + snapshot + " AND (" + a + endColumn + " IS NULL OR "
                + snapshot + " < " + a + endColumn + ") ";
    }

    /**
     * The SQL condition (with a space either side) that the row of {@code alias} (empty:
     * unqualified) has not ended: it is visible at the newest snapshot if it began by then, and it
     * is the kind of row a new snapshot may end (in a working catalog every row began at or before
     * the newest snapshot, so this is visibility at the newest snapshot).
     */
    public static String live(String alias) {
        return live(alias, "end_snapshot");
    }

    /**
     * As {@link #live(String)} for a row whose end is held by {@code endColumn} (an SQL column
     * reference, quoted where it must be: inlined-data tables of DuckLake 1.1 name it
     * {@code _ducklake_end_snapshot}).
     */
    public static String live(String alias, String endColumn) {
        return " " + (alias.isEmpty() ? "" : alias + ".") + endColumn + " IS NULL ";
    }

    /** The same rule in Java, for rows already read ({@code end} null: not ended). */
    public static boolean visible(long begin, Long end, long snapshot) {
        return begin <= snapshot && (end == null || snapshot < end);
    }
}
