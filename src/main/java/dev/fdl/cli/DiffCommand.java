package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.read.ReadableCatalog;
import dev.fdl.ducklake.read.CatalogDiff;
import dev.fdl.history.ChangeFeed;
import dev.fdl.repo.RevisionRange;
import dev.fdl.repo.Repository;
import dev.fdl.repo.Resolved;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.ObjectStore;
import dev.fdl.util.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code fdl diff [<a>] [<b>]}: what changed between two versions, or a version and the working
 * copy, with git diff's defaults: no argument, the working copy against its base version; one, that
 * version against the working copy (outside one: against HEAD); two, a against b.
 */
@Command(name = "diff", mixinStandardHelpOptions = true,
        description = {"Show what changed between two versions, or a version and the working copy: tables added and dropped, "
                + "schema changes, rows added, removed and (with a key: --key, or recorded by import --mode sync --key) changed.",
                "No argument: the working copy against its base version. One: that version against the working copy (outside one: HEAD). Two: <a> against <b>.",
                "Only data files that differ are read: files both versions name with the same deletes are never opened."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:success (with --exit-code or --quiet: the sides do not differ)",
                "1:with --exit-code or --quiet: the sides differ (tables, schema or rows); without: a failure", "2:usage error",
                "4:a version, ref or table that does not exist"})
final class DiffCommand implements java.util.concurrent.Callable<Integer> {
    @Spec CommandSpec spec;
    @picocli.CommandLine.Mixin MemoryOption memoryOption;
    @Mixin RepoOption repoOption;

    @Parameters(arity = "0..2", paramLabel = "<ref-or-version>",
            description = "What to compare (see above); <a>..<b> is <a> <b>, as in git.") List<String> args;
    @Option(names = {"-t", "--table"}, paramLabel = "[schema.]name", description = "Only this table.") String table;
    @Option(names = "--key", paramLabel = "col[,col…]", split = ",",
            description = {"Columns identifying a row: a key on both sides with other values is a changed row, shown old -> new.",
                    "Default: per table the key the last import --mode sync --key recorded."}) List<String> keys;
    @Option(names = "--no-key", description = "Compare whole rows, ignoring a recorded key: a changed row shows as removed plus added.") boolean noKey;
    @Option(names = "--stat", description = "Counts only: rows added, removed, changed per table.") boolean stat;
    @Option(names = "--json", description = "One JSON object per line (schema changes, rows, per-table counts), then a summary object.") boolean json;
    @Option(names = "--csv", description = {"Rows as CSV (nothing but CSV lines): per table a header line (table, change, its columns), "
            + "then one line per row, each starting with the table's name.", "With --stat: table, added, removed, changed."}) boolean csv;
    @Option(names = "--changes", description = {"The change feed: one record per row change, with change_type insert, delete, "
            + "update_preimage or update_postimage (by the table's key; without one, inserts and deletes). "
            + "Applied to <a>'s rows it gives <b>'s rows (docs/history.md)."}) boolean changes;
    @Option(names = "--format", paramLabel = "csv|json|parquet", description = "With --changes: how records are written (default json: "
            + "one object per line with table, change_type and row).") String format;
    @Option(names = "--output", paramLabel = "FILE", description = "With --changes: write to this file (several tables as CSV or "
            + "Parquet: a folder, one file per table) instead of stdout.") Path output;
    @Option(names = "--crlf", description = "With --csv: end lines with \\r\\n (RFC 4180's CRLF) instead of \\n.") boolean crlf;
    @Option(names = "--exit-code", description = "Exit 1 when the sides differ (tables, schema or rows) and 0 when they do not, as git diff --exit-code; "
            + "an error still exits with its own code.") boolean exitCode;
    @Option(names = "--quiet", description = "Print nothing and imply --exit-code, as git diff --quiet: whether the sides differ, "
            + "for scripts (counts only: no row is printed or kept).") boolean quiet;

