package dev.fdl.cli;

import dev.fdl.util.Plural;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.util.Json;
import dev.fdl.repo.RevisionRange;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.HistoryWalk;
import dev.fdl.repo.ParentStat;
import dev.fdl.repo.Repository;
import dev.fdl.repo.Resolved;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.ObjectStore;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code fdl log}: history from a ref, newest first, expired versions marked (SPEC.md section 4, log). */
final class LogCommand implements Runnable {
    private CommandSpec spec;

    /** The picocli model of {@code fdl log}, built in code ({@link Specs}: no reflection at start). */
    static CommandSpec spec() {
        LogCommand c = new LogCommand();
        c.spec = Specs.command("log", c,
                "Show versions from a ref (default: inside a working copy its branch, else HEAD) following parents, newest first, decorated with the refs that point at them; expired versions are listed and marked.");
        c.spec.addPositional(picocli.CommandLine.Model.PositionalParamSpec.builder().index("0..*").arity("0..*").type(String[].class)
                .paramLabel("<ref-or-version>").description("Where history starts. Default: inside a working copy its branch, else HEAD. "
                        + "Takes <ref>~N, <ref>^N, <ref>@{YYYY-MM-DD}; <a>..<b>: the versions <b> reaches and <a> does not, as in git. "
                        + "-<N> is -n <N>, as in git.").build());
        c.spec.addOption(Specs.option(int.class, "N", "Show at most N versions (negative: all).", "-n", "--max-count"));
        c.spec.addOption(Specs.flag("One line per version.", "--oneline"));
        c.spec.addOption(Specs.flag("Draw the history as a graph left of the versions, as git log --graph does: * a version, "
                + "| a line of history, \\ where a merge version joins a second line, / where two lines meet at the version they forked from.", "--graph"));
        c.spec.addOption(Specs.flag("Follow only the first parent of merge versions: the versions the branch itself "
                + "pointed at, each merge standing for what it brought in.", "--first-parent"));
        c.spec.addOption(Specs.flag("Print as JSON.", "--json"));
        c.spec.addOption(Specs.flag("Say who signed each version, checking its signature against the allowed signers fdl.json names "
                + "(docs/signing.md).", "--show-signature"));
        c.spec.addOption(Specs.flag("Per version and table, the rows added and removed (a changed row counts as both), "
                + "from the catalogs alone: no data file is read.", "--stat"));
        c.spec.addOption(Specs.option(String.class, "[schema.]table", "The history of rows of this table (with --key or --where): "
                + "the versions that added, changed or removed them, with their values there; first parents unless --all.", "--table"));
        c.spec.addOption(Specs.option(String[].class, "col=value", "With --table: the row, by its key's values (repeat for several columns).", "--key"));
        c.spec.addOption(Specs.option(String.class, "SQL", "With --table: the rows matching this read-only SQL expression.", "--where"));
        c.spec.addOption(Specs.flag("The history of every ref, as git log --all: the versions any branch or tag reaches "
                + "(and <ref-or-version>, when named), newest first, each once. With --table: follow every parent, not only the first.", "--all"));
        c.spec.addOption(RepoOption.spec());
        return c.spec;
    }

