package dev.fdl.cache;

import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;

import dev.fdl.FdlException;

import java.nio.file.Path;

/**
 * Local copies of version catalogs for readers ({@code fdl query}, the demo): catalogs are
 * immutable, so they are cached by repository id and version id (see {@link CatalogCache}) and
 * checked against version.json before use.
 */
public final class VersionCatalogs {
    private VersionCatalogs() {}

    /** Where data files of a remote repository are mirrored for the built-in reader (DuckDB core reads local files only). */
    public static Path dataCache(Repository repo) {
        return CatalogCache.fromEnvironment().repositoryFolder(repo.config().id()).resolve(CatalogCache.DATA);
    }

    /**
     * The local DuckDB file of {@code v}'s catalog, downloaded on first use.
     *
     * @throws FdlException exit 4 when the version is expired, exit 1 when its catalog is missing or does not match
     */
    public static Path local(Repository repo, VersionInfo v) {
        if (repo.readExpired(v.id()).isPresent())
            throw FdlException.notFound("version " + v.id() + " is expired: its catalog is gone");
        return CatalogCache.fromEnvironment().catalog(repo, v, false).orElseThrow(() -> new FdlException(
                "the catalog of version " + v.id() + " is missing from " + repo.root() + "; run fdl verify"));
    }
}