    /** Runs the diff: 0, or with {@code --exit-code}/{@code --quiet} 1 ({@link ExitCodes#DIFFERS}) when the sides differ. */
    @Override
    public Integer call() {
        if (!changes && (format != null || output != null)) throw FdlException.usage("--format and --output go with --changes");
        if (changes && (exitCode || quiet)) throw FdlException.usage("--exit-code and --quiet go with the diff, not the change feed "
                + "(--changes): fdl diff --quiet <a> <b> tells whether they differ");
        if (changes && (stat || json || csv)) throw FdlException.usage("--changes writes the change feed: choose its form with --format, "
                + "not --stat, --json or --csv");
        if (json && csv) throw FdlException.usage("give either --json or --csv, not both");
        if (crlf && !csv) throw FdlException.usage("--crlf goes with --csv");
        if (noKey && keys != null) throw FdlException.usage("give either --key or --no-key, not both");
        List<String> refs = args == null ? List.of() : args;
        for (String arg : refs) {
            RevisionRange range = RevisionRange.parse(arg, "fdl diff");
            if (range == null) continue;
            if (refs.size() > 1) throw FdlException.usage("fdl diff takes <a>..<b> or <a> <b>, not both: " + String.join(" ", refs));
            refs = List.of(range.from(), range.to()); // as in git: diff a..b is diff a b
        }
        List<ReadableCatalog> scratch = new ArrayList<>();
        PrintWriter out = spec.commandLine().getOut();
        try (ObjectStore store = repoOption.openStore()) {
            Repository repo = Repository.open(store);
            // the working copy counts only for the repository it was checked out from (as DefaultRef decides)
            Optional<WorkingCopy> wc = WorkingCopy.find(CommandContext.of(spec).cwd().get()).filter(w -> w.state().belongsTo(repo));
            CatalogDiff.DiffSide a, b;
            String which; // what a default chose, for the first line of human output (null: the user named both)
            if (refs.isEmpty()) {
                WorkingCopy w = wc.orElseThrow(() -> FdlException.usage("fdl diff without arguments compares the working copy with its "
                        + "base version: run it inside a working copy of " + repo.root() + ", or name the versions (fdl diff <a> <b>)"));
                String base = w.state().baseVersion();
                a = base == null ? empty(repo, w, scratch) : version(repo, base, scratch);
                b = working(repo, w, scratch);
                which = workingCopy(w) + " against its base, " + (base == null ? "no version yet" : "version " + base);
            } else if (refs.size() == 1) {
                DefaultRef from = DefaultRef.forArgument(CommandContext.of(spec).cwd().get(), repo, refs.get(0), spec.commandLine().getErr());
                a = version(repo, from.spec(), scratch);
                String against;
                if (wc.isPresent()) {
                    b = working(repo, wc.get(), scratch);
                    against = workingCopy(wc.get());
                } else {
                    DefaultRef to = DefaultRef.of(CommandContext.of(spec).cwd().get(), repo);
                    b = version(repo, to.spec(), scratch);
                    against = to.description();
                }
                which = (from.description() != null ? from.description() : refs.get(0)) + " against " + against;
            } else {
                DefaultRef from = DefaultRef.forArgument(CommandContext.of(spec).cwd().get(), repo, refs.get(0), spec.commandLine().getErr()), to = DefaultRef.forArgument(CommandContext.of(spec).cwd().get(), repo, refs.get(1), spec.commandLine().getErr());
                a = version(repo, from.spec(), scratch);
                b = version(repo, to.spec(), scratch);
                which = from.description() == null && to.description() == null ? null
                        : (from.description() != null ? from.description() : refs.get(0)) + " against "
                        + (to.description() != null ? to.description() : refs.get(1));
            }
            if (changes) {
                changeFeed(a, b, out);
                return ExitCodes.OK;
            }
            Printer printer = quiet ? new Silent() : json ? new JsonPrinter(out) : csv ? new CsvPrinter(out, stat, crlf ? "\r\n" : "\n")
                    : new TextPrinter(out, stat, spec.commandLine().getErr(), which, "diff " + a.label() + " " + b.label());
            // null: each table's key recorded by import --mode sync --key (none: whole rows)
            List<String> rowKey = noKey ? List.of() : keys;
            CatalogDiff.Summary s = new CatalogDiff(CommandContext.of(spec).duckDb())
                    .run(new CatalogDiff.Request(a, b, table, rowKey, !stat && !quiet), printer);
            printer.summary(s);
            out.flush();
            return (exitCode || quiet) && s.differs() ? ExitCodes.DIFFERS : ExitCodes.OK;
        } finally {
            scratch.forEach(ReadableCatalog::close);
        }
    }

