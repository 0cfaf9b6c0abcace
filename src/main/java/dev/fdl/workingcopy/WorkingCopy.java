package dev.fdl.workingcopy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.repo.Repository;
import dev.fdl.util.AtomicFile;
import dev.fdl.util.Json;
import dev.fdl.util.JsonRead;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A working copy (SPEC.md section 4, checkout): a local folder whose {@code .fdl/} holds the
 * SQLite working catalog ({@code .fdl/catalog-<uuid>.sqlite}) and the state ({@code .fdl/state.json}:
 * repository root, branch, base version id, the ETag of the branch ref when it was read, the
 * newest snapshot of the base, and the name of the working catalog's file). The user's
 * {@code dataset.json} lives beside {@code .fdl/}. Commands find it by walking up from the current
 * folder, like git.
 *
 * <p>The state names its catalog file, so the two change together: checkout writes the new
 * catalog under a new name and then replaces state.json in one rename. A crash at any point
 * leaves the old state naming the old catalog, or the new state naming the new one, never one
 * branch's catalog with another branch's ETag. Working copies made before this have
 * no {@code catalog} key and use {@code catalog.sqlite}.
 */
public final class WorkingCopy {
    /** The folder name that marks a working copy. */
    public static final String DIR = ".fdl";
    /** The working catalog of working copies made before the state named its catalog. */
    static final String LEGACY_CATALOG = "catalog.sqlite";
    private static final java.util.regex.Pattern CATALOG_NAME =
            java.util.regex.Pattern.compile("catalog(-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})?\\.sqlite");

    /** Receives the name of each step a change of the working copy reaches; crash tests throw from it. */
    @FunctionalInterface
    interface Steps {
        Steps NONE = step -> {};

        void reached(String step);
    }

    /**
     * The state of a working copy.
     *
     * @param root         repository root as given at checkout
     * @param repositoryId fdl.json id, to notice a different repository at the same root
     * @param branch       the branch commits go to, or null when detached (checked out from a tag or version)
     * @param baseVersion  the version checked out or last committed, or null for a branch with no version yet
     * @param refEtag      the ETag of {@code refs/heads/<branch>} when read, or null when the ref did not exist
     * @param baseSnapshot the newest DuckLake snapshot of the base (0 for a fresh catalog)
     * @param catalog      the working catalog's file name inside {@code .fdl/}
     */
    public record State(String root, String repositoryId, String branch, String baseVersion, String refEtag,
                        long baseSnapshot, String catalog, Map<String, JsonNode> extra) {
        private static final String COMMITTING = "committing";
        private static final String RESTORED = "restored";
        private static final String MERGE = "merge";
        private static final String MESSAGE = "message";
        private static final String REVERTING = "reverting";
        private static final Set<String> KNOWN = Set.of("root", "repository_id", "branch", "base_version", "ref_etag",
                "base_snapshot", "catalog");

        public State {
            extra = Map.copyOf(extra);
            if (catalog == null || !CATALOG_NAME.matcher(catalog).matches())
                throw new IllegalArgumentException("not a working catalog file name: " + catalog);
        }

        /**
         * Whether this working copy was checked out from {@code repo}: the same fdl.json id (SPEC.md
         * section 1), not merely the same root, where another repository may since have been made.
         */
        public boolean belongsTo(Repository repo) {
            return repositoryId.equals(repo.config().id());
        }

        /**
         * Refuses to work on {@code repo} with a working copy of another repository.
         *
         * @throws FdlException (exit 1) naming both repository ids and the root, and that a new checkout is the way on
         */
        public void requireBelongsTo(Repository repo) {
            if (!belongsTo(repo))
                throw new FdlException("the working copy was checked out from repository " + repositoryId
                        + " but " + repo.root() + " holds repository " + repo.config().id() + "; check out again");
        }

        /**
         * Whether the next commit creates this working copy's branch, as a branch started by
         * {@code fdl checkout -b} (or the first branch of an empty repository): on a branch whose ref it
         * never saw, which the repository does not have either ({@code refExists}, as just read).
         * Checkout writes nothing to the repository; commit's step 9 creates the ref with
         * {@code If-None-Match: *} (SPEC.md section 4).
         */
        public boolean commitCreatesBranch(boolean refExists) {
            return branch != null && refEtag == null && !refExists;
        }

        static State parse(byte[] bytes, String file) {
            ObjectNode o = JsonRead.parseObject(bytes, file);
            String catalog = JsonRead.optString(o, "catalog", file);
            if (catalog == null) catalog = LEGACY_CATALOG;
            else if (!CATALOG_NAME.matcher(catalog).matches())
                throw FdlException.corrupt(file, "key 'catalog' must name a file catalog-<uuid>.sqlite in " + DIR
                        + "/, found \"" + catalog + "\"; check out again");
            return new State(JsonRead.string(o, "root", file), JsonRead.string(o, "repository_id", file),
                    JsonRead.optString(o, "branch", file), JsonRead.optString(o, "base_version", file),
                    JsonRead.optString(o, "ref_etag", file), JsonRead.integer(o, "base_snapshot", file), catalog, JsonRead.extras(o, KNOWN));
        }

        byte[] toBytes() {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("root", root);
            o.put("repository_id", repositoryId);
            o.put("branch", branch);
            o.put("base_version", baseVersion);
            o.put("ref_etag", refEtag);
            o.put("base_snapshot", baseSnapshot);
            o.put("catalog", catalog);
            extra.forEach(o::set);
            return Json.bytes(o);
        }

        /**
         * This state without the note of a step 9 in progress: the commit it noted did not move the
         * branch, so the work it was committing (a merge, a revert, a proposed message) is still to commit.
         */
        public State withoutCommitting() {
            Map<String, JsonNode> rest = new java.util.LinkedHashMap<>(extra);
            rest.remove(COMMITTING);
            return new State(root, repositoryId, branch, baseVersion, refEtag, baseSnapshot, catalog, rest);
        }

        /** The same state after a commit of {@code version} that moved the ref to {@code etag}. */
        public State committed(String version, String etag, long lastSnapshot) {
            Map<String, JsonNode> rest = new java.util.LinkedHashMap<>(extra);
            rest.remove(COMMITTING);
            rest.remove(RESTORED);
            rest.remove(MERGE);
            rest.remove(MESSAGE);
            rest.remove(REVERTING);
            return new State(root, repositoryId, branch, version, etag, lastSnapshot, catalog, rest);
        }

        /**
         * A merge written into the working catalog but not yet committed (git's {@code MERGE_HEAD}):
         * the other version (the next commit's second parent), the working catalog file as it was
         * before the merge ({@code fdl merge --abort} goes back to it) and the message proposed for the commit.
         */
        public record PendingMerge(String version, String previousCatalog, String message) {}

        /** The pending merge, or null. */
        public PendingMerge merging() {
            JsonNode n = extra.get(MERGE);
            if (n == null || !n.isObject() || !n.path("version").isTextual() || !n.path("previous_catalog").isTextual()) return null;
            return new PendingMerge(n.get("version").asText(), n.get("previous_catalog").asText(), n.path("message").asText(""));
        }

        /** This state with working catalog {@code newCatalog}, holding a merge of {@code m.version()} (null: no pending merge). */
        public State withCatalog(String newCatalog, PendingMerge m) {
            Map<String, JsonNode> rest = new java.util.LinkedHashMap<>(extra);
            rest.remove(MERGE);
            if (m != null) {
                ObjectNode o = Json.MAPPER.createObjectNode();
                o.put("version", m.version());
                o.put("previous_catalog", m.previousCatalog());
                o.put("message", m.message());
                rest.put(MERGE, o);
            }
            return new State(root, repositoryId, branch, baseVersion, refEtag, baseSnapshot, newCatalog, rest);
        }

        /** This state on a new base: the branch's version {@code version} read at {@code etag}, its newest snapshot, and catalog file {@code newCatalog}. */
        public State rebased(String version, String etag, long lastSnapshot, String newCatalog) {
            Map<String, JsonNode> rest = new java.util.LinkedHashMap<>(extra);
            rest.remove(MERGE);
            rest.remove(COMMITTING);
            return new State(root, repositoryId, branch, version, etag, lastSnapshot, newCatalog, rest);
        }

        /**
         * The version {@code fdl restore} brought back since the last commit, and the message it
         * proposed for the next commit ({@code [id, message]}), or null.
         */
        public String[] restored() {
            JsonNode n = extra.get(RESTORED);
            if (n == null || !n.isObject() || !n.path("version").isTextual()) return null;
            return new String[]{n.get("version").asText(), n.path("message").asText("")};
        }

        /** This state, noting that {@code version} was restored into the working catalog (the next commit names it). */
        public State withRestored(String version, String message) {
            Map<String, JsonNode> rest = new java.util.LinkedHashMap<>(extra);
            ObjectNode r = Json.MAPPER.createObjectNode();
            r.put("version", version);
            r.put("message", message);
            rest.put(RESTORED, r);
            return new State(root, repositoryId, branch, baseVersion, refEtag, baseSnapshot, catalog, rest);
        }

        /** The version a commit was about to point the branch at (set just before step 9), or null. */
        public String committing() {
            JsonNode n = extra.get(COMMITTING);
            return n == null || !n.isTextual() ? null : n.asText();
        }

        /**
         * The message proposed for the next commit (git's {@code MERGE_MSG}): the one {@code fdl revert}
         * made, or the one of a commit refused because the branch moved (kept across {@code fdl pull}); null when none.
         * Dropped by the next commit.
         */
        public String proposedMessage() {
            JsonNode n = extra.get(MESSAGE);
            return n == null || !n.isTextual() || n.asText().isBlank() ? null : n.asText();
        }

        /** This state proposing {@code message} for the next commit. */
        public State withProposedMessage(String message) {
            Map<String, JsonNode> rest = new java.util.LinkedHashMap<>(extra);
            rest.put(MESSAGE, com.fasterxml.jackson.databind.node.TextNode.valueOf(message));
            return new State(root, repositoryId, branch, baseVersion, refEtag, baseSnapshot, catalog, rest);
        }

        /**
         * A revert written into the working catalog since the last commit: the version undone and its
         * first parent, whose description the commit's change guards also compare against
         * (docs/checks.md), as a merge's second parent's.
         */
        public record Reverting(String version, String parent) {}

        /** The latest revert since the last commit, or null. */
        public Reverting reverting() {
            JsonNode n = extra.get(REVERTING);
            if (n == null || !n.isObject() || !n.path("version").isTextual() || !n.path("parent").isTextual()) return null;
            return new Reverting(n.get("version").asText(), n.get("parent").asText());
        }

        /** This state noting revert {@code r}, with {@code message} proposed for the next commit. */
        public State withReverting(Reverting r, String message) {
            Map<String, JsonNode> rest = new java.util.LinkedHashMap<>(extra);
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("version", r.version());
            o.put("parent", r.parent());
            rest.put(REVERTING, o);
            return new State(root, repositoryId, branch, baseVersion, refEtag, baseSnapshot, catalog, rest).withProposedMessage(message);
        }

        /** This state, noting that step 9 is about to point the branch at {@code version}. */
        State withCommitting(String version) {
            Map<String, JsonNode> rest = new java.util.LinkedHashMap<>(extra);
            rest.put(COMMITTING, com.fasterxml.jackson.databind.node.TextNode.valueOf(version));
            return new State(root, repositoryId, branch, baseVersion, refEtag, baseSnapshot, catalog, rest);
        }
    }

    private final Path dir;

    private WorkingCopy(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
    }

    /** The working copy at or above {@code from}, if any. */
    public static Optional<WorkingCopy> find(Path from) {
        for (Path p = from.toAbsolutePath().normalize(); p != null; p = p.getParent())
            if (Files.isRegularFile(p.resolve(DIR).resolve("state.json"))) return Optional.of(new WorkingCopy(p));
        return Optional.empty();
    }

    /**
     * The working copy at or above {@code from}.
     *
     * @throws FdlException usage error (exit 2) when there is none: the command was run in the wrong
     *                      place, as a command acting on a repository without {@code --repo} outside one is (docs/cli.md, exit codes)
     */
    public static WorkingCopy require(Path from) {
        return find(from).orElseThrow(() -> FdlException.usage("not inside a working copy (no " + DIR
                + "/ in " + from.toAbsolutePath() + " or above); create one with: fdl checkout --repo <root> [<branch>]"));
    }

    /** A working copy to be created at {@code dir} (its state is written by {@link #save}, at checkout). */
    public static WorkingCopy create(Path dir) {
        return new WorkingCopy(dir);
    }

    /** The working copy's folder. */
    public Path dir() {
        return dir;
    }

    /** The SQLite working catalog: the file the state names. */
    public Path catalog() {
        return catalogFile(state().catalog());
    }

    /** The path of a working catalog file named {@code name} in {@code .fdl/}. */
    public Path catalogFile(String name) {
        return dir.resolve(DIR).resolve(name);
    }

    /** A file name for a new working catalog, not yet current: it becomes current when a saved state names it. */
    public static String newCatalogName() {
        return "catalog-" + java.util.UUID.randomUUID() + ".sqlite";
    }

    /**
     * Deletes the working catalog files in {@code .fdl/} that the state does not name (with their
     * journals): the one a checkout replaced, or one a checkout stopped by a crash left behind.
     */
    void deleteOtherCatalogs() {
        String current = state().catalog();
        State.PendingMerge merge = state().merging();
        String kept = merge == null ? null : merge.previousCatalog(); // fdl merge --abort goes back to it
        try (java.util.stream.Stream<Path> files = Files.list(dir.resolve(DIR))) {
            for (Path f : files.toList()) {
                String catalog = catalogOf(f);
                if (catalog != null && !catalog.equals(current) && !catalog.equals(kept)) Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            // a stray old catalog only takes space; the next checkout removes it
        }
    }

    /** The working catalog file {@code f} is or belongs to (its SQLite journal), or null for another file. */
    private static String catalogOf(Path f) {
        String base = f.getFileName().toString().replaceAll("(-journal|-wal|-shm)$", "");
        return CATALOG_NAME.matcher(base).matches() ? base : null;
    }

    /** A scratch folder inside {@code .fdl/} for downloads and conversions (same file system as the catalog). */
    public Path tmp() {
        Path t = dir.resolve(DIR).resolve("tmp");
        try {
            Files.createDirectories(t);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return t;
    }

    /** The user's description: {@code dataset.json}, else {@code datapackage.json}, else null. */
    public Path datasetFile() {
        for (String n : new String[]{"dataset.json", "datapackage.json"}) {
            Path p = dir.resolve(n);
            if (Files.isRegularFile(p)) return p;
        }
        return null;
    }

    /**
     * A warning when the working copy holds both {@code dataset.json} and {@code datapackage.json}:
     * fdl reads the first only ({@link #datasetFile}), so edits to the second would be lost without
     * a word. Null when there is at most one.
     */
    public String ignoredDescriptionWarning() {
        if (!Files.isRegularFile(dir.resolve("dataset.json")) || !Files.isRegularFile(dir.resolve("datapackage.json"))) return null;
        return "both dataset.json and datapackage.json are in " + dir + ": fdl uses dataset.json and ignores datapackage.json; "
                + "merge what you need into dataset.json and remove datapackage.json (or remove dataset.json to use datapackage.json)";
    }

    private Path stateFile() {
        return dir.resolve(DIR).resolve("state.json");
    }

    /** True when this folder holds a working copy already. */
    public boolean exists() {
        return Files.isRegularFile(stateFile());
    }


    /**
     * The variables {@code fdl run} and pre-commit hooks get: FDL_CATALOG_PATH (the SQLite working
     * catalog), FDL_CATALOG_URL ({@code ducklake:sqlite:<path>}), FDL_DATA_PATH (the repository's
     * data folder), FDL_REPO (its root) and FDL_BRANCH (empty when detached).
     */
    public Map<String, String> runVariables(Repository repo) {
        String branch = state().branch();
        return Map.of("FDL_CATALOG_PATH", catalog().toString(),
                "FDL_CATALOG_URL", "ducklake:sqlite:" + catalog(),
                "FDL_DATA_PATH", repo.dataLocation(),
                "FDL_REPO", repo.root(),
                "FDL_BRANCH", branch == null ? "" : branch);
    }
    /** Reads the state (exit 1 naming the file when corrupt). */
    public State state() {
        byte[] bytes;
        try {
            bytes = dev.fdl.util.SmallFiles.readAll(stateFile());
        } catch (IOException e) {
            throw new FdlException("cannot read " + stateFile() + ": " + e.getMessage());
        }
        try {
            return State.parse(bytes, stateFile().toString());
        } catch (FdlException e) {
            // not a repository file: fdl's own record of this working copy, which fdl verify does not check
            String detail = e.getMessage().replace("corrupt repository file " + stateFile() + ": ", "");
            int cut = detail.indexOf("; the file was damaged");
            if (cut > 0) detail = detail.substring(0, cut);
            throw new FdlException(e.kind(), "the working copy's state file " + stateFile() + " is damaged (" + detail
                    + "); it records the repository, branch and base version this folder was checked out from. Make the folder a "
                    + "working copy again: run fdl checkout --force --repo <root> [<branch>] here (it moves the damaged state and "
                    + "working catalogs into " + DIR + "/damaged-<time>/: their uncommitted snapshots are not carried over; committed "
                    + "versions are safe in the repository)", e);
        }
    }

    /**
     * True when the state file exists but cannot be read or parsed: fdl no longer knows this
     * working copy's repository, branch or working catalog ({@link #state} names the damage).
     */
    public boolean stateDamaged() {
        if (!exists()) return false;
        try {
            state();
            return false;
        } catch (FdlException e) {
            return true;
        }
    }

    /**
     * Moves a damaged state file and every working catalog file into a new folder
     * {@code .fdl/damaged-<UTC time>/}, so that a checkout can start this working copy over
     * ({@code fdl checkout --force --repo}) without deleting what they hold: the uncommitted
     * snapshots of the catalog the state named are kept there, not carried over.
     *
     * @return the folder they were moved to
     * @throws FdlException exit 1 naming the file that could not be moved
     */
    public Path setDamagedStateAside() {
        Path fdl = dir.resolve(DIR);
        Path aside = fdl.resolve("damaged-" + java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'")
                .format(java.time.LocalDateTime.now(java.time.ZoneOffset.UTC)));
        Path moving = stateFile();
        try {
            Files.createDirectories(aside);
            Files.move(moving, aside.resolve(moving.getFileName()));
            try (java.util.stream.Stream<Path> files = Files.list(fdl)) {
                for (Path f : files.toList()) {
                    if (catalogOf(f) != null) {
                        moving = f;
                        Files.move(f, aside.resolve(f.getFileName()));
                    }
                }
            }
            return aside;
        } catch (IOException e) {
            throw new FdlException("cannot move " + moving + " aside into " + aside + ": " + e.getMessage());
        }
    }

    /**
     * Writes the state atomically and durably: a temporary file, forced to disk, renamed over
     * state.json, then the folder forced to disk.
     *
     * @throws FdlException exit 1 naming state.json when it cannot be written
     */
    public void save(State state) {
        save(state, Steps.NONE);
    }

    /** {@link #save(State)}, telling {@code steps} when the new state is on disk but not yet current ("state-staged"). */
    void save(State state, Steps steps) {
        AtomicFile.write(stateFile(), state.toBytes(), () -> steps.reached("state-staged"));
    }
}
