package dev.fdl.ducklake.load;

import dev.fdl.FdlException;
import dev.fdl.ducklake.DataProgress;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.TableName;
import dev.fdl.ducklake.catalog.ColumnTypes;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.format.DuckLakePaths;
import dev.fdl.ducklake.format.DuckLakeTypes;
import dev.fdl.ducklake.working.FileStats;
import dev.fdl.ducklake.working.ImportPlan;
import dev.fdl.ducklake.format.RowKey;
import dev.fdl.ducklake.working.WorkingCatalog;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;
import dev.fdl.util.ShellQuote;
import dev.fdl.util.SqlQuote;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code fdl add-files}: registers Parquet files that are already inside the repository's data
 * folder (written there by Spark, Trino, dbt or DuckDB jobs) as DuckLake data files of a table in
 * the working catalog, in one snapshot, without copying them, as DuckLake's
 * {@code ducklake_add_data_files} does. Row counts and column statistics come from each file's
 * footer ({@link FileStats#fromFooter}); a file in the table's own folder is recorded relative to
 * it, any other by its absolute location under the data folder (which commit step 2 accepts and
 * every reader resolves against the root it is given, {@link DuckLakePaths}).
 *
 * <p>fdl's reader, like DuckLake's, reads data files by Parquet field id: a file with field ids
 * must carry, for each of the table's columns, a top-level field whose field id is the column id,
 * whose name is the column's and whose DuckDB type is the column's; nothing else. A file without
 * field ids (Spark's, Trino's, DuckDB's plain {@code COPY … TO}) is registered with a name mapping,
 * as {@code ducklake_add_data_files} does (DuckLake spec, {@code ducklake_column_mapping} of type
 * {@code map_by_name} and {@code ducklake_name_mapping}, referenced by the file's
 * {@code mapping_id}): each of the table's columns is matched to the file's field of the same name
 * (the exact spelling first, else equal but for ASCII case, as DuckDB compares identifiers), with
 * the column's type, and nothing else. {@code --create} makes the table from the first file's
 * fields (their ids becoming the column ids; 1, 2, … for a file without ids). A file with ids on
 * some fields only is refused. A file outside the data folder is refused with the command that
 * copies it in. Nothing is written before every file is checked; the catalog changes in one transaction.
 */
public final class FileRegistration {
    private final DuckDbPool pool;

    /** A registration borrowing its DuckDB instances from {@code pool}. */
    public FileRegistration(DuckDbPool pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    /**
     * One {@code fdl add-files}.
     *
     * @param catalog    the working catalog
     * @param store      the repository's store
     * @param dataDirKey the data folder's key prefix ({@code data/})
     * @param keys       the store keys of the files (under the data folder), from {@link #keys}
     * @param table      {@code [schema.]name}
     * @param create     whether to create the table from the first file's schema
     * @param message    the snapshot's commit message (null: none)
     * @param progress   told how many files' footers were read (null: {@link DataProgress#NONE})
     */
    public record Request(Path catalog, ObjectStore store, String dataDirKey, List<String> keys, String table, boolean create,
                          String message, DataProgress progress, boolean dropKey) {
        /** A request that keeps the table's recorded key (and refuses files that would break it). */
        public Request(Path catalog, ObjectStore store, String dataDirKey, List<String> keys, String table, boolean create,
                       String message, DataProgress progress) {
            this(catalog, store, dataDirKey, keys, table, create, message, progress, false);
        }

        public Request {
            if (progress == null) progress = DataProgress.NONE;
            keys = List.copyOf(keys);
            if (keys.isEmpty()) throw new IllegalArgumentException("no file to add");
        }
    }

    /**
     * What was registered.
     *
     * @param rows         the files' rows together
     * @param bytes        their sizes together
     * @param createdTable whether {@code --create} made the table
     */
    public record RegistrationResult(TableName table, long snapshot, List<String> keys, long rows, long bytes, boolean createdTable,
                         List<ImportResult.Column> columns) {
        public RegistrationResult {
            keys = List.copyOf(keys);
            columns = List.copyOf(columns);
        }
    }

    /**
     * The store keys {@code args} name, each a key relative to the data folder ({@code spark/part-0.parquet};
     * one starting with the data folder's own name, {@code data/…}, is taken relative to the root), a
     * glob of such keys ({@code 'spark/*.parquet'}, {@code **} across folders), a folder of them (every
     * {@code .parquet} file below, {@code .} and {@code _} names left out), or, for a repository in a
     * local folder, the path of a file inside its data folder.
     *
     * @param table  the table the files are for, as the user named it (in the commands a refusal prints)
     * @param create whether the command creates the table ({@code --create}, kept in the commands a refusal prints)
     * @throws FdlException not found naming the argument when it names no file; failure for a local file outside the data
     *                      folder (with the commands that copy it in and add it, to be pasted as printed)
     */
    public static List<String> keys(ObjectStore store, String dataDirKey, List<String> args, Path cwd, String table, boolean create) {
        String dataDir = DuckLakePaths.dataPath(dataDirKey);
        String location = store.location(dataDir);
        Set<String> keys = new LinkedHashSet<>();
        for (String arg : args) {
            String key = keyOf(store, dataDir, location, arg, cwd, new Target(table, create));
            if (SourceFiles.isGlob(key)) {
                String fixed = SourceFiles.fixedPart(key.substring(dataDir.length()));
                String prefix = dataDir + (fixed.equals(".") ? "" : fixed);
                PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + key);
                List<String> found;
                try (Stream<ObjectMeta> s = store.list(prefix)) {
                    found = s.map(ObjectMeta::key).filter(k -> m.matches(Path.of(k)) && !hidden(k.substring(dataDir.length())))
                            .sorted().toList();
                }
                if (found.isEmpty()) throw FdlException.notFound("cannot add " + arg + ": no file of the data folder " + location + " matches it");
                keys.addAll(found);
            } else if (store.stat(key).isPresent()) {
                keys.add(key);
            } else {
                List<String> found;
                try (Stream<ObjectMeta> s = store.list(key.endsWith("/") ? key : key + "/")) {
                    found = s.map(ObjectMeta::key).filter(k -> k.endsWith(".parquet") && !hidden(k.substring(dataDir.length())))
                            .sorted().toList();
                }
                if (found.isEmpty()) throw FdlException.notFound("cannot add " + arg + ": the data folder " + location + " has no file "
                        + key.substring(dataDir.length()) + " (nor a folder of Parquet files by that name); name files by their path "
                        + "under the data folder");
                keys.addAll(found);
            }
        }
        return new ArrayList<>(keys);
    }

    /** The store key (or key glob) {@code arg} names; refuses a local file outside the data folder. */
    /** The table files are added to, and whether the command creates it, as the user gave them. */
    private record Target(String table, boolean create) {}

    private static String keyOf(ObjectStore store, String dataDir, String location, String arg, Path cwd, Target table) {
        if (DuckLakePaths.isRemote(arg)) {
            if (arg.startsWith(location)) return dataDir + arg.substring(location.length());
            throw outside(arg, location, false, table);
        }
        Path local = cwd.resolve(arg).normalize();
        boolean isLocal = Path.of(arg).isAbsolute() || arg.startsWith("./") || arg.startsWith("../")
                || (!SourceFiles.isGlob(arg) && Files.exists(local) && !Files.exists(Path.of(location).resolve(arg)));
        if (isLocal) {
            if (!DuckLakePaths.isRemote(location)) {
                Path data = Path.of(location).toAbsolutePath().normalize();
                if (local.startsWith(data) && !local.equals(data)) {
                    return dataDir + data.relativize(local).toString().replace('\\', '/');
                }
            }
            throw outside(local.toString(), location, DuckLakePaths.isRemote(location), table);
        }
        String key = arg.startsWith("/") ? arg.substring(1) : arg;
        return key.startsWith(dataDir) ? key : dataDir + key;
    }

    /**
     * The refusal of a file outside the data folder, with the commands that copy it in (the
     * folder made first: {@code cp} does not make it) and add it to {@code table}, each to be
     * pasted as printed ({@code PrintedCommandsCliTest} runs them).
     */
    private static FdlException outside(String file, String location, boolean remote, Target table) {
        String name = Path.of(file).getFileName() == null ? "file.parquet" : Path.of(file).getFileName().toString();
        String copy = remote ? "aws s3 cp " + ShellQuote.word(file) + " " + ShellQuote.word(location + "incoming/" + name)
                : "mkdir -p " + ShellQuote.word(location + "incoming") + " && cp " + ShellQuote.word(file) + " "
                + ShellQuote.word(location + "incoming/");
        String t = ShellQuote.word(table.table());
        return new FdlException("cannot add " + file + ": it is outside the repository's data folder " + location
                + "; add-files registers files already there without copying them. Copy it in first:\n  " + copy
                + "\n  fdl add-files " + ShellQuote.word("incoming/" + name) + " --table " + t + (table.create() ? " --create" : "")
                + "\nor load a copy with\n  fdl import " + ShellQuote.word(file) + " --table " + t + " --mode "
                + (table.create() ? "create" : "append"));
    }

    private static boolean hidden(String relative) {
        for (String seg : relative.split("/")) if (seg.startsWith(".") || seg.startsWith("_")) return true;
        return false;
    }

    /**
     * Registers {@code request.keys()} in one new snapshot.
     *
     * @param scratch a folder for local copies of a remote repository's files (their footers are read there)
     * @throws FdlException not found for a missing table without {@code --create}; failure naming the file and column
     *                      whose field id, name or type does not match, a file without field ids, or one the table
     *                      already has; conflict when the working catalog changed meanwhile. Nothing changes then.
     */
    public RegistrationResult register(Request request, Path scratch) {
        TableName name = TableName.parse(request.table());
        ObjectStore store = request.store();
        String dataDir = DuckLakePaths.dataPath(request.dataDirKey());
        String location = store.location(dataDir);
        try (WorkingCatalog catalog = WorkingCatalog.open(request.catalog()); Connection duck = pool.connection()) {
            try (Statement st = duck.createStatement()) {
                st.execute(Sql.SET_UTC);
            }
            WorkingCatalog.State state = catalog.state(name);
            Importer.checkDataFolder(location, state.dataPath());
            if (state.table() == null && !request.create())
                throw FdlException.notFound("table " + name + " does not exist in the working catalog; add --create to make it from the "
                        + "first file's columns");
            if (state.table() != null && request.create())
                throw new FdlException("table " + name + " already exists in the working catalog; add files to it without --create");
            List<Path> local = new ArrayList<>();
            for (String key : request.keys()) local.add(readable(store, key, scratch));
            ImportPlan plan;
            if (state.table() == null) {
                plan = ImportPlan.create(name, state, fields(duck, local.get(0), store.location(request.keys().get(0)), name));
            } else {
                for (ColumnTypes.Column c : state.columns()) {
                    if (c.nested()) throw new FdlException("table " + name + " has nested column '" + c.name()
                            + "'; fdl add-files registers files of flat tables only");
                }
                List<ImportPlan.Column> columns = new ArrayList<>();
                for (ColumnTypes.Column c : state.columns()) {
                    String duckType = DuckLakeTypes.toDuckDb(new DuckLakeTypes.Node(c.name(), c.lakeType(), List.of()), name.toString());
                    columns.add(new ImportPlan.Column(c.id(), c.name(), c.name(), duckType, c.lakeType()));
                }
                plan = ImportPlan.append(name, state, columns);
            }
            String tableFolder = dataDir + plan.tableFolderKey(location);
            Set<String> known = registered(catalog, state, store.location(tableFolder));
            List<WorkingCatalog.NewDataFile> files = new ArrayList<>();
            long rows = 0, bytes = 0;
            for (int i = 0; i < local.size(); i++) {
                request.progress().update("reading footers", i, local.size(), "files");
                String key = request.keys().get(i);
                String where = store.location(key);
                if (known.contains(where)) throw new FdlException("cannot add " + where + ": table " + name
                        + " already has it; a file is registered once");
                List<Field> fields = schema(duck, local.get(i), where);
                boolean byName = !fields.isEmpty() && fields.get(0).fieldId() == null;
                List<ImportPlan.Column> fileColumns = byName ? matchingByName(fields, where, plan.columns(), name)
                        : matching(fields, where, plan.columns(), name);
                FileStats stats = FileStats.fromFooter(duck, local.get(i), fileColumns);
                boolean relative = key.startsWith(tableFolder);
                java.util.Map<Long, String> nameMap = null;
                if (byName) {
                    nameMap = new java.util.LinkedHashMap<>();
                    for (ImportPlan.Column c : fileColumns) nameMap.put(c.id(), c.sourceName());
                }
                files.add(new WorkingCatalog.NewDataFile(relative ? key.substring(tableFolder.length()) : where, stats, relative, nameMap));
                rows += stats.recordCount();
                bytes += stats.fileSizeBytes();
            }
            request.progress().update("reading footers", local.size(), local.size(), "files");
            String message = request.message() != null ? request.message()
                    : "add-files: " + files.size() + " file(s) into " + name;
            if (!request.dropKey()) checkKey(duck, new RecordedKeyCheck.Rows(catalog, state, plan, local,
                    ImportRequest.of(request.catalog(), store, request.dataDirKey(), local.get(0), name.toString(), ImportMode.APPEND),
                    request.keys().stream().map(store::location).toList()), name);
            long snapshot = catalog.commit(new WorkingCatalog.ImportCommit(state, plan, files, request.dropKey() ? List.of() : null),
                    "add-files", null, message, duck);
            record(DataFileDigests.beside(request.catalog()), request.keys(), local);
            return new RegistrationResult(name, snapshot, request.keys(), rows, bytes, plan.createsTable(), ImportResult.of(plan.columns()));
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot add files to " + name + ": " + DuckDbErrors.duckError(e), e);
        }
    }

    /**
     * Refuses files whose rows would leave the table's recorded key (docs/data.md "The recorded key")
     * NULL or repeated, as {@code import --mode append} does: a later {@code fdl diff} of the table
     * would fail on it.
     */
    private void checkKey(Connection duck, RecordedKeyCheck.Rows rows, TableName name) throws SQLException {
        if (rows.state().table() == null) return;
        List<String> key = RowKey.current(rows.catalog().connection(), rows.state().table().id());
        if (key.isEmpty()) return;
        String refusal = "cannot add " + (rows.written().size() == 1 ? "the file" : rows.written().size() + " files") + " to " + name
                + ": the table's key (" + String.join(", ", key) + "), recorded by import --mode sync --key, ";
        String remedies = ". Nothing was added. Remove those rows from the files, or add them with --no-key to drop the recorded key "
                + "(fdl diff then compares whole rows)";
        try {
            RecordedKeyCheck.check(duck, rows, key, pool, refusal, remedies);
        } catch (IOException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot check the key of table " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * Records each registered file's SHA-256 in the working copy's book (docs/signing.md), hashed
     * from the copy read here (a remote repository's download, or the local repository's file), so
     * that commit does not read it again.
     */
    private static void record(DataFileDigests book, List<String> keys, List<Path> local) {
        for (int i = 0; i < keys.size(); i++) {
            try {
                book.record(keys.get(i), Files.size(local.get(i)), dev.fdl.util.Sha256.of(local.get(i)));
            } catch (IOException | FdlException e) {
                // the book only spares work: commit hashes what it does not know
            }
        }
    }

    /** A local path DuckDB reads {@code key} at: the file itself in a local repository, else a copy in {@code scratch}. */
    private static Path readable(ObjectStore store, String key, Path scratch) {
        String where = store.location(key);
        if (!DuckLakePaths.isRemote(where)) return Path.of(where);
        Path copy = scratch.resolve(key.replace('/', '_'));
        if (store.download(key, copy).isEmpty()) throw FdlException.notFound("cannot add " + where + ": no such file");
        return copy;
    }

    /** One field of a file's top level: name, Parquet field id (null: none) and DuckDB type (null: nested). */
    private record Field(String name, Long fieldId, String duckType) {}

    private static List<Field> schema(Connection duck, Path file, String where) {
        List<Field> fields = new ArrayList<>();
        // the first row is the schema's root; its children are the top-level fields, in order
        try (PreparedStatement ps = duck.prepareStatement("SELECT name, field_id, duckdb_type, num_children FROM parquet_schema(?)")) {
            ps.setString(1, file.toAbsolutePath().toString());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) throw new FdlException("cannot add " + where + ": it has no Parquet schema");
                long top = rs.getLong(4);
                while (fields.size() < top && rs.next()) {
                    long fid = rs.getLong(2);
                    Long id = rs.wasNull() ? null : fid;
                    rs.getLong(4);
                    boolean nested = !rs.wasNull() && rs.getLong(4) > 0;
                    if (nested) throw new FdlException("cannot add " + where + ": column '" + rs.getString(1)
                            + "' is nested; fdl add-files registers files of flat columns only");
                    fields.add(new Field(rs.getString(1), id, rs.getString(3)));
                }
            }
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot add " + where + ": it is not a Parquet file DuckDB reads ("
                    + DuckDbErrors.duckError(e) + ")", e);
        }
        long withIds = fields.stream().filter(f -> f.fieldId() != null).count();
        if (withIds != 0 && withIds != fields.size()) {
            throw new FdlException("cannot add " + where + ": column '" + fields.stream().filter(f -> f.fieldId() == null).findFirst()
                    .map(Field::name).orElse("?") + "' has no Parquet field id while others have one; write the file with field ids on "
                    + "every column or on none (then its columns are matched to the table's by name)");
        }
        return fields;
    }

    /**
     * The columns of a new table: the first file's fields, their field ids as column ids (1, 2, …
     * for a file without field ids, whose fields are then matched by name).
     */
    private static List<ImportPlan.Column> fields(Connection duck, Path file, String key, TableName name) {
        List<ImportPlan.Column> columns = new ArrayList<>();
        Set<Long> ids = new java.util.HashSet<>();
        Set<String> names = new java.util.HashSet<>();
        long next = 1;
        for (Field f : schema(duck, file, key)) {
            long id = f.fieldId() != null ? f.fieldId() : next++;
            if (!ids.add(id)) throw new FdlException("cannot add " + key + ": field id " + id + " is used twice");
            if (!names.add(dev.fdl.ducklake.engine.Identifiers.fold(f.name())))
                throw new FdlException("cannot add " + key + ": column '" + f.name() + "' appears twice (names equal but for case are one column)");
            columns.add(new ImportPlan.Column(id, f.name(), f.name(), f.duckType(), ImportPlan.lakeType(f.name(), f.duckType(), file)));
        }
        return columns;
    }

    /**
     * The table's columns as a file without field ids holds them, matched by name: for each column
     * the field spelled exactly so, else the one equal but for ASCII case (DuckDB's identifier
     * rule, {@link Identifiers#same}); each column's {@code sourceName} is the file's own spelling,
     * recorded in the file's name mapping. Refuses a file that lacks a column, holds one of another
     * type, or holds a field that is no column of the table, naming the file and the column.
     */
    private static List<ImportPlan.Column> matchingByName(List<Field> fields, String where, List<ImportPlan.Column> table,
                                                          TableName name) {
        List<ImportPlan.Column> out = new ArrayList<>();
        Set<Field> used = new java.util.HashSet<>();
        for (ImportPlan.Column c : table) {
            Field f = fields.stream().filter(x -> x.name().equals(c.name())).findFirst()
                    .orElse(fields.stream().filter(x -> Identifiers.same(x.name(), c.name())).findFirst().orElse(null));
            if (f == null) throw new FdlException("cannot add " + where + " to " + name + ": it has no column '" + c.name()
                    + "' (the file has no Parquet field ids, so its columns are matched by name); every file must hold every column of the table");
            if (!f.duckType().equalsIgnoreCase(c.duckType())) throw new FdlException("cannot add " + where + " to " + name
                    + ": column '" + c.name() + "' is " + c.duckType() + " in the table but " + f.duckType()
                    + " in the file; write the file with the table's types");
            used.add(f);
            out.add(new ImportPlan.Column(c.id(), c.name(), f.name(), c.duckType(), c.lakeType()));
        }
        for (Field f : fields) {
            if (!used.contains(f)) throw new FdlException("cannot add " + where + " to " + name + ": its column '" + f.name()
                    + "' is not a column of the table (it has: " + String.join(", ", table.stream().map(ImportPlan.Column::name).toList()) + ")");
        }
        return out;
    }

    /**
     * The table's columns as a file with field ids holds them (each column's {@code sourceName} the file's
     * own spelling); refuses a file whose fields are not the table's columns by field id, name and type.
     */
    private static List<ImportPlan.Column> matching(List<Field> fields, String where, List<ImportPlan.Column> table,
                                                    TableName name) {
        List<ImportPlan.Column> out = new ArrayList<>();
        for (ImportPlan.Column c : table) {
            Field f = fields.stream().filter(x -> x.fieldId() != null && x.fieldId() == c.id()).findFirst().orElse(null);
            if (f == null) throw new FdlException("cannot add " + where + " to " + name + ": it has no column '" + c.name()
                    + "' (field id " + c.id() + "); every file must hold every column of the table");
            if (!Identifiers.same(f.name(), c.name())) throw new FdlException("cannot add " + where + " to " + name + ": field id "
                    + c.id() + " is column '" + c.name() + "' in the table but '" + f.name() + "' in the file");
            if (!f.duckType().equalsIgnoreCase(c.duckType())) throw new FdlException("cannot add " + where + " to " + name
                    + ": column '" + c.name() + "' is " + c.duckType() + " in the table but " + f.duckType()
                    + " in the file; write the file with the table's types");
            out.add(new ImportPlan.Column(c.id(), c.name(), f.name(), c.duckType(), c.lakeType()));
        }
        for (Field f : fields) {
            if (table.stream().noneMatch(c -> f.fieldId() != null && c.id() == f.fieldId())) throw new FdlException("cannot add " + where + " to " + name
                    + ": its column '" + f.name() + "' (field id " + f.fieldId() + ") is not a column of the table (it has: "
                    + String.join(", ", table.stream().map(c -> c.name() + " = " + c.id()).toList()) + ")");
        }
        return out;
    }

    /** The absolute locations of the data files the table names at the newest snapshot. */
    private static Set<String> registered(WorkingCatalog catalog, WorkingCatalog.State state, String folder) throws SQLException {
        Set<String> out = new java.util.HashSet<>();
        if (state.table() == null) return out;
        try (PreparedStatement ps = catalog.connection().prepareStatement("SELECT path, path_is_relative FROM ducklake_data_file "
                + "WHERE table_id = ? AND end_snapshot IS NULL")) {
            ps.setLong(1, state.table().id());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String p = rs.getString(1);
                    String rel = rs.getString(2);
                    boolean relative = rel == null || rel.equals("1") || rel.equalsIgnoreCase("true");
                    out.add(relative ? folder + p : p);
                }
            }
        }
        return out;
    }
}
