package dev.fdl.ducklake;


import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * {@link CatalogFiles} backed by {@code dev.fdl.ducklake.Catalog}: opens a local DuckDB or SQLite
 * DuckLake catalog read-only and streams every data and delete file it names in any snapshot,
 * resolved by {@link DuckLakePaths}.
 */
final class DuckLakeCatalogFiles implements CatalogFiles {
    static final DuckLakeCatalogFiles INSTANCE = new DuckLakeCatalogFiles();

    private DuckLakeCatalogFiles() {}

    @Override
    public void forEach(Path catalogFile, Consumer<NamedFile> sink) {
        try (Catalog c = Catalog.open(catalogFile)) {
            String dataPath = c.dataPath() == null ? "" : DuckLakePaths.dataPath(c.dataPath());
            c.forEachFile(f -> sink.accept(new NamedFile(dataPath, f.location(), f.deleteFile(), f.bytes())));
        }
    }
}
