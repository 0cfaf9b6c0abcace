package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.util.Json;
import dev.fdl.repo.RefValue;

import java.io.PrintWriter;

/** The one-line (or JSON) report of a ref created or deleted. */
final class RefCommandOutput {
    private RefCommandOutput() {}

    static void print(PrintWriter out, boolean json, String action, RefValue r) {
        String kind = r.kind() == RefValue.Kind.BRANCH ? "branch" : "tag";
        if (json) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("action", action);
            o.put("kind", kind);
            o.put("name", r.name().name());
            o.put("ref", r.key());
            o.put("version", r.versionId());
            Out.json(out, o);
        } else {
            out.println((action.equals("created") ? "Created " : "Deleted ") + kind + " '" + r.name() + "' "
                    + (action.equals("created") ? "at " : "(was ") + r.versionId() + (action.equals("created") ? "" : ")"));
            out.flush();
        }
    }
}
