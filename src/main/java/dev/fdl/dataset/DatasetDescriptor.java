package dev.fdl.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.util.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * dataset.json: a Frictionless Data Package-shaped description of the dataset, checked against
 * the catalog and filled in at commit (SPEC.md section 3). A resource {@code name} is a DuckLake
 * table ({@code table} for schema main, else {@code schema.table}). Unknown keys are kept.
 */
public final class DatasetDescriptor {
    private DatasetDescriptor() {}

    /**
     * Checks {@code descriptor} against the catalog's tables and returns a filled copy.
     * Check: every described table and column exists, and every declared field {@code type} is
     * compatible with its column. Fill: for every table (adding resources for undescribed ones)
     * {@code rows}, and for every column a field with {@code type} and {@code ducklake_type}.
     *
     * @param descriptor the working copy's dataset.json, or null for none
     * @param file       its name, for messages
     * @param tables     the tables at the catalog's newest snapshot
     * @param fallbackName dataset name when the descriptor has none
     * @throws FdlException exit 1 listing every problem, each naming the resource/field
     */
    public static ObjectNode checkAndFill(ObjectNode descriptor, String file, List<TableFacts> tables, String fallbackName) {
        ObjectNode out = descriptor == null ? Json.MAPPER.createObjectNode() : descriptor.deepCopy();
        if (!out.has("name")) out.put("name", fallbackName);
        JsonNode res = out.get("resources");
        // the user's own file, not a repository file: say what to fix there
        if (res != null && !res.isArray())
            throw new FdlException(FdlException.Kind.FAILURE, "the working copy's " + file + ": key 'resources' must be an array of table "
                    + "descriptions ([{\"name\": \"<table>\", ...}]), not " + res.getNodeType().toString().toLowerCase(java.util.Locale.ROOT)
                    + "; fix it there (or remove the key: commit fills in every table)");
        ArrayNode resources = res == null ? out.putArray("resources") : (ArrayNode) res;

        Map<String, TableFacts> byName = new LinkedHashMap<>();
        for (TableFacts t : tables) byName.put(t.resourceName(), t);
        List<String> problems = new ArrayList<>();
        Map<String, ObjectNode> described = new LinkedHashMap<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < resources.size(); i++) {
            JsonNode r = resources.get(i);
            if (!r.isObject() || !r.path("name").isTextual()) {
                problems.add("resources[" + i + "] has no 'name' (it must name a table: 'table' or 'schema.table')");
                continue;
            }
            String name = r.get("name").asText();
            if (described.containsKey(name) || seen.contains(name)) {
                problems.add("resource '" + name + "' is described more than once (resources[" + i + "]); describe each table once");
                continue;
            }
            seen.add(name);
            TableFacts t = byName.get(name);
            if (t == null && isFilledOnly((ObjectNode) r)) {
                resources.remove(i--); // fdl added it at an earlier commit; its table is gone now
                continue;
            }
            if (t == null) {
                problems.add("resource '" + name + "': no table " + name + " in the catalog (tables: "
                        + (byName.isEmpty() ? "none" : String.join(", ", byName.keySet())) + ")");
                continue;
            }
            described.put(name, (ObjectNode) r);
            checkFields(file, (ObjectNode) r, t, problems);
        }
        if (!problems.isEmpty())
            throw new FdlException(FdlException.Kind.FAILURE, file + " does not match the catalog:\n  - "
                    + String.join("\n  - ", problems) + "\nfix " + file + " (or the data) and commit again");