    /** Writes the change feed of {@code a} → {@code b} ({@link ChangeFeed}), telling on stderr what was written to a file. */
    private void changeFeed(CatalogDiff.DiffSide a, CatalogDiff.DiffSide b, PrintWriter out) {
        ChangeFeed.Format f = format == null ? ChangeFeed.Format.JSON : ChangeFeed.Format.parse(format);
        ChangeFeed.FeedResult r = new ChangeFeed(CommandContext.of(spec).duckDb())
                .write(new ChangeFeed.Request(a, b, table, noKey ? List.of() : keys, f, output), out);
        out.flush();
        if (output != null)
            spec.commandLine().getErr().printf("Wrote %,d change record(s) of %d table(s) to %s%n", r.records(), r.tables(), output);
    }

    /** "the working copy (branch 'dev')", as the first line names it. */
    private static String workingCopy(WorkingCopy w) {
        String branch = w.state().branch();
        return "the working copy (" + (branch == null ? "detached" : "branch '" + branch + "'") + ")";
    }

    private CatalogDiff.DiffSide version(Repository repo, String rev, List<ReadableCatalog> opened) {
        Resolved r = repo.resolve(rev);
        ReadableCatalog c = ReadableCatalog.version(CommandContext.of(spec).cache().versionCatalog(repo, r.version()));
        opened.add(c);
        return new CatalogDiff.DiffSide(rev.equals(r.version().id()) ? rev : rev + " (" + r.version().id() + ")", c.catalog(),
                dataPath(repo, c));
    }

    private CatalogDiff.DiffSide working(Repository repo, WorkingCopy w, List<ReadableCatalog> opened) {
        ReadableCatalog c = ReadableCatalog.working(w.catalog(), w.tmp().resolve("diff-" + ProcessHandle.current().pid() + ".duckdb"));
        opened.add(c);
        return new CatalogDiff.DiffSide("working copy", c.catalog(), dataPath(repo, c));
    }

