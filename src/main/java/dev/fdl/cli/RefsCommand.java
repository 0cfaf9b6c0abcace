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
            print(spec.commandLine().getOut(), spec.commandLine().getErr(), repo, DefaultRef.checkedOut(CommandContext.of(spec).cwd().get(), repo),
                    r -> true, json);
        }
    }

    /**
     * Prints the refs {@code filter} keeps, git-branch style or as JSON, {@code checkedOut}'s branch
     * marked (as git's {@code *} marks the checked-out branch: {@link DefaultRef#checkedOut}). A
     * branch the working copy here is on that its first commit creates is listed too, as git lists
     * a branch {@code checkout -b} made: at its start version, said to have no commit yet (JSON:
     * {@code "pending": true}).
     */
    static void print(PrintWriter out, PrintWriter err, Repository repo, DefaultRef.CheckedOut checkedOut, Predicate<RefValue> filter, boolean json) {
        List<RefValue> listed = repo.listRefs(warnBroken(err));
        RefValue toCreate = checkedOut.toCreate(listed).filter(filter).orElse(null);
        List<RefValue> refs = withBranch(listed.stream().filter(filter).toList(), toCreate);
        RefName head = checkedOut.branch();
        if (json) {
            ArrayNode a = Json.MAPPER.createArrayNode();
            for (RefValue r : refs) {
                ObjectNode o = a.addObject();
                o.put("kind", r.kind() == RefValue.Kind.BRANCH ? "branch" : "tag");
                o.put("name", r.name().name());
                o.put("ref", r.key());
                o.put("version", r.versionId());
                o.put("head", r.kind() == RefValue.Kind.BRANCH && r.name().equals(head));
                if (r == toCreate) o.put("pending", true);
            }
            Out.json(out, a);
            return;
        }
        int width = refs.stream().mapToInt(r -> r.decoration().length()).max().orElse(0);
        for (RefValue r : refs) {
            boolean isHead = r.kind() == RefValue.Kind.BRANCH && r.name().equals(head);
            String msg = r == toCreate ? "(no commit yet: the first commit creates the branch in the repository)"
                    : repo.readVersion(r.versionId()).map(VersionInfo::message).orElse("(missing version.json)");
            out.printf("%s %-" + width + "s  %s  %s%n", isHead ? "*" : " ", r.decoration(), r.versionId(), firstLine(msg));
        }
        out.flush();
    }

    /** {@code refs} (branches then tags, each sorted by name) with {@code branch} in its place among the branches; as they are when null. */
    private static List<RefValue> withBranch(List<RefValue> refs, RefValue branch) {
        if (branch == null) return refs;
        List<RefValue> all = new java.util.ArrayList<>(refs);
        int at = 0;
        while (at < all.size() && all.get(at).kind() == RefValue.Kind.BRANCH && all.get(at).name().name().compareTo(branch.name().name()) < 0) at++;
        all.add(at, branch);
        return all;
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