        for (TableFacts t : tables) {
            ObjectNode r = described.get(t.resourceName());
            if (r == null) {
                r = resources.addObject();
                r.put("name", t.resourceName());
            }
            fill(r, t);
        }
        return out;
    }

    private static void checkFields(String file, ObjectNode r, TableFacts t, List<String> problems) {
        JsonNode schema = r.get("schema");
        if (schema == null || schema.isNull()) return;
        if (!schema.isObject()) {
            problems.add("resource '" + t.resourceName() + "': 'schema' must be an object");
            return;
        }
        JsonNode fields = schema.get("fields");
        if (fields == null || fields.isNull()) return;
        if (!fields.isArray()) {
            problems.add("resource '" + t.resourceName() + "': 'schema.fields' must be an array");
            return;
        }
        Map<String, String> cols = new LinkedHashMap<>();
        for (TableFacts.Column c : t.columns()) cols.put(c.name(), c.ducklakeType());
        for (int i = 0; i < fields.size(); i++) {
            JsonNode f = fields.get(i);
            if (!f.isObject() || !f.path("name").isTextual()) {
                problems.add("resource '" + t.resourceName() + "': schema.fields[" + i + "] has no 'name'");
                continue;
            }
            String name = f.get("name").asText();
            String type = cols.get(name);
            if (type == null && isFilledOnly((ObjectNode) f)) continue; // filled at an earlier commit; fill() drops it
            if (type == null) {
                problems.add("resource '" + t.resourceName() + "': field '" + name + "' is not a column of "
                        + t.resourceName() + " (columns: " + String.join(", ", cols.keySet()) + ")");
                continue;
            }
            JsonNode declared = f.get("type");
            if (declared != null && !declared.isNull() && !isFilledType((ObjectNode) f)) {
                if (!declared.isTextual() || !FrictionlessTypes.isKnown(declared.asText()))
                    problems.add("resource '" + t.resourceName() + "': field '" + name + "' has unknown type " + declared);
                else if (!FrictionlessTypes.compatible(declared.asText(), type))
                    problems.add("resource '" + t.resourceName() + "': field '" + name + "' is declared '"
                            + declared.asText() + "' but the column is " + type + " ('" + FrictionlessTypes.of(type) + "')");
            }
        }
    }

    /**
     * What {@link #withoutTables} did.
     *
     * @param descriptor the description without the removed resources (the input when none was removed)
     * @param removed    resource names removed: filled by fdl alone, or equal to the base version's
     *                   resource (the words stay in that version)
     * @param kept       resource names kept: they hold words no version has, which removing would lose
     */
    public record Removal(ObjectNode descriptor, List<String> removed, List<String> kept) {
        public Removal {
            removed = List.copyOf(removed);
            kept = List.copyOf(kept);
        }
    }

    /**
     * The description once tables are dropped ({@code fdl rm}, as {@code git rm} removes the file
     * from the working tree too): the resources describing {@code resourceNames} are removed when
     * nothing of the user's is lost, that is when fdl filled everything in them or the base version
     * describes the table exactly so. A resource with words of the user's no version has is kept,
     * for the user to remove (commit refuses to describe a table that does not exist).
     *
     * @param descriptor the working copy's description (not changed)
     * @param base       the base version's description, or null when there is none
     */
    public static Removal withoutTables(ObjectNode descriptor, java.util.Collection<String> resourceNames, ObjectNode base) {
        ObjectNode out = descriptor.deepCopy();
        List<String> removed = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        if (!(out.get("resources") instanceof ArrayNode resources)) return new Removal(descriptor, removed, kept);
        Map<String, JsonNode> inBase = new LinkedHashMap<>();
        if (base != null && base.get("resources") instanceof ArrayNode baseResources)
            for (JsonNode r : baseResources) if (r.path("name").isTextual()) inBase.putIfAbsent(r.get("name").asText(), r);
        for (int i = 0; i < resources.size(); i++) {
            JsonNode r = resources.get(i);
            if (!r.isObject() || !r.path("name").isTextual() || !resourceNames.contains(r.get("name").asText())) continue;
            String name = r.get("name").asText();
            if (isFilledOnly((ObjectNode) r) || r.equals(inBase.get(name))) {
                resources.remove(i--);
                if (!removed.contains(name)) removed.add(name);
            } else if (!kept.contains(name)) {
                kept.add(name);
            }
        }
        return new Removal(removed.isEmpty() ? descriptor : out, removed, kept);
    }

    /*
     * A version's dataset.json comes back into the working copy at checkout, filled. What fdl
     * filled (rows, ducklake_type, a type that is the column's own Frictionless type, resources
     * and fields with nothing else) is refilled from the catalog at the next commit, not checked
     * as if the user had declared it: a table replaced with other column types, or dropped, then
     * commits without editing the file. Anything the user wrote (a description, a title, a type
     * that differs from ducklake_type's) is still checked.
     */

    /** True when the field's {@code type} is the one fdl filled in from its {@code ducklake_type}. */
    static boolean isFilledType(ObjectNode f) {
        JsonNode type = f.get("type");
        JsonNode lake = f.get("ducklake_type");
        return type != null && type.isTextual() && lake != null && lake.isTextual()
                && type.asText().equals(FrictionlessTypes.of(lake.asText()));
    }

    /** True when a field or resource holds only what commit fills in. */
    static boolean isFilledOnly(ObjectNode node) {
        if (node.has("ducklake_type")) {
            for (var it = node.fieldNames(); it.hasNext(); )
                if (!java.util.Set.of("name", "type", "ducklake_type").contains(it.next())) return false;
            return !node.has("type") || isFilledType(node);
        }
        if (!node.has("rows")) return false;
        for (var it = node.fieldNames(); it.hasNext(); )
            if (!java.util.Set.of("name", "rows", "schema").contains(it.next())) return false;
        JsonNode schema = node.get("schema");
        if (schema == null) return true;
        if (!schema.isObject() || schema.size() > 1 || (schema.size() == 1 && !schema.has("fields"))) return false;
        JsonNode fields = schema.get("fields");
        if (fields == null) return true;
        if (!fields.isArray()) return false;
        for (JsonNode f : fields) if (!f.isObject() || !isFilledOnly((ObjectNode) f)) return false;
        return true;
    }

    /**
     * What {@code next} drops of what makes {@code previous} citable: its title and its licenses
     * (Frictionless {@code licenses}, or a single {@code license}). Empty when nothing is lost.
     */
    public static List<String> lostDescription(ObjectNode previous, ObjectNode next) {
        List<String> lost = new ArrayList<>();
        for (String key : new String[]{"title", "licenses", "license"}) {
            if (present(previous.get(key)) && !present(next.get(key)) && !(key.startsWith("license")
                    && (present(next.get("licenses")) || present(next.get("license")))))
                lost.add(key + " " + abbreviate(previous.get(key)));
        }
        return lost;
    }

    private static boolean present(JsonNode n) {
        return n != null && !n.isNull() && !(n.isTextual() && n.asText().isBlank()) && !(n.isContainerNode() && n.isEmpty());
    }

    private static String abbreviate(JsonNode n) {
        String t = n.isTextual() ? "'" + n.asText() + "'" : n.toString();
        return t.length() > 120 ? t.substring(0, 120) + "…" : t;
    }

    private static void fill(ObjectNode r, TableFacts t) {
        r.put("rows", t.rows());
        ObjectNode schema = r.has("schema") && r.get("schema").isObject() ? (ObjectNode) r.get("schema") : r.putObject("schema");
        ArrayNode old = schema.has("fields") && schema.get("fields").isArray() ? (ArrayNode) schema.get("fields") : null;
        Map<String, ObjectNode> byName = new LinkedHashMap<>();
        if (old != null) for (JsonNode f : old) byName.put(f.get("name").asText(), (ObjectNode) f);
        ArrayNode fields = Json.MAPPER.createArrayNode();
        for (TableFacts.Column c : t.columns()) {
            ObjectNode f = byName.containsKey(c.name()) ? byName.get(c.name()) : Json.MAPPER.createObjectNode().put("name", c.name());
            if (!f.has("type") || f.get("type").isNull() || isFilledType(f)) f.put("type", FrictionlessTypes.of(c.ducklakeType()));
            f.put("ducklake_type", c.ducklakeType());
            fields.add(f);
        }
        schema.set("fields", fields);
    }
}