    @Override
    public void run() {
        ParseResult given = spec.commandLine().getParseResult();
        if (given.originalArgs().contains("--"))
            throw FdlException.usage("fdl log takes no paths after '--': a version holds the whole dataset. Name a ref or version "
                    + "(fdl log <ref>), or see what each version changed per table with fdl log --stat");
        Args args = args(given);
        int limit = args.limit();
        String start = args.start(), exclude = args.exclude();
        boolean oneline = given.hasMatchedOption("--oneline");
        boolean json = given.hasMatchedOption("--json");
        boolean stat = given.hasMatchedOption("--stat");
        boolean graph = given.hasMatchedOption("--graph");
        HistoryWalk.Parents parents = given.hasMatchedOption("--first-parent") ? HistoryWalk.Parents.FIRST : HistoryWalk.Parents.ALL;
        boolean rows = given.hasMatchedOption("--table");
        requireCompatible(given, rows, exclude != null, stat, graph, oneline, json);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean everyRef = given.hasMatchedOption("--all") && !rows;
        try (ObjectStore store = RepoOption.of(given).openStore()) {
            Repository repo = Repository.open(store);
            if (everyRef && !store.canList())
                throw new FdlException("fdl log --all follows every ref, and " + dev.fdl.util.Redacted.location(store.root()) + " cannot list its refs (an HTTP root "
                        + "serves files, not listings): run it on the repository's folder or s3:// root, or name the refs: fdl log <ref>");
            java.nio.file.Path here = CommandContext.of(spec).cwd().get();
            if (rows) {
                RowLogPrinter.print(spec, repo, repo.resolve(DefaultRef.forArgument(here, repo, start, err).spec()).version(), given, json);
                return;
            }
            // --all without a named start: every ref's version, and no default ref to resolve (nor to say on stderr)
            DefaultRef target = everyRef && start == null ? null : DefaultRef.forArgument(here, repo, start, err);
            Resolved r = target == null ? null : repo.resolveAllowingExpired(target.spec());
            List<String> starts = new ArrayList<>();
            if (r != null) starts.add(r.version().id());
            if (everyRef) for (RefValue ref : repo.listRefs(RefsCommand.warnBroken(err))) starts.add(ref.versionId());
            String hidden = exclude == null ? null
                    : repo.resolveAllowingExpired(DefaultRef.forArgument(here, repo, exclude, err).spec()).version().id();
            List<Repository.LogEntry> entries = repo.log(starts, hidden, limit, parents);
            Map<String, List<RefValue>> refs = decorations(repo, r, err);
            warnMissingParents(entries);
            if (json) {
                printJson(out, repo, entries, refs, stat);
                return;
            }
            if (target != null && target.description() != null && !entries.isEmpty()) Out.context(err, target.description());
            if (!store.canList() && !entries.isEmpty())
                Out.context(err, "refs: HEAD's branch and the ref named only (an HTTP root cannot list its refs; "
                        + "fdl log on the folder or s3:// root decorates with every branch and tag)");
            Text text = new Text(oneline, stat, graph ? new LogGraph(listed(entries).keySet(), parents == HistoryWalk.Parents.FIRST) : null,
                    DefaultRef.checkedOutBranch(here, repo),
                    given.hasMatchedOption("--show-signature") ? new dev.fdl.trust.SignatureLine(repo) : null);
            printText(out, repo, entries, refs, text);
        }
    }

    /** How the text form prints: one line a version or the full form, with the rows per table, the graph, HEAD's branch and signatures (null: none). */
    private record Text(boolean oneline, boolean stat, LogGraph drawing, RefName head, dev.fdl.trust.SignatureLine signatures) {}

    /** The versions in git log's text form: {@code version <id> (refs)}, then git's {@code Merge:} line for a merge, author, date, message. */
    private void printText(PrintWriter out, Repository repo, List<Repository.LogEntry> entries, Map<String, List<RefValue>> refs, Text t) {
        Map<String, VersionInfo> listed = listed(entries);
        LogGraph drawing = t.drawing();
        for (int i = 0; i < entries.size(); i++) {
            Repository.LogEntry e = entries.get(i);
            VersionInfo v = e.version();
            String deco = decoration(refs.getOrDefault(v.id(), List.of()), t.head());
            String exp = e.expired() == null ? "" : " [expired " + e.expired().expiredAt() + "]";
            String was = formatChangedFrom(repo, v, listed);
            String format = was == null ? "" : " [DuckLake " + (was.isEmpty() ? "" : was + " -> ") + v.ducklake().format() + "]";
            int warned = v.checkWarnings().size();
            exp = format + exp + (warned == 0 ? "" : " [" + warned + (warned == 1 ? " warning]" : " warnings]"));
            List<String> lines = new ArrayList<>();
            if (t.oneline()) {
                lines.add(v.id().substring(0, 13) + deco + exp + " " + RefsCommand.firstLine(v.message()));
                if (t.stat() && e.expired() == null) lines.addAll(statLines(repo, v, entries));
            } else {
                if (i > 0 && drawing == null) lines.add("");
                lines.add("version " + v.id() + deco + exp);
                if (v.parents().size() > 1) lines.add("Merge:     " + mergeLine(v));
                lines.add("Author:    " + v.author());
                if (t.signatures() != null) lines.add("Signed:    " + t.signatures().of(v.id()).orElse("no (unsigned)"));
                lines.add("Date:      " + v.createdAt());
                // a merge's parents are on its Merge: line, as git prints them; one parent stays beside seq
                lines.add("Seq:       " + v.seq() + (v.parents().size() == 1 ? "  parent " + v.parents().get(0) : ""));
                lines.add("Snapshots: " + v.ducklake().firstSnapshot() + ".." + v.ducklake().lastSnapshot());
                if (was != null) {
                    lines.add("DuckLake:  format " + v.ducklake().format() + (was.isEmpty() ? "" : " (was " + was + ")")
                            + (v.ducklake().format().equals("1.0") ? "" : ": DuckDB 1.5 readers cannot open this version"));
                }
                lines.add("");
                for (String line : v.message().split("\n", -1)) lines.add("    " + line);
                if (t.stat() && e.expired() == null) {
                    lines.add("");
                    lines.addAll(statLines(repo, v, entries));
                }
                if (drawing != null && i < entries.size() - 1) lines.add("");
            }
            if (drawing == null) lines.forEach(out::println);
            else printDrawn(out, drawing.next(v.id(), v.parents()), lines);
        }
        out.flush();
    }

