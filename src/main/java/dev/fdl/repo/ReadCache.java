package dev.fdl.repo;

import dev.fdl.ducklake.read.TableSummary;

import java.nio.file.Path;

/**
 * The local cache a reader of versions works from: their catalogs ({@link CatalogSource}), a
 * remote repository's data files mirrored locally, and per-data-file statistics kept between
 * runs. Implemented by {@code dev.fdl.cache.CatalogCache}, which the CLI makes once and passes in.
 */
public interface ReadCache extends CatalogSource {
    /** The local folder a remote repository's data files are mirrored into, laid out like its data folder. */
    Path dataFolder(Repository repo);

    /** The statistics of {@code repo}'s data files kept between runs ({@link TableSummary.Store}). */
    TableSummary.Store unitStats(Repository repo);
}
