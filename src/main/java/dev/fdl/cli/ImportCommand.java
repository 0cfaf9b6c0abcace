package dev.fdl.cli;

import dev.fdl.util.Plural;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.ducklake.load.ImportFormat;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.load.ImportResult;
import dev.fdl.ducklake.load.SourceFiles;
import dev.fdl.ducklake.load.sync.SyncResult;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.ducklake.load.Importer;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.util.Json;
import dev.fdl.repo.Repository;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/** {@code fdl import}: one DuckLake transaction in the working catalog, without the extension. */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Load a CSV (also .gz), Parquet or JSON file (or several: a folder, a glob) into a table of the working catalog, as one DuckLake snapshot.",
                "The Parquet data files go straight into the repository's data folder (unreachable until a commit names them), each at most about the target file size.",
                "Bad files (empty, header only, truncated gzip, not UTF-8, rows with more or fewer fields than the header) are refused naming the file (and the line); the working catalog is then unchanged."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:success", "1:the file was refused (named in the message); nothing changed",
                "2:usage error (bad --table, --mode, --schema or --format, --null-string for a file that is not CSV, or a file name that does not say its format; run outside a working copy)",
                "4:a named file does not exist, or a glob matches none (named in the message); --mode append to a table that does not exist"})
final class ImportCommand implements Runnable {
    @Spec CommandSpec spec;
    @picocli.CommandLine.Mixin MemoryOption memoryOption;

    @Parameters(arity = "1..*", paramLabel = "<file|folder|glob>",
            description = {"The file to load: .csv, .tsv or .txt (optionally .gz; delimiter, quoting and column types detected from the first 20,480 rows and checked by a strict read, else over the whole file), .parquet, or .json, .jsonl, .ndjson (optionally .gz). Relative to the current folder. "
                    + "Another name is refused unless --format names the format.",
                    "Several files, a folder (every file below it; names starting with . or _ left out) or a quoted glob ('parts/*.parquet', 'y=*/**.csv') load as one snapshot: "
                            + "one format, the same columns (the first two files that differ are named); hive-partitioned folders (year=2026/month=01/) add their partition columns."})
    List<String> files;
    @Option(names = "--target-file-size", paramLabel = "<size>",
            description = "Start a new data file once one reaches this size (64MB, 1GiB, bytes; default: fdl.json's target_file_size, else 512MiB, DuckLake's default).")
    String targetFileSize;
    @Option(names = {"-q", "--quiet"}, description = "Print nothing on success, as git's -q: no progress, no summary "
            + "(warnings and errors still go to stderr; --json still prints its object).") boolean quiet;
    @Option(names = "--format", paramLabel = "csv|parquet|json",
            description = "The file's format, for a file whose name does not say it (default: from the extension).") String format;
    @Option(names = {"-t", "--table"}, required = true, paramLabel = "[schema.]name",
            description = "The table to load into: name (schema main) or schema.name; a missing schema is created.") String table;
    @Option(names = "--mode", paramLabel = "create|replace|append|sync", defaultValue = "create",
            description = "create (default; refused if the table exists), replace (the old files stop being visible; nothing is deleted), append, "
                    + "sync (the table ends up holding exactly the file's rows; only the difference is written).")
    String mode;
    @Option(names = "--key", paramLabel = "col[,col…]", split = ",",
            description = "With --mode sync: the columns that identify a row (unique, never NULL); a row whose key stays but whose values change is a changed row. "
                    + "Recorded in the catalog; later syncs without --key use the recorded key. Default: the recorded key, else the whole row.")
    List<String> keys;
    @Option(names = "--no-key",
            description = "For a table whose key import --mode sync --key recorded: with --mode append or replace, import even when the key "
                    + "would no longer be unique (or NULL); with --mode sync, compare whole rows instead of the recorded key. "
                    + "Either way the recorded key ends (fdl diff then compares whole rows). Without it such an append or replace is refused.")
    boolean noKey;
    @Option(names = "--schema", paramLabel = "\"col TYPE, …\"",
            description = "DuckDB types for some columns instead of the detected ones, e.g. \"geonameid VARCHAR, price DECIMAL(10,2)\" (for CSV the reader itself uses them, so 01234 stays text).") String schema;
    @Option(names = "--null-string", paramLabel = "<text>",
            description = "For CSV: a field holding exactly this text reads as NULL in every column, e.g. --null-string n/a, "
                    + "and column types are detected with it as NULL (an empty field always reads as NULL). Repeat for several: "
                    + "--null-string n/a --null-string -.") List<String> nullStrings;
    @Option(names = {"-m", "--message"}, paramLabel = "<text>", description = "Recorded as the snapshot's commit message.") String message;
    @Option(names = "--json", description = "Print the result as one JSON object with the same keys in every mode: "
            + "table; mode; snapshot (null: sync found nothing to change); rows (the file's rows; after create, replace and sync also the table's); "
            + "added, removed, changed (sync's comparison of file and table; null in the other modes); data_file (the new data file's key, the first when there are several; null: none), data_files (every new data file's key) "
            + "and data_bytes (its size; bytes: the same, its older name); delete_files, delete_bytes (0 outside sync); "
            + "ended_files (data files sync ended whole; null outside sync); created_table; columns (the table's, [{name, type}]); "
            + "schema_changes (sync's, in words; [] otherwise); key (the columns sync matched rows on; [] otherwise); key_recorded; "
            + "warnings (in words, as printed on stderr: a column a late value made text).") boolean json;