    /** The positional arguments: {@code -N} (a limit, as {@code --max-count}), and one ref or version or {@code <a>..<b>}. */
    private record Args(int limit, String start, String exclude) {}

    private static Args args(ParseResult given) {
        int limit = given.matchedOptionValue("--max-count", -1);
        String start = null, exclude = null;
        for (String arg : given.matchedPositionalValue(0, new String[0])) {
            if (arg.matches("-[0-9]+")) {
                limit = Integer.parseInt(arg.substring(1));
                continue;
            }
            if (start != null) throw FdlException.usage("fdl log takes one ref or version, or <a>..<b>; got '" + start + "' and '" + arg + "'");
            RevisionRange range = RevisionRange.parse(arg, "fdl log");
            if (range == null) {
                start = arg;
            } else {
                exclude = range.from();
                start = range.to();
            }
        }
        return new Args(limit, start, exclude);
    }

    /** Refuses options that do not go together (exit 2). */
    private static void requireCompatible(ParseResult given, boolean rows, boolean range, boolean stat, boolean graph, boolean oneline,
                                          boolean json) {
        if (graph && json)
            throw FdlException.usage("fdl log --graph draws text and cannot be combined with --json; the JSON lists each version's "
                    + "parents, from which a graph can be drawn");
        if (!rows && (given.hasMatchedOption("--key") || given.hasMatchedOption("--where")))
            throw FdlException.usage("--key and --where go with --table (the history of rows of one table)");
        if (rows && (range || stat || graph || oneline))
            throw FdlException.usage("fdl log --table shows one table's rows; it takes one ref, not <a>..<b>, --stat, --graph or --oneline");
    }

    private void warnMissingParents(List<Repository.LogEntry> entries) {
        for (Repository.LogEntry e : entries)
            for (String p : e.missingParents())
                spec.commandLine().getErr().println("fdl: warning: parent " + p + " of version " + e.version().id()
                        + " is missing, so history stops there; run fdl verify");
    }

