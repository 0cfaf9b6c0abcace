package dev.fdl.cli;

import dev.fdl.FdlException;
import dev.fdl.history.Blame;
import dev.fdl.history.SnapshotOwners;
import dev.fdl.repo.Repository;
import dev.fdl.repo.Resolved;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.ObjectStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/** {@code fdl blame <table> [<ref>]}: per visible row, the version that last added or changed it ({@link Blame}, docs/history.md). */
@Command(name = "blame", mixinStandardHelpOptions = true,
        description = {"Show, per row of a table, the version that last added or changed it: version, seq, date, author, message, and the row's key.",
                "Read from when each row's data file or inlined row began; no other version's data is read. "
                        + "Rows older than the oldest retained version show 'expired'."})
final class BlameCommand implements Runnable {
    @Spec CommandSpec spec;
    @Mixin MemoryOption memoryOption;
    @Mixin RepoOption repoOption;

    @Parameters(index = "0", paramLabel = "<table>", description = "[schema.]table to blame.") String table;
    @Parameters(index = "1", arity = "0..1", paramLabel = "<ref-or-version>",
            description = "The version (default: inside a working copy its branch, else HEAD).") String ref;
    @Option(names = "--key", paramLabel = "col[,col…]", split = ",",
            description = "Columns identifying a row, shown per row; must be unique. Default: the key import --mode sync --key recorded, else every column.")
    List<String> keys;
    @Option(names = "--where", paramLabel = "SQL", description = "Only rows matching this read-only SQL expression over the table's columns.") String where;
    @Option(names = "--json", description = "One JSON object per line: version, seq, created_at, author, message (or expired: true), row.") boolean json;
    @Option(names = "--csv", description = "CSV: version, seq, created_at, author, message, then the shown columns.") boolean csv;

    @Override
    public void run() {
        if (json && csv) throw FdlException.usage("give either --json or --csv, not both");
        // one flush at the end, not one per row (picocli's standard output flushes every line)
        PrintWriter out = new PrintWriter(new java.io.BufferedWriter(spec.commandLine().getOut(), 1 << 16), false);
        try (ObjectStore store = repoOption.openStore()) {
            Repository repo = Repository.open(store);
            DefaultRef target = DefaultRef.forArgument(CommandContext.of(spec).cwd().get(), repo, ref, spec.commandLine().getErr());
            Resolved r = repo.resolve(target.spec());
            VersionInfo v = r.version();
            Path catalog = CommandContext.of(spec).cache().versionCatalog(repo, v);
            java.nio.channels.WritableByteChannel stdout = CommandContext.of(spec).processStdout();
            Blame.Sink printer = json ? new JsonLines(out, stdout) : csv ? new CsvLines(out, stdout) : new TextLines(out, stdout);
            new Blame(repo, CommandContext.of(spec).cache(), CommandContext.of(spec).duckDb())
                    .run(new Blame.Request(v, catalog, DiffCommand.dataPath(spec, repo, dev.fdl.ducklake.read.ReadableCatalog.version(catalog)), table, keys, where), printer);
            out.flush();
        }
    }

    /** Prints the lines DuckDB wrote ({@link Out#file}). */
    private abstract static class Printer implements Blame.Sink {
        final PrintWriter out;
        private final java.nio.channels.WritableByteChannel stdout;

        /** {@code stdout}: the process's standard output that {@code out} prints to, or null when {@code out} is another writer. */
        Printer(PrintWriter out, java.nio.channels.WritableByteChannel stdout) {
            this.out = out;
            this.stdout = stdout;
        }

        @Override
        public void lines(Path file) throws java.io.IOException {
            Out.file(out, stdout, file);
        }
    }

    /** git blame's shape: short version id, seq, date, author, then the row's shown values. */
    private static final class TextLines extends Printer {
        TextLines(PrintWriter out, java.nio.channels.WritableByteChannel stdout) {
            super(out, stdout);
        }

        @Override
        public void columns(List<String> names) {
            out.println(String.format("%-13s %5s %-10s %-16s ", "version", "seq", "date", "author") + String.join("\t", names));
        }

        @Override
        public String prefix(SnapshotOwners.Owner owner) {
            if (owner.expired()) return String.format("%-13s %5s %-10s %-16s", "expired", "", "", "");
            VersionInfo v = owner.version();
            String author = v.author().name().length() > 16 ? v.author().name().substring(0, 16) : v.author().name();
            return String.format("%-13s %5d %-10s %-16s", v.id().substring(0, 13), v.seq(), v.createdAt().toString().substring(0, 10), author);
        }

        @Override
        public char separator() {
            return ' ';
        }
    }

    private static final class JsonLines extends Printer {
        JsonLines(PrintWriter out, java.nio.channels.WritableByteChannel stdout) {
            super(out, stdout);
        }

        @Override
        public Form form() {
            return Form.JSON;
        }

        @Override
        public void columns(List<String> names) {}

        @Override
        public String prefix(SnapshotOwners.Owner owner) {
            if (owner.expired()) return "{\"expired\":true,\"row\"";
            VersionInfo v = owner.version();
            return "{\"version\":" + quote(v.id()) + ",\"seq\":" + v.seq() + ",\"created_at\":" + quote(v.createdAt().toString())
                    + ",\"author\":" + quote(v.author().toString()) + ",\"message\":" + quote(v.message()) + ",\"row\"";
        }

        @Override
        public char separator() {
            return ':';
        }

        @Override
        public String suffix() {
            return "}";
        }

        private static String quote(String s) {
            return new com.fasterxml.jackson.databind.node.TextNode(s).toString();
        }
    }

    private static final class CsvLines extends Printer {
        CsvLines(PrintWriter out, java.nio.channels.WritableByteChannel stdout) {
            super(out, stdout);
        }

        @Override
        public Form form() {
            return Form.CSV;
        }

        @Override
        public void columns(List<String> names) {
            StringBuilder sb = new StringBuilder("version,seq,created_at,author,message");
            for (String n : names) sb.append(',').append(field(n));
            out.println(sb);
        }

        @Override
        public String prefix(SnapshotOwners.Owner owner) {
            if (owner.expired()) return "expired,,,,";
            VersionInfo v = owner.version();
            return v.id() + "," + v.seq() + "," + v.createdAt() + "," + field(v.author().toString()) + "," + field(v.message());
        }

        @Override
        public char separator() {
            return ',';
        }

        private static String field(String s) {
            return DiffCommand.CsvPrinter.field(s);
        }
    }
}