    /** The side of a branch without a version yet: an empty catalog (a scratch file, deleted with the others). */
    private CatalogDiff.DiffSide empty(Repository repo, WorkingCopy w, List<ReadableCatalog> opened) {
        Path tmp = w.tmp().resolve("diff-empty-" + ProcessHandle.current().pid() + ".duckdb");
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            throw new FdlException("cannot write " + tmp + ": " + e.getMessage());
        }
        EmptyCatalog.create(tmp, CatalogKind.DUCKDB, repo.dataLocation());
        opened.add(ReadableCatalog.scratch(tmp));
        return new CatalogDiff.DiffSide("(no version)", tmp, repo.dataLocation());
    }

    private String dataPath(Repository repo, ReadableCatalog c) {
        return dataPath(spec, repo, c);
    }

    /** Where the built-in reader finds a catalog's data files: the repository's data folder, or for a remote one a local mirror. */
    static String dataPath(CommandSpec spec, Repository repo, ReadableCatalog c) {
        return c.dataPath(CommandContext.of(spec).duckDb(), new ReadableCatalog.DataFiles(repo.store(), repo.dataDir(),
                CommandContext.of(spec).cache().dataFolder(repo)), null);
    }

    /** A sink that also prints the summary. */
    private interface Printer extends CatalogDiff.Sink {
        void summary(CatalogDiff.Summary s);
    }

    /** {@code --quiet}: prints nothing, as {@code git diff --quiet}; only the summary's counts are used. */
    private static final class Silent implements Printer {
        @Override
        public void summary(CatalogDiff.Summary s) {}
    }

    private static final class TextPrinter implements Printer {
        private final PrintWriter writer;
        private final boolean stat;
        private String header;
        private final PrintWriter err;
        /**
         * What is compared, printed before the first output (a diff that fails before it prints
         * nothing): the context line a default chose ({@code # …}, on stderr; null when none), then
         * {@code diff a b} on stdout.
         */
        private String context, preamble;

        private final StatColumns statLines = new StatColumns();

        TextPrinter(PrintWriter out, boolean stat, PrintWriter err, String context, String preamble) {
            this.writer = out;
            this.stat = stat;
            this.err = err;
            this.context = context;
            this.preamble = preamble;
        }

        private PrintWriter out() {
            if (context != null) Out.context(err, context);
            if (preamble != null) writer.println(preamble);
            context = null;
            preamble = null;
            return writer;
        }

        private void header(String table) {
            if (!table.equals(header) && !stat) out().println("--- " + table);
            header = table;
        }

        @Override
        public void table(String table, String change) {
            header(table);
            out().println("table " + change + ": " + table);
        }

        @Override
        public void column(String table, String change, String detail) {
            header(table);
            out().println("  column " + change + ": " + detail);
        }

        @Override
        public void row(String table, char sign, List<String> values, String json) {
            header(table);
            out().println(sign + " " + String.join(" | ", values.stream().map(v -> v == null ? "NULL" : v).toList()));
        }

        @Override
        public void changed(String table, List<String> key, String keyJson, List<CatalogDiff.ValueChange> changes, List<String> values) {
            header(table);
            List<String> parts = new ArrayList<>();
            for (CatalogDiff.ValueChange c : changes) parts.add(c.column() + ": " + text(c.oldText()) + " -> " + text(c.newText()));
            out().println("~ " + String.join(" | ", key) + ": " + String.join(", ", parts));
        }

        private static String text(String v) {
            return v == null ? "NULL" : v;
        }

        @Override
        public void stat(CatalogDiff.TableStat s) {
            if (!s.differs()) return;
            statLines.add(s.table(), "+" + s.added(), "-" + s.removed(), "~" + s.changed());
            if (stat) return; // --stat: aligned together before the summary, as git's
            statLines.print(out()); // after the table's rows
            out().flush();
        }

        @Override
        public void summary(CatalogDiff.Summary s) {
            statLines.print(out());
            out().printf("%d table(s) added, %d dropped, %d changed; %d row(s) added, %d removed, %d changed%n",
                    s.tablesAdded(), s.tablesDropped(), s.tablesChanged(), s.added(), s.removed(), s.changed());
        }
    }

    private static final class JsonPrinter implements Printer {
        private final PrintWriter out;

        JsonPrinter(PrintWriter out) {
            this.out = out;
        }

        private void line(ObjectNode o) {
            out.println(o.toString());
        }

        private static ObjectNode node(String table, String change) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("table", table);
            o.put("change", change);
            return o;
        }

        private static JsonNode parse(String json) {
            try {
                return json == null ? Json.MAPPER.nullNode() : Json.MAPPER.readTree(json);
            } catch (IOException e) {
                throw new FdlException("DuckDB rendered invalid JSON: " + e.getMessage());
            }
        }

        @Override
        public void table(String table, String change) {
            line(node(table, "table_" + change));
        }

        @Override
        public void column(String table, String change, String detail) {
            ObjectNode o = node(table, "column_" + change);
            o.put("detail", detail);
            line(o);
        }

        @Override
        public void row(String table, char sign, List<String> values, String json) {
            ObjectNode o = node(table, sign == '+' ? "added" : "removed");
            o.set("row", parse(json));
            line(o);
        }

        @Override
        public void changed(String table, List<String> key, String keyJson, List<CatalogDiff.ValueChange> changes, List<String> values) {
            ObjectNode o = node(table, "changed");
            o.set("key", parse(keyJson));
            ObjectNode cols = o.putObject("columns");
            for (CatalogDiff.ValueChange c : changes) {
                ObjectNode v = cols.putObject(c.column());
                v.set("old", parse(c.oldJson()));
                v.set("new", parse(c.newJson()));
            }
            line(o);
        }

        @Override
        public void stat(CatalogDiff.TableStat s) {
            if (!s.differs()) return;
            ObjectNode o = node(s.table(), "stat");
            o.put("added", s.added());
            o.put("removed", s.removed());
            o.put("changed", s.changed());
            line(o);
            out.flush();
        }

        @Override
        public void summary(CatalogDiff.Summary s) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            ObjectNode sum = o.putObject("summary");
            sum.put("tables_added", s.tablesAdded());
            sum.put("tables_dropped", s.tablesDropped());
            sum.put("tables_changed", s.tablesChanged());
            sum.put("added", s.added());
            sum.put("removed", s.removed());
            sum.put("changed", s.changed());
            line(o);
        }
    }

    static final class CsvPrinter implements Printer {
        private final PrintWriter out;
        private final boolean stat;
        private final String eol;
        private List<String> labels = List.of();
        private String table;
        private boolean statHeader;

        CsvPrinter(PrintWriter out, boolean stat, String eol) {
            this.out = out;
            this.stat = stat;
            this.eol = eol;
        }

        private void line(String first, List<String> values) {
            StringBuilder sb = new StringBuilder(field(first));
            for (String v : values) sb.append(',').append(field(v));
            out.print(sb.append(eol));
        }

        /** A row line: the table's name, the change, the values. */
        private void row(String change, List<String> values) {
            List<String> rest = new ArrayList<>(values.size() + 1);
            rest.add(change);
            rest.addAll(values);
            line(table, rest);
        }

        /** One CSV field (RFC 4180 quoting; NULL as the empty field). */
        static String field(String v) {
            if (v == null) return "";
            if (v.isEmpty() || v.contains(",") || v.contains("\"") || v.contains("\n") || v.contains("\r")) {
                return '"' + v.replace("\"", "\"\"") + '"';
            }
            return v;
        }

        @Override
        public void columns(String table, List<String> columns) {
            labels = columns;
            this.table = table;
            List<String> header = new ArrayList<>(columns.size() + 1);
            header.add("change");
            header.addAll(columns);
            line("table", header);
        }

        @Override
        public void row(String table, char sign, List<String> values, String json) {
            row(sign == '+' ? "added" : "removed", values);
        }

        /** A changed row as two lines: its old values, then its new ones. */
        @Override
        public void changed(String table, List<String> key, String keyJson, List<CatalogDiff.ValueChange> changes, List<String> values) {
            List<String> old = new ArrayList<>(values);
            for (CatalogDiff.ValueChange c : changes) old.set(labels.indexOf(c.column()), c.oldText());
            row("changed_from", old);
            row("changed_to", values);
        }

        @Override
        public void stat(CatalogDiff.TableStat s) {
            if (stat && s.differs()) {
                if (!statHeader) out.print("table,added,removed,changed" + eol);
                statHeader = true;
                line(s.table(), List.of(String.valueOf(s.added()), String.valueOf(s.removed()), String.valueOf(s.changed())));
            }
            out.flush();
        }

        @Override
        public void summary(CatalogDiff.Summary s) {
            out.flush();
        }
    }
}
