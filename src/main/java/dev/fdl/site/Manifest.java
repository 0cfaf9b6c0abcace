package dev.fdl.site;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.repo.ParentStat;
import dev.fdl.store.ObjectBytes;
import dev.fdl.store.ObjectStore;
import dev.fdl.util.Json;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The site's manifest ({@code <prefix>manifest.json}): per page key, the SHA-256 and size of what
 * was written, the page's inputs and a version page's change over its parent, so that a re-run
 * writes only the pages whose content changed and renders only those whose inputs did.
 */
final class Manifest {
    /** The manifest's name under the site prefix. */
    static final String FILE = "manifest.json";

    private Manifest() {}

    /**
     * A page as the manifest records it: SHA-256 and size of what was written, its inputs (null:
     * none recorded) and, for a version page, the version's change over its parent (null: not
     * shown), which the dataset page's history chart takes for the versions not rendered again.
     */
    record Recorded(String sha256, long bytes, String inputs, List<ParentStat.TableStat> stat) {}

    /**
     * The manifest's pages at {@code key}; empty when there is none or it cannot be read (a damaged
     * manifest only costs a full rewrite). A manifest of fdl 0.x maps each key to its SHA-256 alone.
     */
    static Map<String, Recorded> read(ObjectStore store, String key) {
        Map<String, Recorded> out = new HashMap<>();
        Optional<ObjectBytes> b = store.get(key);
        if (b.isEmpty()) return out;
        try {
            JsonNode pages = Json.MAPPER.readTree(b.get().bytes()).path("pages");
            pages.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().isTextual()
                    ? new Recorded(e.getValue().asText(), -1, null, null)
                    : new Recorded(e.getValue().path("sha256").asText(), e.getValue().path("bytes").asLong(-1), e.getValue().path("inputs").asText(null),
                    stat(e.getValue().get("stat")))));
        } catch (java.io.IOException | RuntimeException e) {
            // a damaged manifest only costs a full rewrite: every page is written again
        }
        return out;
    }

    /** The manifest recording {@code pages} (key to what was written), as JSON bytes. */
    static byte[] bytes(Map<String, Recorded> pages) {
        ObjectNode m = Json.MAPPER.createObjectNode();
        m.put("generator", "fdl site");
        ObjectNode p = m.putObject("pages");
        pages.forEach((k, r) -> {
            ObjectNode o = p.putObject(k);
            o.put("sha256", r.sha256());
            o.put("bytes", r.bytes());
            if (r.inputs() != null) o.put("inputs", r.inputs());
            if (r.stat() != null) {
                ParentStat.TableStat.toJson(o.putArray("stat"), r.stat());
            }
        });
        return Json.bytes(m);
    }

    /** A change over the parent as the manifest records it; null when it records none. */
    private static List<ParentStat.TableStat> stat(JsonNode a) {
        if (a == null || !a.isArray()) return null;
        List<ParentStat.TableStat> out = new ArrayList<>();
        for (JsonNode t : a)
            out.add(new ParentStat.TableStat(t.path("table").asText(), t.path("rows").asLong(), t.path("added").asLong(),
                    t.path("removed").isNumber() ? t.path("removed").asLong() : null, t.path("dropped").asBoolean(false)));
        return out;
    }
}
