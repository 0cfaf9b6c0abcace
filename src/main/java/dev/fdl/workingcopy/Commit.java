package dev.fdl.workingcopy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.dataset.DatasetDescriptor;
import dev.fdl.dataset.TableFacts;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.catalog.CatalogFiles;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.DuckDbStorage;
import dev.fdl.ducklake.rewrite.DataPath;
import dev.fdl.ducklake.rewrite.HistoryTruncation;
import dev.fdl.ducklake.working.EmptySnapshot;
import dev.fdl.repo.FormatVersion;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RefUpdate;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.RepoConfig;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Payload;
import dev.fdl.util.Json;
import dev.fdl.util.JsonRead;
import dev.fdl.util.Sha256;
import dev.fdl.util.ShellQuote;
import dev.fdl.util.VersionIds;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * {@code fdl commit}: exactly the nine steps of SPEC.md section 4, in that order, one method
 * each. Nothing a reader can reach changes before step 9 (the ref), so a commit that stops
 * anywhere earlier leaves the repository as readers saw it; a refused step 9 is a conflict
 * (exit 3) that leaves only an unreferenced version folder behind (gc removes it). Commit never
 * writes or deletes anything under the data folder.
 */
public final class Commit {
    /** What a successful commit made. */
    public record CommitResult(VersionInfo version, String branch, boolean createdBranch) {}

    /**
     * What {@code fdl commit} may do beyond the default.
     *
     * @param allowDescriptionLoss accept a description without the parent's title or license
     * @param allowEmpty           publish a version even when nothing changed since the base (as
     *                             {@code git commit --allow-empty}): its catalog adds one empty snapshot
     */
    public record Options(boolean allowDescriptionLoss, boolean allowEmpty, PreCommit preCommit, Seal seal, VersionFiles versionFiles) {
        /** Neither, and no checks. */
        public static final Options NONE = new Options(false, false);

        public Options {
            java.util.Objects.requireNonNull(preCommit, "preCommit");
            java.util.Objects.requireNonNull(seal, "seal");
            java.util.Objects.requireNonNull(versionFiles, "versionFiles");
        }

        /** Without checks ({@link PreCommit#NONE}). */
        public Options(boolean allowDescriptionLoss, boolean allowEmpty) {
            this(allowDescriptionLoss, allowEmpty, PreCommit.NONE);
        }

        /** Without a seal ({@link Seal#NONE}) and without files beyond the catalog and description ({@link VersionFiles#NONE}). */
        public Options(boolean allowDescriptionLoss, boolean allowEmpty, PreCommit preCommit) {
            this(allowDescriptionLoss, allowEmpty, preCommit, Seal.NONE, VersionFiles.NONE);
        }
    }

    /**
     * Files a commit adds to the new version folder before its digest manifest is made (step 5a;
     * the version's Iceberg metadata, docs/iceberg.md), so the manifest lists them: plain writes
     * into a folder no reader reaches yet.
     */
    @FunctionalInterface
    public interface VersionFiles {
        /** Adds nothing. */
        VersionFiles NONE = (repo, version, catalog) -> Map.of();

        /**
         * @param catalog the version's DuckDB catalog, as step 6 uploads it
         * @return each file written, its key (relative to the root) to its hex SHA-256, taken from the bytes written
         * @throws FdlException exit 1 naming what cannot be written; the version is not published
         */
        Map<String, String> write(Repository repo, VersionInfo version, Path catalog);
    }

    /**
     * Step 5b (docs/signing.md): the version's digest manifest and signature, made before the
     * catalog is uploaded (after step 5a's files, which it lists). The {@code trust} package implements it; the CLI hands it in.
     */
    @FunctionalInterface
    public interface Seal {
        /** Adds nothing. */
        Seal NONE = (repo, wc, v, catalog, written) -> new Sealed(v, List.of());

