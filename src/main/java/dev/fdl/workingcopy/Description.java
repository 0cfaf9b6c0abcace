package dev.fdl.workingcopy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.dataset.DatasetDescriptor;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.ObjectBytes;
import dev.fdl.util.JsonRead;
import dev.fdl.util.Sha256;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The dataset description (dataset.json, SPEC.md section 3) as a tracked file of the working
 * copy, the way git treats a tracked file: checkout places the version's description in the
 * working copy, status compares the working copy's file with its base version's (by the sha256
 * version.json records), commit carries it forward and writes the filled file back, and a commit
 * that would drop the parent's title or license is refused unless allowed.
 */
public final class Description {
    /** How the working copy's description compares with its base version's. */
    public enum Change {
        UNCHANGED, MODIFIED, ADDED, DELETED;

        /** Words for status output. */
        public String words() {
            return switch (this) {
                case UNCHANGED -> "unchanged";
                case MODIFIED -> "modified";
                case ADDED -> "new (no version has it yet)";
                case DELETED -> "deleted";
            };
        }
    }

    private Description() {}

    /** The file the working copy's description lives in: the one it has, else {@code dataset.json}. */
    static Path file(WorkingCopy wc) {
        Path p = wc.datasetFile();
        return p != null ? p : wc.dir().resolve("dataset.json");
    }

    /**
     * The version's description bytes, checked against the size and sha256 version.json records.
     *
     * @throws FdlException exit 1 naming the object when it is missing or does not match
     */
    public static byte[] read(Repository repo, VersionInfo v) {
        String key = key(v.id(), v.dataset().path());
        ObjectBytes b = repo.store().get(key).orElseThrow(() -> new FdlException(
                "the description " + key + " of version " + v.id() + " is missing; run fdl verify"));
        if (b.bytes().length != v.dataset().bytes() || !Sha256.of(b.bytes()).equals(v.dataset().sha256()))
            throw new FdlException("the description " + key + " does not match version.json (size or sha256 differ); run fdl verify");
        return b.bytes();
    }

    /**
     * Places a version's description (from {@link #read}) in the working copy at checkout,
     * replacing what is there: callers refuse first when that has changes ({@link #checkCanPlace}).
     */
    static void place(WorkingCopy wc, byte[] description) {
        write(file(wc), description);
    }

    /**
     * Refuses a checkout that would replace a description no version has (edited since the
     * working copy's base, or written before checkout), as git refuses to overwrite changes.
     *
     * @throws FdlException exit 1 naming the file and the ways out
     */
    static void checkCanPlace(Repository repo, WorkingCopy wc, VersionInfo target) {
        Path f = wc.datasetFile();
        if (f == null) return;
        String sha = Sha256.of(f);
        if (sha.equals(target.dataset().sha256())) return;
        VersionInfo old = wc.exists() ? base(repo, wc).orElse(null) : null;
        if (old != null && sha.equals(old.dataset().sha256())) return;
        throw new FdlException(f + " has changes that no version has; checkout would replace it with the description of version "
                + target.id() + ". Commit it first, move it away, or replace it with fdl checkout --force");
    }

