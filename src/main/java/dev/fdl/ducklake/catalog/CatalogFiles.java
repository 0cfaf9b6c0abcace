package dev.fdl.ducklake.catalog;

import java.nio.file.Path;
import java.util.function.Consumer;
import dev.fdl.ducklake.format.DuckLakePaths;

/**
 * Reads which files a DuckLake catalog names: every data and delete file of every snapshot it
 * keeps (SPEC.md section 5: gc must never delete a file a live catalog names in any snapshot).
 * The path rule itself is {@link DuckLakePaths}; retention only consumes it.
 */
@FunctionalInterface
public interface CatalogFiles {
    /**
     * Calls {@code sink} once per file named by the catalog in the local file {@code catalogFile}
     * (a DuckDB or SQLite DuckLake catalog).
     *
     * @throws dev.fdl.FdlException when the file is not a readable DuckLake catalog (naming it)
     */
    void forEach(Path catalogFile, Consumer<NamedFile> sink);

    /**
     * The version of the rule that turns catalog rows into locations; lists kept from an earlier
     * call (gc's cache) are used only by a reader of the same version.
     */
    default int ruleVersion() {
        return DuckLakePaths.RULE_VERSION;
    }

    /** The reader for real DuckLake catalogs ({@code dev.fdl.ducklake.catalog.CatalogInspector}). */
    static CatalogFiles duckLake() {
        return DuckLakeCatalogFiles.INSTANCE;
    }
}