        /**
         * @param v       version.json as step 4 made it
         * @param catalog the catalog to be uploaded
         * @param written the version folder's files step 5a wrote ({@link VersionFiles}), key to hex SHA-256
         * @return version.json as uploaded (recording the manifest), and the files uploaded before it
         * @throws FdlException exit 1 when a file cannot be hashed or the key cannot sign; nothing is uploaded
         */
        Sealed seal(Repository repo, WorkingCopy wc, VersionInfo v, Path catalog, Map<String, String> written);
    }

    /** What {@link Seal} made: version.json to upload, and the version folder's files uploaded before it (name, bytes). */
    public record Sealed(VersionInfo version, List<Map.Entry<String, byte[]>> files) {
        public Sealed {
            files = List.copyOf(files);
        }
    }

    /**
     * Step 3a (SPEC.md section 4): the checks of docs/checks.md (constraints, SQL checks, change
     * guards, hooks), run on the commit's catalog and filled dataset.json before anything is uploaded.
     */
    @FunctionalInterface
    public interface PreCommit {
        /** Checks nothing, records nothing. */
        PreCommit NONE = (repo, wc, catalog, dataset) -> null;

        /**
         * @param catalog the DuckDB catalog of steps 1 and 2 (its data path is the repository's data folder)
         * @param dataset the filled dataset.json of step 3
         * @return what version.json records under {@code checks}, or null for nothing
         * @throws FdlException exit 1 when a check fails or cannot run, naming it; nothing is uploaded
         */
        ObjectNode check(Repository repo, WorkingCopy wc, Path catalog, Path dataset);
    }

    /**
     * What a commit of the working copy would publish over its base version: the DuckLake
     * snapshots made since checkout, how the description differs from the base version's, and the
     * DuckLake format of the base (a new branch's format without one) and of the working catalog.
     * A version always adds at least one snapshot (SPEC.md section 4); when there is none but the
     * description or the format changed, the commit adds an empty one itself ({@link EmptySnapshot}).
     */
    public record Pending(long snapshots, Description.Change description, String baseFormat, String format) {
        /** True when the working catalog's DuckLake format is not the base version's (fdl checkout --ducklake-format). */
        public boolean formatChanged() {
            return !baseFormat.equals(format);
        }

        /** True when nothing would be published: no snapshot, and the base's description and format. */
        public boolean isEmpty() {
            return snapshots == 0 && description == Description.Change.UNCHANGED && !formatChanged();
        }

        /** True when the commit adds the version's snapshot itself: none since checkout, but a description or format to publish. */
        public boolean commitAddsSnapshot() {
            return snapshots == 0 && !isEmpty();
        }
    }

    /** Above this many named files, step 5 lists the data folder once instead of one HEAD per file. */
    static final int HEAD_CHECK_LIMIT = 256;

    private final Repository repo;
    private final WorkingCopy wc;
    private final WorkingCopy.State state;
    private final String message;
    private final VersionInfo.Author author;
    private final Clock clock;
    private final ProgressListener progress;
    private final Path work;
    private Options options = Options.NONE;

    private Commit(Repository repo, WorkingCopy wc, String message, VersionInfo.Author author, Clock clock, ProgressListener progress) {
        this.repo = repo;
        this.wc = wc;
        this.state = wc.state();
        this.message = messageNamingRestore(message, state);
        this.author = author;
        this.clock = clock;
        this.progress = progress;
        this.work = wc.tmp();
    }

    /**
     * Commits the working copy's new snapshots, edited description and DuckLake format as a new version of its
     * branch; with no snapshot since checkout it adds one that changes nothing (SPEC.md section 4).
     *
     * @throws FdlException exit 1: nothing to commit, detached working copy, dataset.json or files refused;
     *                      exit 3: the branch moved since checkout (conflict)
     */
    public static CommitResult run(Repository repo, WorkingCopy wc, String message, VersionInfo.Author author,
                             Clock clock, ProgressListener progress) {
        return run(repo, wc, message, author, clock, progress, Options.NONE);
    }

