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
 * The format of the recorded row identity ({@code dev.fdl.ducklake.working.RowKey}): a
 * {@code ducklake_tag} row of the table, key {@value #TAG}, value a JSON array of column names;
 * and its reading at a snapshot of any catalog.
 */
public final class RowKeyTag {
    /** The {@code ducklake_tag} key of the recorded row identity. */
    public static final String TAG = "fdl.key";

    private RowKeyTag() {}

    /**
     * The key recorded for table {@code tableId} at {@code snapshot} in the catalog whose
     * {@code ducklake_tag} table is {@code tagTable} (qualified for {@code duck}); empty when none.
     */
    public static List<String> read(Connection duck, String tagTable, long tableId, long snapshot) throws SQLException {
        try (PreparedStatement ps = duck.prepareStatement("SELECT value FROM " + tagTable + " WHERE object_id = ? AND key = ? "
                + "AND" + Visibility.at("", "?") + "ORDER BY begin_snapshot DESC LIMIT 1")) {
            ps.setLong(1, tableId);
            ps.setString(2, TAG);
            ps.setLong(3, snapshot);
            ps.setLong(4, snapshot);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? parse(rs.getString(1)) : List.of();
            }
        }
    }

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