    @Override
    public void run() {
        WorkingCopy wc = WorkingCopy.require(CommandContext.of(spec).cwd().get());
        ImportMode m = Modes.named(mode);
        if (m == ImportMode.SYNC) {
            if (noKey && keys != null) throw FdlException.usage("--key and --no-key exclude each other");
        } else {
            if (keys != null) throw keyWithoutSync();
            m = Modes.parse(mode);
        }
        CommandContext context = CommandContext.of(spec);
        try (ObjectStore store = Stores.open(wc.state().root())) {
            Repository repo = Repository.open(store);
            SourceFiles sources = SourceFiles.expand(files, CommandContext.of(spec).cwd().get());
            if (m == ImportMode.SYNC && sources.many())
                throw FdlException.usage("--mode sync reads one file; " + sources.files().size() + " were named (" + sources.first()
                        + ", …): import them into a staging table first, or sync from one file");
            ImportRequest request = ImportRequest.of(wc.catalog(), store, repo.dataDir(), sources.first(), table, m)
                    .withSources(sources).withTargetFileSize(targetFileSize(repo))
                    .withProgress(Progress.data(quiet, spec.commandLine().getErr()))
                    .withCacheDir(context.cache().dataFolder(repo)).withFormat(format()).withSchemaOverride(schema).withNullStrings(nullStrings)
                    .withMessage(message).withKeys(keys).withDropKey(noKey);
            if (m == ImportMode.SYNC) {
                sync(new Syncer(context.duckDb()).sync(request));
                return;
            }
            ImportResult r = new Importer(context.duckDb()).importFile(request);
            warn(r.warnings());
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                Out.json(out, Summary.of(r, m).json());
                return;
            }
            if (quiet) return;
            String where = r.dataFileKeys().size() == 1 ? r.dataFileKey() : Plural.of(r.dataFileKeys().size(), "data file");
            String from = sources.files().size() == 1 ? "" : " from " + Plural.of(sources.files().size(), "file");
            out.println("Imported " + Plural.of(r.rows(), "row") + from + " into " + r.table() + " (snapshot " + r.snapshot() + ", "
                    + r.fileSizeBytes() + " bytes in " + where + ")" + (r.createdTable() ? "; created the table" : ""));
            out.flush();
        }
    }

    /**
     * The usage error for {@code --key} outside {@code --mode sync} (docs/cli.md: the key is sync's
     * row identity, so it does not make another mode a sync), with the command that loads the file
     * and records the key: sync creates a missing table as create does.
     */
    private FdlException keyWithoutSync() {
        List<String> again = new java.util.ArrayList<>(List.of("fdl", "import"));
        again.addAll(files);
        again.addAll(List.of("--table", table, "--mode", "sync", "--key", String.join(",", keys)));
        return FdlException.usage("--key names the columns that --mode sync matches rows on (and records for fdl diff and fdl merge); "
                + "--mode " + mode.toLowerCase(java.util.Locale.ROOT) + " matches no rows, so it takes no key. To load the file and record the key, run: "
                + dev.fdl.util.ShellQuote.command(again) + " (sync creates the table when it does not exist)");
    }

    /** Each warning on stderr, as {@code fdl: warning: …} (also in {@code --json}'s {@code warnings}). */
    private void warn(List<String> warnings) {
        PrintWriter err = spec.commandLine().getErr();
        for (String w : warnings) err.println("fdl: warning: " + w);
        err.flush();
    }

    private void sync(SyncResult r) {
        warn(r.warnings());
        if (r.key().isEmpty() && !noKey && !quiet) noKeyHint(r.table());
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Out.json(out, Summary.of(r).json());
            return;
        }
        if (quiet) return;
        if (r.unchanged()) {
            out.println(files.get(0) + " holds exactly the rows of " + r.table() + " (" + Plural.of(r.rows(), "row") + "): nothing to write, no snapshot made");
        } else if (r.added() + r.removed() + r.changed() == 0 && r.schemaChanges().isEmpty()) {
            // the file equals the table: the snapshot only records the key (or ends it)
            out.println(files.get(0) + " holds exactly the rows of " + r.table() + " (" + Plural.of(r.rows(), "row") + "): no row written; snapshot "
                    + r.snapshot() + (r.key().isEmpty() ? " ends the recorded key (rows compare whole)"
                    : " records the key (" + String.join(", ", r.key()) + ")"));
        } else {
            out.println("Synced " + r.table() + " to " + Plural.of(r.rows(), "row") + " (snapshot " + r.snapshot() + "): " + r.added() + " added, "
                    + r.removed() + " removed" + (r.key().isEmpty() ? "" : ", " + r.changed() + " changed")
                    + (r.createdTable() ? "; created the table" : "")
                    + (r.keyRecorded() ? "; rows matched on the recorded key (" + String.join(", ", r.key()) + ")" : ""));
            for (String c : r.schemaChanges()) out.println("  " + c);
            out.println("  wrote " + r.dataBytes() + " bytes of data" + (r.dataFileKey() == null ? "" : " (" + r.dataFileKey() + ")")
                    + ", " + r.deleteFiles() + " delete file(s) (" + r.deleteBytes() + " bytes)"
                    + (r.endedFiles() == 0 ? "" : ", ended " + r.endedFiles() + " fully deleted data file(s)"));
        }
        out.flush();
    }

    /**
     * Tells, once on stderr, that a sync without a key (none given, none recorded) matched rows
     * whole, as a multiset, and how to record a key (docs/data.md "The recorded key"): with rows
     * repeated in what the user takes for the key, nothing else would show which way fdl matched.
     * Left out with {@code --no-key} (whole rows asked for) and {@code --quiet}.
     */
    private void noKeyHint(TableName table) {
        List<String> again = new java.util.ArrayList<>(List.of("fdl", "import"));
        again.addAll(files);
        again.addAll(List.of("--table", this.table, "--mode", "sync"));
        String command = dev.fdl.util.ShellQuote.command(again) + " --key <column>";
        Out.hint(spec.commandLine().getErr(),
                "table '" + table + "' has no key: sync compared rows whole (a changed row is one removed and one added)",
                "to match rows by a key (unique, never NULL), record it: " + command);
    }

    /**
     * The one JSON shape of {@code import --json}, every mode alike (sync once printed other keys
     * than create, so a script reading one mode's keys got null on another's days). A value a mode
     * does not compute is null; what a mode never writes (delete files outside sync) is 0.
     * {@code bytes} stays beside {@code data_bytes}, its older name in create, replace and append,
     * so scripts reading it keep working.
     */
    private record Summary(TableName table, String mode, Long snapshot, long rows, Long added, Long removed, Long changed,
                           String dataFile, long dataBytes, long deleteFiles, long deleteBytes, Integer endedFiles,
                           boolean createdTable, List<ImportResult.Column> columns, List<String> schemaChanges,
                           List<String> key, boolean keyRecorded, List<String> dataFiles, List<String> warnings) {
        static Summary of(ImportResult r, ImportMode m) {
            return new Summary(r.table(), m.name(), r.snapshot(), r.rows(), null, null, null, r.dataFileKey(), r.fileSizeBytes(),
                    0, 0, null, r.createdTable(), r.columns(), List.of(), List.of(), false, r.dataFileKeys(), r.warnings());
        }

        static Summary of(SyncResult r) {
            return new Summary(r.table(), ImportMode.SYNC.name(), r.snapshot(), r.rows(), r.added(), r.removed(), r.changed(), r.dataFileKey(),
                    r.dataBytes(), r.deleteFiles(), r.deleteBytes(), r.endedFiles(), r.createdTable(), r.columns(),
                    r.schemaChanges(), r.key(), r.keyRecorded(), r.dataFileKey() == null ? List.of() : List.of(r.dataFileKey()), r.warnings());
        }

        ObjectNode json() {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("table", table.toString());
            o.put("mode", mode.toLowerCase(java.util.Locale.ROOT));
            o.put("snapshot", snapshot);
            o.put("rows", rows);
            o.put("added", added);
            o.put("removed", removed);
            o.put("changed", changed);
            o.put("data_file", dataFile);
            ArrayNode fileKeys = o.putArray("data_files");
            dataFiles.forEach(fileKeys::add);
            o.put("data_bytes", dataBytes);
            o.put("bytes", dataBytes);
            o.put("delete_files", deleteFiles);
            o.put("delete_bytes", deleteBytes);
            o.put("ended_files", endedFiles);
            o.put("created_table", createdTable);
            ArrayNode cols = o.putArray("columns");
            for (ImportResult.Column c : columns) cols.addObject().put("name", c.name()).put("type", c.type());
            ArrayNode changes = o.putArray("schema_changes");
            schemaChanges.forEach(changes::add);
            ArrayNode keyNode = o.putArray("key");
            key.forEach(keyNode::add);
            o.put("key_recorded", keyRecorded);
            ArrayNode warningNode = o.putArray("warnings");
            warnings.forEach(warningNode::add);
            return o;
        }
    }

    /** The target data file size in bytes: {@code --target-file-size}, else fdl.json's, else 0 (DuckLake's default). */
    private long targetFileSize(Repository repo) {
        if (targetFileSize == null) return repo.config().targetFileSize();
        long bytes = dev.fdl.util.ByteSize.parse(targetFileSize);
        if (bytes <= 0) throw FdlException.usage("invalid --target-file-size '" + targetFileSize + "': use a size such as 64MB, 1GiB or 1000000");
        return bytes;
    }

    /** The format {@code --format} names, or null: the importer decides by the file's name. */
    private ImportFormat format() {
        return format == null ? null : ImportFormat.named(format);
    }

    /** Import modes by name. */
    static final class Modes {
        /** The mode named {@code s} (any case, surrounding blanks ignored), null for no mode's name. */
        static ImportMode named(String s) {
            try {
                return ImportMode.valueOf(s.trim().toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                return null;
            }
        }

        /** The mode named {@code s}; a usage error naming the modes for anything else. */
        static ImportMode parse(String s) {
            ImportMode m = named(s);
            if (m == null) throw FdlException.usage("invalid --mode '" + s + "': use create, replace, append or sync");
            return m;
        }
    }
}