    /**
     * {@link #run(Repository, WorkingCopy, String, VersionInfo.Author, Clock, ProgressListener)} with
     * {@link Options}: with {@code allowDescriptionLoss} a description without the parent's title
     * or license is accepted (otherwise refused before anything is uploaded, exit 1); with
     * {@code allowEmpty} a commit with nothing to publish makes a version anyway.
     */
    public static CommitResult run(Repository repo, WorkingCopy wc, String message, VersionInfo.Author author,
                             Clock clock, ProgressListener progress, Options options) {
        reconcile(repo, wc);
        Commit c = new Commit(repo, wc, message, author, clock, progress);
        c.options = options;
        return c.run();
    }

    /**
     * What a commit of {@code wc} would publish ({@link Pending}); status shows it.
     *
     * @throws FdlException (exit 1) when the working catalog cannot be read
     */
    public static Pending pending(Repository repo, WorkingCopy wc) {
        try (CatalogInspector c = CatalogInspector.open(wc.catalog())) {
            return pending(repo, wc, new CatalogSummary.Facts(c.lastSnapshotId(), c.formatVersion()));
        }
    }

    /** {@link #pending(Repository, WorkingCopy)} given the working catalog's newest snapshot and format ({@link CatalogSummary}). */
    public static Pending pending(Repository repo, WorkingCopy wc, CatalogSummary.Facts catalog) {
        VersionInfo base = Description.base(repo, wc).orElse(null);
        return new Pending(Math.max(0, catalog.lastSnapshot() - wc.state().baseSnapshot()), Description.change(wc, base),
                base == null ? EmptyCatalog.NEW_FORMAT : base.ducklake().format(), catalog.format());
    }

    /**
     * Runs the steps; when the branch moved since checkout (exit 3) the message is kept in the
     * working copy's state as the next commit's default, so {@code fdl pull} then {@code fdl commit} keeps it.
     */
    private CommitResult run() {
        try {
            return steps();
        } catch (FdlException e) {
            if (e.kind() == FdlException.Kind.CONFLICT && message != null && !message.isBlank()) {
                try {
                    wc.save(wc.state().withProposedMessage(message));
                } catch (RuntimeException saving) {
                    e.addSuppressed(saving);
                }
            }
            throw e;
        }
    }

    private CommitResult steps() {
        Pending pending = preconditions();
        DuckDbStorage storage = catalogStorage(repo);
        long first = state.baseVersion() == null ? 0 : state.baseSnapshot() + 1;
        Path catalog = work.resolve("commit.duckdb");
        Path dataset = work.resolve("dataset.json");
        // a version always adds a snapshot (SPEC.md section 4): with none since checkout, this commit
        // adds an empty one to the working catalog, and takes it back if the version is not published
        long added = pending.snapshots() == 0 ? EmptySnapshot.add(wc.catalog(), author.toString(), message) : -1;
        boolean refTried = false;
        boolean published = false;
        try {
            copyCatalog(catalog, first, storage);                              // 1, 2
            CatalogFacts facts = fillDataset(catalog, dataset);                // 3
            ObjectNode checks = options.preCommit().check(repo, wc, catalog, dataset); // 3a
            VersionInfo v = versionJson(catalog, dataset, facts, first, checks); // 4
            checkFilesExist(catalog);                                          // 5
            Map<String, String> written = options.versionFiles().write(repo, v, catalog); // 5a: Iceberg metadata
            Sealed sealed = options.seal().seal(repo, wc, v, catalog, written); // 5b: digests (5a's files too), signature
            v = sealed.version();
            upload(v, v.catalog().path(), Payload.of(catalog));                // 6
            upload(v, v.dataset().path(), Payload.of(dataset));                // 7
            for (Map.Entry<String, byte[]> f : sealed.files()) upload(v, f.getKey(), Payload.of(f.getValue())); // 7a: manifest, signature
            upload(v, RepoLayout.VERSION_JSON, Payload.of(v.toBytes()));                // 8
            wc.save(state.withCommitting(v.id()));   // lets a run after a crash here recognise its own version
            refTried = true;
            String etag = moveRef(v);                                          // 9
            published = true;
            wc.save(state.committed(v.id(), etag, v.ducklake().lastSnapshot()));
            if (state.merging() != null) wc.deleteOtherCatalogs(); // the catalog before the merge: --abort no longer goes back to it
            Description.writeBack(wc, dataset); // the working copy now holds the version's description, as git's checkout would
            return new CommitResult(v, state.branch(), state.refEtag() == null);
        } catch (RuntimeException e) {
            // take the snapshot back only when no ref can name the version: before step 9, or step 9
            // refused (conflict). After any other failure of step 9 the ref may have moved (a lost
            // reply): the snapshot stays, so that reconcile finds it; unpublished, the next commit publishes it
            boolean refused = e instanceof FdlException f && f.kind() == FdlException.Kind.CONFLICT;
            if (added >= 0 && (!refTried || refused && !published)) takeBack(added, e);
            throw e;
        } finally {
            deleteQuietly(catalog);
            deleteQuietly(dataset);
        }
    }

