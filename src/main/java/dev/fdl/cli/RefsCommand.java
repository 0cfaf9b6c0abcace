package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.util.Json;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.ObjectStore;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;
import java.util.List;
import java.util.function.Predicate;

/** {@code fdl refs}: every branch and tag with the version it points at. */
final class RefsCommand implements Runnable {
    private CommandSpec spec;

    /** The picocli model of {@code fdl refs}, built in code ({@link Specs}: no reflection at start). */
    static CommandSpec spec() {
        RefsCommand c = new RefsCommand();
        c.spec = Specs.command("refs", c, "List branches and tags with their versions (* marks the checked-out branch).");
        c.spec.addOption(Specs.flag("Print the refs as JSON.", "--json"));
        c.spec.addOption(RepoOption.spec());
        return c.spec;
    }

    @Override
    public void run() {
        ParseResult given = spec.commandLine().getParseResult();
        boolean json = given.hasMatchedOption("--json");
        try (ObjectStore store = RepoOption.of(given).openStore()) {
            if (!store.canList())
                spec.commandLine().getErr().println("fdl: note: an HTTP(S) root cannot be listed: only HEAD's branch is shown");
            Repository repo = Repository.open(store);
            print(spec.commandLine().getOut(), spec.commandLine().getErr(), repo, DefaultRef.checkedOutBranch(CommandContext.of(spec).cwd().get(), repo),
                    r -> true, json);
        }
    }

    /**
     * Prints the refs {@code filter} keeps, git-branch style or as JSON, {@code head} marked (as
     * git's {@code *} marks the checked-out branch: {@link DefaultRef#checkedOutBranch}).
     */
    static void print(PrintWriter out, PrintWriter err, Repository repo, RefName head, Predicate<RefValue> filter, boolean json) {
        List<RefValue> refs = repo.listRefs(warnBroken(err)).stream().filter(filter).toList();
        if (json) {
            ArrayNode a = Json.MAPPER.createArrayNode();
            for (RefValue r : refs) {
                ObjectNode o = a.addObject();
                o.put("kind", r.kind() == RefValue.Kind.BRANCH ? "branch" : "tag");
                o.put("name", r.name().name());
                o.put("ref", r.key());
                o.put("version", r.versionId());
                o.put("head", r.kind() == RefValue.Kind.BRANCH && r.name().equals(head));
            }
            Out.json(out, a);
            return;
        }
        int width = refs.stream().mapToInt(r -> r.decoration().length()).max().orElse(0);
        for (RefValue r : refs) {
            boolean isHead = r.kind() == RefValue.Kind.BRANCH && r.name().equals(head);
            String msg = repo.readVersion(r.versionId()).map(VersionInfo::message).orElse("(missing version.json)");
            out.printf("%s %-" + width + "s  %s  %s%n", isHead ? "*" : " ", r.decoration(), r.versionId(), firstLine(msg));
        }
        out.flush();
    }

    /**
     * Warns on stderr of a ref that cannot be read and lets the listing go on, as git does
     * ("warning: ignoring broken ref"); gc and expire refuse instead.
     */
    static java.util.function.Consumer<dev.fdl.FdlException> warnBroken(PrintWriter err) {
        return e -> {
            err.println("warning: ignoring a broken ref: " + e.getMessage() + " (fdl verify lists every problem)");
            err.flush();
        };
    }

    static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