    /** The versions as one JSON array: each version.json with its refs, expiry, format change and (with {@code --stat}) table counts. */
    private void printJson(PrintWriter out, Repository repo, List<Repository.LogEntry> entries, Map<String, List<RefValue>> refs,
                           boolean stat) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        Map<String, VersionInfo> listed = listed(entries);
        for (Repository.LogEntry e : entries) {
            ObjectNode o = e.version().toJson();
            ArrayNode names = o.putArray("refs");
            for (RefValue ref : refs.getOrDefault(e.version().id(), List.of())) names.add(ref.key());
            if (e.expired() != null) o.put("expired_at", e.expired().expiredAt().toString());
            String was = formatChangedFrom(repo, e.version(), listed);
            if (was != null) o.put("ducklake_format_changed_from", was);
            if (stat && e.expired() == null) ParentStat.TableStat.toJson(o.putArray("stat"), stats(repo, e.version(), entries));
            a.add(o);
        }
        Out.json(out, a);
    }

    private ParentStat parentStat;

    /**
     * The DuckLake format of {@code v}'s first parent when {@code v} changed it (SPEC.md section 3,
     * {@code ducklake.format}), "" for a version without parents whose format is not 1.0 (the format
     * DuckDB 1.5 reads), null otherwise or when the parent's version.json cannot be read; {@code listed}: the versions
     * already read, by id.
     */
    private static String formatChangedFrom(Repository repo, VersionInfo v, Map<String, VersionInfo> listed) {
        if (v.parents().isEmpty()) return v.ducklake().format().equals("1.0") ? null : "";
        String parentId = v.parents().get(0);
        VersionInfo parent = listed.get(parentId);
        if (parent == null) parent = repo.readVersion(parentId).orElse(null);
        if (parent == null || parent.ducklake().format().equals(v.ducklake().format())) return null;
        return parent.ducklake().format();
    }

    /** The versions listed, by id, in log order (each version's parent is looked up here before it is read again). */
    private static Map<String, VersionInfo> listed(List<Repository.LogEntry> entries) {
        Map<String, VersionInfo> byId = new LinkedHashMap<>();
        for (Repository.LogEntry e : entries) byId.put(e.version().id(), e.version());
        return byId;
    }

    /** What {@code v} changed over its parent, per table ({@link ParentStat}: one catalog read per version). */
    private List<ParentStat.TableStat> stats(Repository repo, VersionInfo v, List<Repository.LogEntry> entries) {
        if (parentStat == null) {
            parentStat = new ParentStat(repo, CommandContext.of(spec).cache());
            for (Repository.LogEntry e : entries) parentStat.known(e.version(), e.expired()); // already read by log
        }
        return parentStat.of(v);
    }

    private List<String> statLines(Repository repo, VersionInfo v, List<Repository.LogEntry> entries) {
        return statLines(stats(repo, v, entries));
    }

    /** {@code table  +added  -removed  (rows)} per table, aligned: git's {@code --stat} lines, a table for a file. */
    static List<String> statLines(List<ParentStat.TableStat> tables) {
        StatColumns lines = new StatColumns();
        for (ParentStat.TableStat t : tables)
            lines.add(t.table(), "+" + t.added(), "-" + (t.removed() == null ? "?" : t.removed().toString()), t.dropped() ? "(dropped)" : "(" + Plural.grouped(t.rows(), "row") + ")");
        StringWriter text = new StringWriter();
        PrintWriter w = new PrintWriter(text);
        lines.print(w);
        w.flush();
        return text.toString().lines().toList();
    }

    /** git's {@code Merge:} line: the parents' ids, shortened as {@code --oneline} shortens ids. */
    static String mergeLine(VersionInfo v) {
        List<String> shortIds = new ArrayList<>();
        for (String p : v.parents()) shortIds.add(p.length() > 13 ? p.substring(0, 13) : p);
        return String.join(" ", shortIds);
    }

    /**
     * A version's text lines with the graph left of them: its first line on its own row, the next
     * ones on the rows that draw its joins and forks, the rest on lines going on; rows left over
     * are printed alone (as git's {@code --oneline --graph} prints {@code |\}).
     */
    static void printDrawn(PrintWriter out, LogGraph.Rows rows, List<String> lines) {
        out.println((rows.version() + lines.get(0)).stripTrailing());
        int n = Math.max(lines.size(), rows.after().size() + 1);
        for (int i = 1; i < n; i++) {
            String prefix = i - 1 < rows.after().size() ? rows.after().get(i - 1) : rows.filler();
            out.println((prefix + (i < lines.size() ? lines.get(i) : "")).stripTrailing());
        }
    }

    /**
     * Version id to the refs that point at it. A root that cannot be listed (an HTTP mirror) only
     * tells HEAD's branch; the ref the user named is known too, so it decorates its version.
     */
    static Map<String, List<RefValue>> decorations(Repository repo, Resolved r, PrintWriter err) {
        Map<String, List<RefValue>> refs = repo.refsByVersion(RefsCommand.warnBroken(err));
        if (r != null && r.ref() != null) {
            List<RefValue> at = refs.computeIfAbsent(r.ref().versionId(), k -> new ArrayList<>());
            if (at.stream().noneMatch(x -> x.key().equals(r.ref().key()))) at.add(r.ref());
        }
        return refs;
    }

    /** git log --decorate style: {@code  (HEAD -> main, tag: v1, dev)}. */
    static String decoration(List<RefValue> refs, RefName head) {
        if (refs.isEmpty()) return "";
        List<String> parts = new ArrayList<>();
        for (RefValue r : refs)
            if (r.kind() == RefValue.Kind.BRANCH && r.name().equals(head)) parts.add("HEAD -> " + r.name());
        for (RefValue r : refs) if (r.kind() == RefValue.Kind.TAG) parts.add(r.decoration());
        for (RefValue r : refs)
            if (r.kind() == RefValue.Kind.BRANCH && !r.name().equals(head)) parts.add(r.decoration());
        return " (" + String.join(", ", parts) + ")";
    }
}