    /**
     * Brings the working copy's description up to {@code theirs} as git brings a tracked file through
     * a pull or merge: a file unchanged since {@code base} (or none) becomes {@code theirs}'
     * description; a file {@code theirs} did not change, or changed the same way, stays; when both
     * changed it, they merge per top-level key by the same rule, and a key both changed differently
     * keeps the working copy's value (resources that differ only in their {@code rows}, which the
     * next commit refills, count as the same). A file that is not a JSON object stays as it is.
     *
     * @param base   the version the working copy's file was placed from or the merge base
     * @param theirs the version merged in (a pull: the branch's new version)
     * @return what kept the working copy's value although {@code theirs} changed it: the keys, or
     *         {@code the file} when it is not a JSON object; empty when nothing did
     */
    static List<String> merge(Repository repo, WorkingCopy wc, VersionInfo base, VersionInfo theirs) {
        Path f = wc.datasetFile();
        String mine = f == null ? null : Sha256.of(f), theirSha = theirs.dataset().sha256();
        if (theirSha.equals(mine) || theirSha.equals(base.dataset().sha256()) && mine != null) return List.of();
        byte[] incoming = read(repo, theirs);
        if (mine == null || mine.equals(base.dataset().sha256())) {
            write(file(wc), incoming);
            return List.of();
        }
        ObjectNode ours;
        try {
            ours = JsonRead.parseUserObject(Files.readAllBytes(f), f.getFileName().toString());
        } catch (FdlException | IOException e) {
            return List.of("the file");
        }
        ObjectNode was = JsonRead.parseObject(read(repo, base), key(base.id(), base.dataset().path()));
        ObjectNode now = JsonRead.parseObject(incoming, key(theirs.id(), theirs.dataset().path()));
        ObjectNode out = ours.deepCopy();
        java.util.Set<String> keys = new java.util.LinkedHashSet<>();
        for (ObjectNode o : List.of(ours, now, was)) o.fieldNames().forEachRemaining(keys::add);
        List<String> both = new java.util.ArrayList<>();
        for (String k : keys) {
            com.fasterxml.jackson.databind.JsonNode b = was.get(k), o = ours.get(k), t = now.get(k);
            if (java.util.Objects.equals(o, t) || java.util.Objects.equals(t, b)) continue;
            if (!java.util.Objects.equals(o, b)) {
                // row counts are fdl's, refilled from the merged catalog at the next commit: no choice was lost
                if (!java.util.Objects.equals(withoutRowCounts(k, o), withoutRowCounts(k, t))) both.add(k);
            }
            else if (t == null) out.remove(k);
            else out.set(k, t);
        }
        write(file(wc), dev.fdl.util.Json.bytes(out));
        return both;
    }

    /**
     * {@code value} of the top-level key {@code key} without the {@code rows} of its resources when
     * {@code key} is {@code resources} (counts commit fills in, SPEC.md section 3), else {@code value}.
     */
    private static com.fasterxml.jackson.databind.JsonNode withoutRowCounts(String key, com.fasterxml.jackson.databind.JsonNode value) {
        if (!key.equals("resources") || value == null || !value.isArray()) return value;
        com.fasterxml.jackson.databind.node.ArrayNode copy = (com.fasterxml.jackson.databind.node.ArrayNode) value.deepCopy();
        for (com.fasterxml.jackson.databind.JsonNode r : copy) if (r instanceof ObjectNode o) o.remove("rows");
        return copy;
    }

    /** The working copy's description file's bytes when they differ from {@code base}'s description, else null. */
    static byte[] edited(WorkingCopy wc, VersionInfo base) {
        Path f = wc.datasetFile();
        if (f == null || Sha256.of(f).equals(base.dataset().sha256())) return null;
        try {
            return Files.readAllBytes(f);
        } catch (IOException e) {
            throw new FdlException("cannot read " + f + ": " + e.getMessage());
        }
    }

    /** {@link #merge} with {@code mine} (from {@link #edited}) written back first as the working copy's description. */
    static List<String> merge(Repository repo, WorkingCopy wc, VersionInfo base, VersionInfo theirs, byte[] mine) {
        write(file(wc), mine);
        return merge(repo, wc, base, theirs);
    }

    /** Where a pending merge keeps the working copy's description as it was before the merge. */
    private static Path beforeMerge(WorkingCopy wc) {
        return wc.dir().resolve(WorkingCopy.DIR).resolve("dataset-before-merge.json");
    }

    /** Present while a pending merge started in a working copy without a description: abort removes the one the merge placed. */
    private static Path noneBeforeMerge(WorkingCopy wc) {
        return wc.dir().resolve(WorkingCopy.DIR).resolve("no-dataset-before-merge");
    }

