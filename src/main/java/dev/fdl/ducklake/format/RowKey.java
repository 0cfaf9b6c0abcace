package dev.fdl.ducklake.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.util.Json;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The row identity of a table, as the last {@code fdl import --mode sync --key cols} named it,
 * recorded in the catalog so that {@code fdl diff} reports changed rows (old → new) without
 * {@code --key} (docs/data.md "The recorded key").
 *
 * <p>It is a DuckLake table tag ({@code ducklake_tag}: {@code object_id} = the table id, key
 * {@value #TAG}, value a JSON array of column names), so it lives in the working catalog and in
 * every version's catalog, travels through checkout and commit like every catalog row, and follows
 * DuckLake's snapshot rules: a new key ends the previous tag row ({@code end_snapshot}) and begins
 * its own in the sync's snapshot ({@code working.NewSnapshot.recordRowKey}); a sync without
 * {@code --key} uses it, {@code sync --no-key} ends it (the whole row is the identity again). The
 * DuckLake extension keeps tags it does not use (its own key is {@code comment}); readers ignore
 * this one. This class holds the format and its reading, at a snapshot of any catalog
 * ({@link #read}) or at a working catalog's newest snapshot ({@link #current}).
 */
public final class RowKey {
    /** The {@code ducklake_tag} key of the recorded row identity. */
    public static final String TAG = "fdl.key";

    private RowKey() {}

    /**
     * The key recorded for table {@code tableId} at the newest snapshot of the working catalog
     * (SQLite) {@code catalog}; empty when none.
     */
    public static List<String> current(Connection catalog, long tableId) throws SQLException {
        try (PreparedStatement ps = catalog.prepareStatement(
                "SELECT value FROM ducklake_tag WHERE object_id = ? AND key = ? AND" + Visibility.live(""))) {
            ps.setLong(1, tableId);
            ps.setString(2, TAG);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? parse(rs.getString(1)) : List.of();
            }
        }
    }

    /**
     * The key recorded for table {@code tableId} at {@code snapshot} in the catalog whose
     * {@code ducklake_tag} table is {@code tagTable} (qualified for {@code duck}); empty when none.
     */
    public static List<String> read(Connection duck, String tagTable, long tableId, long snapshot) throws SQLException {
        return recorded(duck, tagTable, tableId, snapshot).map(Recorded::columns).orElse(List.of());
    }

    /** A recorded key: its columns (empty for a tag value that is not a key) and the snapshot its tag began in. */
    public record Recorded(List<String> columns, long since) {}

    /** As {@link #read}, with the snapshot the key's tag began in: the key holds unchanged from it to {@code snapshot}; empty when none. */
    public static java.util.Optional<Recorded> recorded(Connection duck, String tagTable, long tableId, long snapshot) throws SQLException {
        try (PreparedStatement ps = duck.prepareStatement("SELECT value, begin_snapshot FROM " + tagTable + " WHERE object_id = ? AND key = ? "
                + "AND" + Visibility.at("", "?") + "ORDER BY begin_snapshot DESC LIMIT 1")) {
            ps.setLong(1, tableId);
            ps.setString(2, TAG);
            ps.setLong(3, snapshot);
            ps.setLong(4, snapshot);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? java.util.Optional.of(new Recorded(parse(rs.getString(1)), rs.getLong(2))) : java.util.Optional.empty();
            }
        }
    }

    /** The tag value of {@code key}: a JSON array of its column names. */
    public static String json(List<String> key) {
        try {
            return Json.MAPPER.writeValueAsString(key);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A tag value that is not a JSON array of strings (written by someone else) counts as no key. */
    public static List<String> parse(String value) {
        try {
            JsonNode n = value == null ? null : Json.MAPPER.readTree(value);
            if (n == null || !n.isArray() || n.isEmpty()) return List.of();
            List<String> key = new ArrayList<>();
            for (JsonNode c : n) {
                if (!c.isTextual()) return List.of();
                key.add(c.asText());
            }
            return List.copyOf(key);
        } catch (JsonProcessingException e) {
            return List.of();
        }
    }
}
