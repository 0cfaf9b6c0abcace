package dev.fdl.repo;

import dev.fdl.util.Json;
import dev.fdl.util.JsonRead;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;

/** {@code versions/<id>/expired.json}: {@code {"expired_at": "<RFC 3339>", "reason": "retention"}} (SPEC.md section 3). */
public record ExpiredInfo(Instant expiredAt, String reason, Map<String, JsonNode> extra) {
    private static final Set<String> KNOWN = Set.of("expired_at", "reason");

    public ExpiredInfo {
        extra = Map.copyOf(extra);
    }

    /** Parses expired.json strictly; {@code file} names it in errors. */
    public static ExpiredInfo parse(byte[] bytes, String file) {
        ObjectNode o = JsonRead.parseObject(bytes, file);
        Instant expiredAt = JsonRead.time(o, "expired_at", file);
        return new ExpiredInfo(expiredAt, JsonRead.string(o, "reason", file), JsonRead.extras(o, KNOWN));
    }

    /** The JSON form, unknown keys kept. */
    public byte[] toBytes() {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("expired_at", expiredAt.truncatedTo(ChronoUnit.SECONDS).toString());
        o.put("reason", reason);
        extra.forEach(o::set);
        return Json.bytes(o);
    }
}
