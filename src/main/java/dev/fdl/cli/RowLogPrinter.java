package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.history.RowLog;
import dev.fdl.repo.HistoryWalk;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.util.Json;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Prints {@code fdl log --table}: the history of rows ({@link RowLog}), kept apart so that plain {@code fdl log} loads no DuckDB. */
final class RowLogPrinter {
    private static final String BOLD = "\u001b[1;33m", RESET = "\u001b[0m";

    private RowLogPrinter() {}

    static void print(CommandSpec spec, Repository repo, VersionInfo start, ParseResult given, boolean json) {
        CommandContext context = CommandContext.of(spec);
        List<String> pairs = List.of(given.matchedOptionValue("--key", new String[0]));
        HistoryWalk.Parents parents = given.hasMatchedOption("--all") ? HistoryWalk.Parents.ALL : HistoryWalk.Parents.FIRST;
        RowLog log = new RowLog(repo, context.cache(), context.duckDb(), catalog -> DiffCommand.dataPath(spec, repo, dev.fdl.ducklake.read.ReadableCatalog.version(catalog)));
        List<RowLog.Entry> entries = log.run(new RowLog.Request(start, given.matchedOptionValue("--table", (String) null),
                RowLog.parseKey(pairs), given.matchedOptionValue("--where", (String) null), parents));
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            ArrayNode a = Json.MAPPER.createArrayNode();
            for (RowLog.Entry e : entries) {
                ObjectNode o = a.addObject();
                o.put("version", e.version().id());
                o.put("seq", e.version().seq());
                o.put("created_at", e.version().createdAt().toString());
                o.put("author", e.version().author().toString());
                o.put("message", e.version().message());
                o.put("change", e.change().name().toLowerCase(java.util.Locale.ROOT));
                o.set("before", rows(e.beforeJson()));
                o.set("after", rows(e.afterJson()));
            }
            Out.json(out, a);
            return;
        }
        boolean terminal = System.console() != null;
        for (int i = 0; i < entries.size(); i++) {
            RowLog.Entry e = entries.get(i);
            VersionInfo v = e.version();
            if (i > 0) out.println();
            out.println("version " + v.id() + "  " + e.change().name().toLowerCase(java.util.Locale.ROOT));
            out.println("Author:    " + v.author());
            out.println("Date:      " + v.createdAt());
            out.println("Seq:       " + v.seq());
            out.println();
            out.println("    " + RefsCommand.firstLine(v.message()));
            out.println();
            if (e.before().size() > 1 || e.after().size() > 1) {
                changedRows(out, e);
                continue;
            }
            List<Map<String, String>> shown = e.after().isEmpty() ? e.before() : e.after();
            Map<String, String> was = e.before().size() == 1 && e.after().size() == 1 ? e.before().get(0) : null;
            for (Map<String, String> row : shown) {
                for (Map.Entry<String, String> c : row.entrySet()) {
                    String value = c.getValue() == null ? "NULL" : c.getValue();
                    boolean changed = was != null && !Objects.equals(was.get(c.getKey()), c.getValue());
                    String text = changed ? (was.get(c.getKey()) == null ? "NULL" : was.get(c.getKey())) + " -> " + value : value;
                    out.println("    " + (changed && terminal ? BOLD : "") + (changed && !terminal ? "* " : "  ") + c.getKey() + ": " + text
                            + (changed && terminal ? RESET : ""));
                }
            }
        }
        out.flush();
    }

    /**
     * Of several rows chosen, only those the version changed, as a diff shows them: {@code -} before
     * each column of a row it removed or changed away, {@code +} of a row it added or changed to.
     */
    private static void changedRows(PrintWriter out, RowLog.Entry e) {
        List<Map<String, String>> removed = e.onlyBefore(), added = e.onlyAfter();
        out.println("    " + e.before().size() + " row(s) before, " + e.after().size() + " after; " + removed.size() + " removed or changed, "
                + added.size() + " added or changed:");
        for (List<Map<String, String>> rows : List.of(removed, added)) {
            String mark = rows == removed ? "- " : "+ ";
            for (Map<String, String> row : rows) {
                out.println();
                for (Map.Entry<String, String> c : row.entrySet())
                    out.println("    " + mark + c.getKey() + ": " + (c.getValue() == null ? "NULL" : c.getValue()));
            }
        }
    }

    private static ArrayNode rows(List<String> json) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        try {
            for (String j : json) {
                JsonNode n = Json.MAPPER.readTree(j);
                a.add(n);
            }
        } catch (IOException e) {
            throw new FdlException("cannot read a row DuckDB wrote as JSON: " + e.getMessage());
        }
        return a;
    }
}