    /**
     * {@link #merge} for {@code fdl merge}, keeping the working copy's file as it was for
     * {@link #restoreBeforeMerge} (for a working copy without one, a mark that there was none).
     */
    static List<String> mergeKeepingOriginal(Repository repo, WorkingCopy wc, VersionInfo base, VersionInfo theirs) {
        Path f = wc.datasetFile();
        try {
            if (f == null) {
                Files.deleteIfExists(beforeMerge(wc));
                write(noneBeforeMerge(wc), new byte[0]);
            } else {
                write(beforeMerge(wc), Files.readAllBytes(f));
                Files.deleteIfExists(noneBeforeMerge(wc));
            }
        } catch (IOException e) {
            throw new FdlException("cannot keep " + f + " for merge --abort in " + beforeMerge(wc) + ": " + e.getMessage());
        }
        return merge(repo, wc, base, theirs);
    }

    /**
     * {@code fdl merge --abort}: the working copy's description as it was before the merge; none
     * when it had none (the description the merge placed is deleted).
     */
    static void restoreBeforeMerge(WorkingCopy wc) {
        Path kept = beforeMerge(wc), none = noneBeforeMerge(wc);
        try {
            if (Files.isRegularFile(none)) {
                Path placed = wc.datasetFile();
                if (placed != null) Files.delete(placed);
                Files.delete(none);
            } else if (Files.isRegularFile(kept)) {
                write(file(wc), Files.readAllBytes(kept));
                Files.delete(kept);
            }
        } catch (IOException e) {
            throw new FdlException("cannot put back the description from " + kept + ": " + e.getMessage());
        }
    }

    /** Writes the filled description a commit uploaded back into the working copy, so that status is clean. */
    static void writeBack(WorkingCopy wc, Path filled) {
        try {
            write(file(wc), Files.readAllBytes(filled));
        } catch (IOException e) {
            throw new FdlException("cannot read " + filled + ": " + e.getMessage());
        }
    }

    private static void write(Path target, byte[] bytes) {
        dev.fdl.util.AtomicFile.write(target, bytes, () -> {});
    }

    /**
     * How the working copy's description differs from its base version's.
     *
     * @param base the base version, or null for a branch with no version yet
     */
    public static Change change(WorkingCopy wc, VersionInfo base) {
        Path f = wc.datasetFile();
        if (base == null) return f == null ? Change.UNCHANGED : Change.ADDED;
        if (f == null) return Change.DELETED;
        return Sha256.of(f).equals(base.dataset().sha256()) ? Change.UNCHANGED : Change.MODIFIED;
    }

    /**
     * Why the working copy's description file cannot be committed as it stands (not valid JSON, or
     * not an object), in words naming the file, line and column; null when it parses or there is
     * no file. A light read (Jackson's streaming parser, no {@code ObjectMapper}) for {@code fdl status}.
     */
    public static String problem(WorkingCopy wc) {
        Path f = wc.datasetFile();
        if (f == null) return null;
        try {
            JsonRead.parseUserObject(java.nio.file.Files.readAllBytes(f), f.getFileName().toString());
            return null;
        } catch (FdlException e) {
            return e.getMessage();
        } catch (java.io.IOException e) {
            return "cannot read " + f + ": " + e.getMessage();
        }
    }

    /**
     * Refuses a commit whose filled description drops the parent's title or license (a CC-BY
     * attribution lost silently), unless {@code allow}.
     *
     * @throws FdlException exit 1 naming what would be lost and how to keep it
     */
    static void checkNothingLost(Repository repo, VersionInfo parent, ObjectNode filled, String file, boolean allow) {
        if (parent == null || allow) return;
        ObjectNode previous = JsonRead.parseObject(read(repo, parent), key(parent.id(), parent.dataset().path()));
        List<String> lost = DatasetDescriptor.lostDescription(previous, filled);
        if (lost.isEmpty()) return;
        throw new FdlException("this commit would drop from the dataset's description what version " + parent.id()
                + " has: " + String.join("; ", lost) + ". Nothing was uploaded. Put it back in " + file
                + " (the version's own description is " + key(parent.id(), parent.dataset().path())
                + "), or commit with --allow-description-loss if dropping it is intended");
    }

    private static String key(String id, String path) {
        return RepoLayout.versionFile(id, path);
    }

    /** The base version of the working copy, if it has one and it is readable. */
    public static Optional<VersionInfo> base(Repository repo, WorkingCopy wc) {
        String id = wc.state().baseVersion();
        return id == null ? Optional.empty() : repo.readVersion(id);
    }
}
