package dev.fdl.ducklake.convert;

import java.util.Objects;
import dev.fdl.ducklake.CatalogKind;

/**
 * What a catalog conversion did.
 *
 * @param sourceKind kind of the source catalog (detected)
 * @param targetKind kind written
 * @param tables number of {@code ducklake_*} tables copied
 * @param rows number of rows copied over all tables
 * @param storage for a DuckDB target, {@code duckdb-} + its storage version (e.g.
 *     {@code duckdb-v1.5.0}, SPEC.md {@code catalog.storage}); null for SQLite
 * @param bytes size of the written file in bytes
 */
public record ConversionResult(CatalogKind sourceKind, CatalogKind targetKind, int tables, long rows,
                               String storage, long bytes) {
    public ConversionResult {
        Objects.requireNonNull(sourceKind, "sourceKind");
        Objects.requireNonNull(targetKind, "targetKind");
    }
}
