package dev.fdl.repo;

import dev.fdl.util.Json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A working copy (SPEC.md section 4, checkout): a local folder whose {@code .fdl/} holds the
 * SQLite working catalog ({@code .fdl/catalog.sqlite}) and the state ({@code .fdl/state.json}:
 * repository root, branch, base version id, the ETag of the branch ref when it was read, and the
 * newest snapshot of the base). The user's {@code dataset.json} lives beside {@code .fdl/}.
 * Commands find it by walking up from the current folder, like git.
 */
public final class WorkingCopy {
    /** The folder name that marks a working copy. */
    public static final String DIR = ".fdl";

    /**
     * The state of a working copy.
     *
     * @param root         repository root as given at checkout
     * @param repositoryId fdl.json id, to notice a different repository at the same root
     * @param branch       the branch commits go to, or null when detached (checked out from a tag or version)
     * @param baseVersion  the version checked out or last committed, or null for a branch with no version yet
     * @param refEtag      the ETag of {@code refs/heads/<branch>} when read, or null when the ref did not exist
     * @param baseSnapshot the newest DuckLake snapshot of the base (0 for a fresh catalog)
     */
    public record State(String root, String repositoryId, String branch, String baseVersion, String refEtag,
                        long baseSnapshot, Map<String, JsonNode> extra) {
        private static final String COMMITTING = "committing";
        private static final String RESTORED = "restored";
        private static final Set<String> KNOWN = Set.of("root", "repository_id", "branch", "base_version", "ref_etag", "base_snapshot");

        public State {
            extra = Map.copyOf(extra);
        }

        static State parse(byte[] bytes, String file) {
            ObjectNode o = Json.parseObject(bytes, file);
            return new State(Json.string(o, "root", file), Json.string(o, "repository_id", file),
                    Json.optString(o, "branch", file), Json.optString(o, "base_version", file),
                    Json.optString(o, "ref_etag", file), Json.integer(o, "base_snapshot", file), Json.extras(o, KNOWN));
        }

        byte[] toBytes() {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("root", root);
            o.put("repository_id", repositoryId);
            o.put("branch", branch);
            o.put("base_version", baseVersion);
            o.put("ref_etag", refEtag);
            o.put("base_snapshot", baseSnapshot);
            extra.forEach(o::set);
            return Json.bytes(o);
        }

        /** The same state after a commit of {@code version} that moved the ref to {@code etag}. */
        public State committed(String version, String etag, long lastSnapshot) {
            Map<String, JsonNode> rest = new java.util.LinkedHashMap<>(extra);
            rest.remove(COMMITTING);
            rest.remove(RESTORED);
            return new State(root, repositoryId, branch, version, etag, lastSnapshot, rest);
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
            return new State(root, repositoryId, branch, baseVersion, refEtag, baseSnapshot, rest);
        }

        /** The version a commit was about to point the branch at (set just before step 9), or null. */
        public String committing() {
            JsonNode n = extra.get(COMMITTING);
            return n == null || !n.isTextual() ? null : n.asText();
        }

        /** This state, noting that step 9 is about to point the branch at {@code version}. */
        State withCommitting(String version) {
            Map<String, JsonNode> rest = new java.util.LinkedHashMap<>(extra);
            rest.put(COMMITTING, com.fasterxml.jackson.databind.node.TextNode.valueOf(version));
            return new State(root, repositoryId, branch, baseVersion, refEtag, baseSnapshot, rest);
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
     * @throws FdlException exit 1 when there is none
     */
    public static WorkingCopy require(Path from) {
        return find(from).orElseThrow(() -> new FdlException("not inside a working copy (no " + DIR
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

    /** The SQLite working catalog. */
    public Path catalog() {
        return dir.resolve(DIR).resolve("catalog.sqlite");
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

    private Path stateFile() {
        return dir.resolve(DIR).resolve("state.json");
    }

    /** True when this folder holds a working copy already. */
    public boolean exists() {
        return Files.isRegularFile(stateFile());
    }

    /** Reads the state (exit 1 naming the file when corrupt). */
    public State state() {
        try {
            return State.parse(Files.readAllBytes(stateFile()), stateFile().toString());
        } catch (IOException e) {
            throw new FdlException("cannot read " + stateFile() + ": " + e.getMessage());
        }
    }

    /** Writes the state atomically (temporary file, then rename). */
    public void save(State state) {
        try {
            Files.createDirectories(stateFile().getParent());
            Path tmp = stateFile().resolveSibling("state.json.tmp");
            Files.write(tmp, state.toBytes());
            Files.move(tmp, stateFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new FdlException("cannot write " + stateFile() + ": " + e.getMessage());
        }
    }
}