    /** Removes the empty snapshot this commit added; a failure to do so is noted on {@code cause}, never hides it. */
    private void takeBack(long snapshot, RuntimeException cause) {
        try {
            EmptySnapshot.remove(wc.catalog(), snapshot);
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    /**
     * Finishes the bookkeeping of a commit that moved the branch but stopped before saving the
     * working copy's state (a crash right after step 9): when the state notes the version step 9
     * was writing and the branch points at it, that version becomes the base.
     *
     * @return true when the state was updated
     */
    public static boolean reconcile(Repository repo, WorkingCopy wc) {
        WorkingCopy.State st = wc.state();
        String pending = st.committing();
        if (pending == null || st.branch() == null) return false;
        java.util.Optional<RefValue> ref = repo.readBranch(new RefName(st.branch()));
        java.util.Optional<VersionInfo> v = repo.readVersion(pending);
        if (ref.isPresent() && ref.get().versionId().equals(pending) && v.isPresent()) {
            wc.save(st.committed(pending, ref.get().etag(), v.get().ducklake().lastSnapshot()));
            return true;
        }
        wc.save(st.withoutCommitting());
        return false;
    }

    /**
     * The commit's message when none is given: the one proposed (by a commit refused at a conflict,
     * or by revert), else a pending merge's. After {@code fdl restore}, a commit's message names the
     * restored version: with no message, the one restore proposed; a given message that does not
     * name it gets a line that does.
     */
    private static String messageNamingRestore(String message, WorkingCopy.State state) {
        if ((message == null || message.isBlank()) && state.proposedMessage() != null) message = state.proposedMessage();
        WorkingCopy.State.PendingMerge merge = state.merging();
        if (merge != null && (message == null || message.isBlank())) return merge.message();
        String[] restored = state.restored();
        if (restored == null) return message;
        if (message == null || message.isBlank()) return restored[1];
        return message.contains(restored[0]) ? message : message + "\n\nRestores version " + restored[0] + ".";
    }

    private Pending preconditions() {
        state.requireBelongsTo(repo);
        if (state.branch() == null)
            throw new FdlException("the working copy is not on a branch (checked out from version " + state.baseVersion()
                    + "); create one to commit to: fdl checkout -b <new-branch>");
        if (message == null || message.isBlank()) throw FdlException.usage("a commit needs a message: fdl commit -m \"...\"");
        Pending pending = pending(repo, wc);
        if (pending.isEmpty() && !options.allowEmpty())
            throw new FdlException("nothing to commit: the working catalog has no DuckLake snapshot since "
                    + (state.baseVersion() == null ? "checkout (branch '" + state.branch() + "' has no version yet)"
                    : "version " + state.baseVersion() + " (snapshot " + state.baseSnapshot() + ")")
                    + ", and " + Description.file(wc).getFileName() + " and the DuckLake format are the base's; load data first "
                    + "(fdl import, fdl sql, or fdl run) or edit the description, or publish a version anyway with fdl commit --allow-empty -m "
                    + ShellQuote.word(message));
        checkRefAndBase();
        return pending;
    }

    /**
     * Reads the branch and the base version before anything is uploaded: a corrupt ref file, a
     * branch deleted, created or moved since checkout, or a base without version.json would make
     * step 9 (or step 4) fail after the upload and leave a version folder behind for nothing.
     * Step 9 stays conditional: this only spares a doomed upload, it decides nothing.
     *
     * @throws FdlException exit 1 for a corrupt ref or a missing base; exit 3 when the branch changed
     */
    private void checkRefAndBase() {
        RefName branch = new RefName(state.branch());
        java.util.Optional<RefValue> ref = repo.readBranch(branch); // a corrupt ref file throws here, naming it
        String now = null;
        if (state.refEtag() == null && ref.isPresent()) now = "it was created since checkout and points at version " + ref.get().versionId();
        else if (state.refEtag() != null && ref.isEmpty()) now = "it was deleted (fdl branch -d)";
        else if (state.refEtag() != null && !dev.fdl.store.ETags.same(ref.get().etag(), state.refEtag()))
            now = "it now points at version " + ref.get().versionId()
                    + repo.readVersion(ref.get().versionId()).map(x -> " (\"" + x.message() + "\" by " + x.author() + ")").orElse("");
        if (now != null)
            throw FdlException.conflict("branch '" + branch + "' moved since checkout: " + now + ". Nothing was uploaded. "
                    + (now.startsWith("it now points") ? "To go on: bring the branch's new version under your work (fdl pull, then fdl "
                    + "commit; or fdl commit --pull, which does both), or " : "To go on: ") + "keep your work on a new branch (fdl checkout -b <new-branch>, then fdl commit), or start again "
                    + "from the branch (fdl checkout --force " + ShellQuote.word(branch) + ", apply your changes again, and commit).");
        if (state.baseVersion() != null && repo.readVersion(state.baseVersion()).isEmpty())
            throw new FdlException("the base version " + state.baseVersion() + " has no version.json in " + repo.root()
                    + "; nothing was uploaded; check out again");
    }

    /**
     * The DuckDB storage of committed catalogs: {@link DuckDbStorage#DEFAULT} (read by DuckDB 1.5 and
     * 2.0) unless fdl.json opts into another ({@link RepoConfig#CATALOG_STORAGE}).
     *
     * @throws FdlException (exit 1) naming fdl.json's key and value, and how to mend the file, when
     *     it is not a storage fdl can write (checked before anything is uploaded)
     */
    static DuckDbStorage catalogStorage(Repository repo) {
        String config = repo.store().root() + RepoLayout.CONFIG;
        return repo.config().catalogStorage()
                .map(s -> DuckDbStorage.parse(s, RepoLayout.CONFIG + " key '" + RepoConfig.CATALOG_STORAGE + "'", FdlException.Kind.FAILURE,
                        "no commit can be made until " + config + " is mended: set the key to " + DuckDbStorage.acceptedValues()
                                + ", or remove it for \"" + DuckDbStorage.DEFAULT.storageString() + "\" (DuckDB 1.5 and 2.0 readers)"))
                .orElse(DuckDbStorage.DEFAULT);
    }

    /**
     * Steps 1 and 2: SQLite itself copies the working catalog ({@code VACUUM INTO}: a consistent
     * copy, WAL included), the snapshots before {@code first} (the parent's history) are dropped
     * and the data path is set in that copy, and the copy is converted once into a fresh DuckDB
     * file at {@code catalog}. Truncating before the conversion keeps the DuckDB file free of the
     * deleted rows, free blocks and half-used metadata blocks that deletes in DuckDB leave behind
     * (docs/catalog.md "Compact catalogs"), without a second copy of the whole catalog.
     */
    private void copyCatalog(Path catalog, long first, DuckDbStorage storage) {
        Path copy = work.resolve("commit-work.sqlite");
        try {
            deleteQuietly(copy);
            EmptyCatalog.copySqlite(wc.catalog(), copy);
            if (first > 0) HistoryTruncation.truncateBefore(copy, first);
            setDataPath(copy);
            CatalogConverter.toDuckDb(copy, catalog, storage, progress);
        } finally {
            deleteQuietly(copy);
        }
    }

    /** Step 2: data_path = the repository's data folder; refuse files recorded absolute outside it. */
    private void setDataPath(Path catalog) {
        List<String> outside = DataPath.set(catalog, repo.dataLocation());
        if (!outside.isEmpty())
            throw new FdlException("the catalog names " + outside.size() + " file(s) outside the repository's data folder "
                    + repo.dataLocation() + ", which readers of the repository could not reach:\n  " + abbreviate(outside)
                    + "\nwrite data through the working copy (fdl import, or DuckLake attached by fdl sql/run)");
    }

    private record CatalogFacts(String format, long last, List<TableFacts> tables) {}

    /** The tables of snapshot {@code last} as dataset.json's filling needs them: resource name, rows, columns (SPEC.md section 3). */
    public static List<TableFacts> tableFacts(CatalogInspector c, long last) {
        List<TableFacts> tables = new ArrayList<>();
        for (var t : c.tables(last)) {
            List<TableFacts.Column> cols = t.columns().stream().map(col -> new TableFacts.Column(col.name(), col.type())).toList();
            tables.add(new TableFacts(TableFacts.resourceName(t.schema(), t.name()), c.rowCount(t.tableId(), last), cols));
        }
        return tables;
    }

    /** Step 3: check and fill dataset.json against the newest snapshot (SPEC.md section 3). */
    private CatalogFacts fillDataset(Path catalog, Path out) {
        CatalogFacts facts;
        try (CatalogInspector c = CatalogInspector.open(catalog)) {
            long last = c.lastSnapshotId();
            facts = new CatalogFacts(c.formatVersion(), last, tableFacts(c, last));
        }
        Path described = wc.datasetFile();
        ObjectNode descriptor = null;
        String name = described == null ? "dataset.json" : described.getFileName().toString();
        if (described != null) {
            try {
                descriptor = JsonRead.parseUserObject(Files.readAllBytes(described), described.toString());
            } catch (IOException e) {
                throw new FdlException("cannot read " + described + ": " + e.getMessage());
            }
        }
        ObjectNode filled = DatasetDescriptor.checkAndFill(descriptor, name, facts.tables(), wc.dir().getFileName().toString());
        VersionInfo parent = state.baseVersion() == null ? null : repo.readVersion(state.baseVersion()).orElse(null);
        Description.checkNothingLost(repo, parent, filled, name, options.allowDescriptionLoss());
        try {
            Files.write(out, Json.bytes(filled));
        } catch (IOException e) {
            throw new FdlException("cannot write " + out + ": " + e.getMessage());
        }
        return facts;
    }

    /** Step 4: version.json with a new UUIDv7, seq, parents, sizes and checksums, and what step 3a checked. */
    private VersionInfo versionJson(Path catalog, Path dataset, CatalogFacts facts, long first, ObjectNode checks) {
        long seq = 1;
        List<String> parents = List.of();
        if (state.baseVersion() != null) {
            VersionInfo parent = repo.readVersion(state.baseVersion()).orElseThrow(() -> new FdlException(
                    "the base version " + state.baseVersion() + " has no version.json in " + repo.root() + "; check out again"));
            seq = parent.seq() + 1;
            parents = List.of(parent.id());
            WorkingCopy.State.PendingMerge merge = state.merging();
            if (merge != null) {
                // a merge version: the branch's own history first, the merged version second (SPEC.md section 7)
                VersionInfo other = repo.readVersion(merge.version()).orElseThrow(() -> new FdlException("the merged version "
                        + merge.version() + " has no version.json in " + repo.root() + "; abort the merge with fdl merge --abort"));
                seq = Math.max(parent.seq(), other.seq()) + 1;
                parents = List.of(parent.id(), other.id());
            }
        }
        try {
            return new VersionInfo(FormatVersion.CURRENT, VersionIds.next(), seq, parents, Instant.now(clock), author, message,
                    new VersionInfo.FileRef(RepoLayout.CATALOG, CatalogConverter.duckDbStorage(catalog), Files.size(catalog), Sha256.of(catalog)),
                    new VersionInfo.FileRef(RepoLayout.DATASET, null, Files.size(dataset), Sha256.of(dataset)),
                    new VersionInfo.DuckLakeInfo(facts.format(), facts.last(), first, facts.last()),
                    checks == null ? Map.of() : Map.of(VersionInfo.CHECKS, checks));
        } catch (IOException e) {
            throw new FdlException("cannot read " + catalog + ": " + e.getMessage());
        }
    }

    /** Step 5: every data and delete file the catalog names, in any snapshot, must be in the repository. */
    private void checkFilesExist(Path catalog) {
        String dataLocation = repo.dataLocation();
        Set<String> keys = new HashSet<>();
        Set<String> missing = new TreeSet<>();
        // the same location-to-key rule gc and verify use (step 2 set data_path to dataLocation)
        CatalogFiles.duckLake().forEach(catalog, f -> {
            String name = f.nameIn(dataLocation);
            if (name != null) keys.add(repo.dataDir() + name);
            else missing.add(f.location() + " (outside the data folder)");
        });
        ObjectStore store = repo.store();
        if (keys.size() <= HEAD_CHECK_LIMIT) {
            for (String k : keys) if (store.stat(k).isEmpty()) missing.add(k); // metadata only, never the file
        } else {
            Set<String> pending = new HashSet<>(keys);
            try (Stream<ObjectMeta> s = store.list(repo.dataDir())) {
                s.forEach(m -> pending.remove(m.key()));
            }
            missing.addAll(pending);
        }
        if (!missing.isEmpty())
            throw new FdlException("the catalog names " + missing.size() + " file(s) that are not in the repository:\n  "
                    + abbreviate(new ArrayList<>(missing)) + "\nnothing was uploaded; restore the files or drop the data that names them. If fdl gc deleted them (an import not "
                    + "committed within gc's grace period), start again from the branch and import again: fdl checkout --force "
                    + (state.branch() == null ? "<branch>" : ShellQuote.word(state.branch())));
    }

    /** Steps 6 to 8: plain writes into the new version folder, which no one else writes. */
    private void upload(VersionInfo v, String name, Payload body) {
        repo.store().put(RepoLayout.versionFile(v.id(), name), body);
    }

    /** Step 9: create the branch (If-None-Match: *) or move it (If-Match: the ETag read at checkout). */
    private String moveRef(VersionInfo v) {
        RefName branch = new RefName(state.branch());
        RefUpdate update = repo.updateRef(RefValue.Kind.BRANCH, branch);
        RefUpdate.Outcome o = state.refEtag() == null ? update.create(v.id()) : update.move(state.refEtag(), v.id());
        if (o.result().changed()) return o.ref().etag();
        if (o.result() == RefUpdate.Result.CONFLICT && o.current() == null && state.refEtag() == null) // a ref in the way of the name
            throw FdlException.conflict(o.message() + ". Your version " + v.id() + " was uploaded but no ref points at it "
                    + "(fdl gc removes it); nothing else changed. Commit to another branch: fdl checkout -b <new-branch>, then fdl commit.");
        String now = o.current() == null ? "it was deleted (fdl branch -d)" : "it now points at version " + o.current().versionId()
                + repo.readVersion(o.current().versionId()).map(x -> " (\"" + x.message() + "\" by " + x.author() + ")").orElse("");
        throw FdlException.conflict("branch '" + branch + "' moved since checkout: " + now + ". Your version " + v.id()
                + " was uploaded but no ref points at it (fdl gc removes it); nothing else changed. To go on: keep your work on "
                + "a new branch (fdl checkout -b <new-branch>, then fdl commit), or start again from the branch "
                + "(fdl checkout --force " + ShellQuote.word(branch) + ", apply your changes again, and commit).");
    }

    private static String abbreviate(List<String> items) {
        int n = Math.min(items.size(), 20);
        String s = String.join("\n  ", items.subList(0, n));
        return items.size() > n ? s + "\n  … and " + (items.size() - n) + " more" : s;
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a leftover scratch file in .fdl/tmp is harmless
        }
    }
}
