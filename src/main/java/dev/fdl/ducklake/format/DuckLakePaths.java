package dev.fdl.ducklake.format;

import dev.fdl.FdlException;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The one path rule of DuckLake: where the files a catalog names live (DUCKLAKE.md "Paths"; the
 * DuckLake 1.0 specification, and the extension's metadata manager: {@code FromRelativePath},
 * {@code GetCatalogForSnapshot}). Every reader of paths in fdl goes through it: the inspector and
 * gc/verify's file lists ({@link dev.fdl.ducklake.catalog.CatalogInspector#forEachFile}), the built-in reader ({@link dev.fdl.ducklake.read.SnapshotView}),
 * the importer (where a new file goes), commit steps 2 and 5.
 *
 * <ul>
 *   <li>{@code data_path} (metadata key, no scope) is used with its trailing separators trimmed and
 *       one {@code /} appended ({@code …/data}, {@code …/data/} and {@code …/data//} all mean
 *       {@code …/data/}); an empty or missing one stays empty.</li>
 *   <li>A schema's folder: NULL path → the data path; relative → data path + path; absolute →
 *       the path as recorded. This holds for a nested schema too (DuckLake 1.1
 *       {@code ducklake_schema.parent_schema_id}): its path is relative to the catalog's data path,
 *       never to its parent schema's folder, as the specification defines {@code path_is_relative}
 *       ("relative to the data_path of the catalog") and as the 1.1 extension reads it (its
 *       metadata manager resolves every schema row with {@code FromRelativePath(path,
 *       base_data_path)} and keeps the parent only for the name). So a schema {@code sales.europe}
 *       whose path is {@code europe/} puts table {@code orders} under {@code data/europe/orders/}.
 *       (Rule 4 resolved it through the parent, {@code data/sales/europe/orders/}: gc would have
 *       taken the real files for garbage.)</li>
 *   <li>A table's folder: NULL path → its schema's folder; relative → schema folder + path;
 *       absolute → the path as recorded.</li>
 *   <li>A data or delete file: relative → table folder + path; absolute → the path as recorded; a
 *       NULL path names no file and is refused.</li>
 *   <li>{@code path_is_relative} NULL with a path counts as relative (the extension itself fails on
 *       it; fdl's readers always read it so, and keeping it can only make gc keep more).</li>
 *   <li>Relative paths are concatenated as recorded, no separator added or removed, nothing
 *       decoded: a schema path {@code main} (no slash) puts table {@code t} at {@code data/maint/},
 *       {@code %20} stays three characters, {@code a//b} keeps its empty segment, exactly as the
 *       extension reads and writes them.</li>
 *   <li>An override data path (ATTACH's {@code DATA_PATH … OVERRIDE_DATA_PATH}) replaces the base of
 *       relative paths. fdl goes one step further than the extension for absolute paths: one that
 *       starts with the recorded data path follows the override too, because in a repository such a
 *       file is a repository file (commit step 2 accepts it, gc keeps it by its name under the data
 *       folder), so a moved or mirrored repository must find it where its other files are.</li>
 * </ul>
 */
public final class DuckLakePaths {
    /**
     * The version of this rule. Anything derived from it and kept (gc's cached file lists) is keyed
     * by it, so that a change of the rule can never act on lists made by the old one. Bump it with
     * every change of what {@link #of} resolves. 4: a SQLite catalog's {@code path_is_relative}
     * stored as text {@code true}/{@code false} is read as its value ({@link dev.fdl.ducklake.catalog.MetadataQueries}), where
     * the file-list reader took any text for false.
     */
    public static final int RULE_VERSION = 4;

    private final String base;
    private final String recorded;

    private DuckLakePaths(String base, String recorded) {
        this.base = base;
        this.recorded = recorded;
    }

    /**
     * The resolver of a catalog whose {@code data_path} is {@code recordedDataPath} (null when the
     * catalog records none), read with {@code override} as the data path (null: none).
     */
    public static DuckLakePaths of(String recordedDataPath, String override) {
        String recorded = dataPath(recordedDataPath);
        String base = override != null ? dataPath(override) : recorded;
        return new DuckLakePaths(base == null ? "" : base, recorded);
    }

    /**
     * A data path as DuckLake uses it: trailing {@code /} and {@code \} trimmed, one {@code /}
     * appended (the extension's {@code InitializeDataPath}); null stays null, empty stays empty.
     */
    public static String dataPath(String path) {
        if (path == null || path.isEmpty()) return path;
        int end = path.length();
        while (end > 0 && (path.charAt(end - 1) == '/' || path.charAt(end - 1) == '\\')) end--;
        return path.substring(0, end) + "/";
    }

    /** The data path relative paths resolve against (the override when there is one), ending in {@code /}, or empty. */
    public String base() {
        return base;
    }

    /**
     * A schema's folder from its own {@code path} and {@code path_is_relative} (either may be null):
     * relative to the data path whether or not the schema is nested (class comment).
     */
    public String schemaFolder(String path, Boolean relative) {
        return path == null ? base : resolve(base, path, relative);
    }

    /** One {@code ducklake_schema} row as paths need it (its parent does not move its folder). */
    public record SchemaRow(long id, String path, Boolean relative) {}

    /** The folder of every schema, by schema id ({@link #schemaFolder}). */
    public Map<Long, String> schemaFolders(Collection<SchemaRow> schemas) {
        Map<Long, String> folders = new HashMap<>();
        for (SchemaRow r : schemas) folders.put(r.id(), schemaFolder(r.path(), r.relative()));
        return folders;
    }

    /** A table's folder from its schema's folder and its own {@code path} and {@code path_is_relative}. */
    public String tableFolder(String schemaFolder, String path, Boolean relative) {
        return path == null ? schemaFolder : resolve(schemaFolder, path, relative);
    }

    /**
     * A data or delete file's location from its table's folder and its {@code path} and
     * {@code path_is_relative}.
     *
     * @param what names the file in the error, e.g. {@code "data file 7 of table 2 in catalog x"}
     * @throws FdlException (exit 1) when the path is NULL: such a row names no file
     */
    public String file(String tableFolder, String path, Boolean relative, String what) {
        if (path == null) {
            throw new FdlException(what + " has no path (ducklake path is NULL); the catalog looks corrupt");
        }
        return resolve(tableFolder, path, relative);
    }

    /**
     * The path a new schema or table gets, relative to its parent: its name and {@code /}, as the
     * extension names them (DUCKLAKE.md "Paths": {@code data/main/towns/}).
     */
    public static String newFolder(String name) {
        return name + "/";
    }

    /** Whether a row's {@code path_is_relative} makes its path relative: true or NULL. */
    public static boolean isRelative(Boolean relative) {
        return relative == null || relative;
    }

    private String resolve(String parent, String path, Boolean relative) {
        if (isRelative(relative)) return parent + path;
        if (recorded != null && !recorded.isEmpty() && !recorded.equals(base) && path.startsWith(recorded)) {
            return base + path.substring(recorded.length());
        }
        return path;
    }
}
