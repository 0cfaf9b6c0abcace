package dev.fdl.repo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.util.Json;
import dev.fdl.util.JsonRead;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code versions/<id>/unreachable.json}: {@code {"since": "<RFC 3339>", "by": "gc"}} (SPEC.md
 * sections 3 and 5). gc writes it (create-only) when it first finds a finished version that no ref
 * reaches, and removes it when a ref reaches the version again; the grace period of an unreachable
 * version runs from the mark. gc judges the mark's age by its last-modified time, as every other
 * age it judges; {@code since} (gc's clock when it wrote the mark) is there for people and
 * {@code fdl verify}.
 *
 * @param since when gc found the version unreachable (UTC, whole seconds)
 * @param by    who wrote the mark ({@code gc})
 * @param extra unknown keys, kept (SPEC.md section 3)
 */
public record UnreachableMark(Instant since, String by, Map<String, JsonNode> extra) {
    private static final Set<String> KNOWN = Set.of("since", "by");

    public UnreachableMark {
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(by, "by");
        extra = Map.copyOf(extra);
    }

    /** The mark gc writes at {@code now}. */
    public static UnreachableMark byGc(Instant now) {
        return new UnreachableMark(now.truncatedTo(ChronoUnit.SECONDS), "gc", Map.of());
    }

    /**
     * Parses unreachable.json strictly; {@code file} names it in errors.
     *
     * @throws FdlException exit 1 (corrupt repository file) naming the file and the key when it does
     *                      not parse, lacks {@code since} or {@code by}, or {@code since} is no RFC 3339 time
     */
    public static UnreachableMark parse(byte[] bytes, String file) {
        ObjectNode o = JsonRead.parseObject(bytes, file);
        Instant since = JsonRead.time(o, "since", file);
        return new UnreachableMark(since, JsonRead.string(o, "by", file), JsonRead.extras(o, KNOWN));
    }

    /** The JSON form, unknown keys kept. */
    public byte[] toBytes() {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("since", since.truncatedTo(ChronoUnit.SECONDS).toString());
        o.put("by", by);
        extra.forEach(o::set);
        return Json.bytes(o);
    }
}
