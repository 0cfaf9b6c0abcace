package dev.fdl.check;

/**
 * An SQL check of dataset.json's {@code fdl:checks}: one read-only query whose rows are the
 * violations, run over the version's tables (each a view, {@code schema.table}; main's also bare).
 *
 * @param name its {@code name}, unique in the list
 * @param sql  its {@code sql}
 * @param warn true for {@code "level": "warn"} (reported and recorded), false for {@code error} (refuses)
 */
public record SqlCheck(String name, String sql, boolean warn) {}
