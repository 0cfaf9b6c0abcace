package dev.fdl.ducklake.rewrite;

import dev.fdl.FdlException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakePaths;

/**
 * Sets a catalog's {@code data_path} (SPEC.md section 4, commit step 2): files recorded
 * relative to it follow it; files recorded with an absolute location outside it are reported,
 * for the caller to refuse.
 */
public final class DataPath {
    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://.+");

    private DataPath() {}

    /**
     * Sets {@code data_path} of a catalog of either kind to an absolute location (a path
     * separator is appended if missing) and lists every file the catalog names whose resolved
     * location lies outside it. Files inside it are accepted, relative or not.
     *
     * @param catalog the catalog file, changed in place
     * @param absoluteDataPath {@code /abs/path/data/}, {@code s3://bucket/prefix/data/}, …
     * @return locations of files recorded with an absolute path outside the new data path (empty if none)
     * @throws FdlException (exit 2) if the data path is not absolute; (exit 1) if the file is not a
     *     DuckLake catalog or cannot be written. Nothing is changed then.
     */
    public static List<String> set(Path catalog, String absoluteDataPath) {
        if (absoluteDataPath == null || !(absoluteDataPath.startsWith("/") || SCHEME.matcher(absoluteDataPath).matches())) {
            throw FdlException.usage("data path must be an absolute location (/abs/path/ or scheme://…): " + absoluteDataPath);
        }
        String dataPath = DuckLakePaths.dataPath(absoluteDataPath);
        try (CatalogInspector writable = CatalogInspector.open(catalog, false)) {
            Connection c = writable.connection();
            int updated;
            try (PreparedStatement ps = c.prepareStatement("UPDATE ducklake_metadata SET value = ? WHERE key = 'data_path' AND scope IS NULL")) {
                ps.setString(1, dataPath);
                updated = ps.executeUpdate();
            }
            if (updated == 0) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO ducklake_metadata (key, value) VALUES ('data_path', ?)")) {
                    ps.setString(1, dataPath);
                    ps.executeUpdate();
                }
            }
        } catch (SQLException e) {
            throw Sql.failure("setting the data path of", catalog, e);
        }
        List<String> outside = new ArrayList<>();
        try (CatalogInspector reread = CatalogInspector.open(catalog)) {
            reread.forEachFile(f -> {
                if (!inside(f.location(), dataPath)) {
                    outside.add(f.location());
                }
            });
        }
        return outside;
    }

    /** Whether a location lies under a data path, after resolving {@code .} and {@code ..} segments. */
    static boolean inside(String location, String dataPath) {
        return normalize(location).startsWith(normalize(dataPath));
    }

    private static String normalize(String location) {
        if (!location.contains("/./") && !location.contains("/../") && !location.endsWith("/..") && !location.endsWith("/.")) {
            return location;
        }
        String[] parts = location.split("/", -1);
        List<String> out = new ArrayList<>();
        for (String part : parts) {
            if (part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                if (out.size() > 1) {
                    out.remove(out.size() - 1);
                }
                continue;
            }
            out.add(part);
        }
        return String.join("/", out);
    }
}
