package dev.fdl.repo;

import java.nio.file.Path;

/**
 * Where a version's catalog comes from as a local DuckDB file, checked against version.json
 * (size and SHA-256, SPEC.md section 4, checkout). Implemented by {@code dev.fdl.cache.CatalogCache};
 * the CLI passes the cache in, so {@code repo} never reaches for one itself.
 */
public interface CatalogSource {
    /**
     * The local DuckDB file of {@code version}'s catalog. Callers read it and never change it.
     *
     * @throws dev.fdl.FdlException exit 4 when the version is expired; exit 1 when its catalog is
     *                              missing from the repository or does not match version.json
     */
    Path versionCatalog(Repository repo, VersionInfo version);
}
