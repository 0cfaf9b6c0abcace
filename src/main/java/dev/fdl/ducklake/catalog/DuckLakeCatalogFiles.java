package dev.fdl.ducklake.catalog;


import java.nio.file.Path;
import java.util.function.Consumer;
import dev.fdl.ducklake.format.DuckLakePaths;

/**
 * {@link CatalogFiles} backed by {@code dev.fdl.ducklake.catalog.CatalogInspector}: opens a local DuckDB or SQLite
 * DuckLake catalog read-only and streams every data and delete file it names in any snapshot,
 * resolved by {@link DuckLakePaths}.
 */
final class DuckLakeCatalogFiles implements CatalogFiles {
    static final DuckLakeCatalogFiles INSTANCE = new DuckLakeCatalogFiles();

    private DuckLakeCatalogFiles() {}

    @Override
    public void forEach(Path catalogFile, Consumer<NamedFile> sink) {
        try (CatalogInspector c = CatalogInspector.open(catalogFile)) {
            c.forEachFile(sink);
        }
    }
}
