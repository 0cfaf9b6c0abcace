package dev.fdl.repo;

import dev.fdl.FdlException;
import dev.fdl.store.ObjectBytes;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;
import dev.fdl.util.VersionIds;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The refs of a repository, in the manner of JGit's {@code RefDatabase}: HEAD, branches and tags
 * read, listed and parsed as SPEC.md section 3 says; every change goes through a
 * {@link RefUpdate} ({@link #newUpdate}). A corrupt ref file is an {@link FdlException} of exit 1;
 * store I/O failures stay {@link dev.fdl.store.StoreException}s.
 */
public final class RefDatabase {
    private final ObjectStore store;

    RefDatabase(ObjectStore store) {
        this.store = store;
    }

    ObjectStore store() {
        return store;
    }

    /**
     * The branch HEAD names (SPEC.md section 3).
     *
     * @throws FdlException exit 1 when HEAD is missing or not {@code ref: refs/heads/<valid name>\n}
     */
    public RefName head() {
        ObjectBytes head = store.get(RepoLayout.HEAD).orElseThrow(() -> FdlException.corrupt(RepoLayout.HEAD,
                "missing in " + store.root() + " (init writes it)"));
        String text = new String(head.bytes(), StandardCharsets.UTF_8);
        String prefix = RepoLayout.HEAD_REF;
        if (!text.startsWith(prefix) || !text.endsWith("\n") || text.indexOf('\n') != text.length() - 1)
            throw FdlException.corrupt(RepoLayout.HEAD, "expected '" + prefix + "<branch>' and a newline, found \"" + abbreviate(text) + "\"");
        String name = text.substring(prefix.length(), text.length() - 1);
        String why = RefName.problem(name);
        if (why != null) throw FdlException.corrupt(RepoLayout.HEAD, "invalid branch name '" + name + "': " + why);
        return new RefName(name);
    }

    /** Reads a ref of either kind, or empty when it does not exist. Throws exit 1 on a corrupt ref. */
    public Optional<RefValue> read(RefValue.Kind kind, RefName name) {
        String key = RepoLayout.refKey(kind, name);
        return store.get(key).map(b -> new RefValue(kind, name, parse(key, b.bytes()), b::etag));
    }

    /**
     * The ref a bare name means, as git reads it: the tag, else the branch (SPEC.md section 4).
     * Empty when neither exists. Throws exit 1 on a corrupt ref.
     */
    public Optional<RefValue> readBare(RefName name) {
        Optional<RefValue> ref = read(RefValue.Kind.TAG, name);
        return ref.isPresent() ? ref : read(RefValue.Kind.BRANCH, name);
    }

    /** The version id a ref file holds: one lower-case UUID and a newline, else a corrupt ref (exit 1). */
    public static String parse(String key, byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (!text.endsWith("\n") || !VersionIds.isValid(text.substring(0, text.length() - 1)))
            throw FdlException.corrupt(key, "corrupt ref: expected one version id and a newline, found \"" + abbreviate(text) + "\"");
        return text.substring(0, text.length() - 1);
    }

    /** The content of a ref file pointing at {@code versionId}. */
    public static byte[] bytes(String versionId) {
        return (versionId + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Every branch and tag, branches first, each sorted by name. Corrupt refs throw (exit 1): what
     * decides what is live (gc, expire) must not go on without one. On a store that cannot list (an
     * HTTP mirror) only HEAD's branch can be known.
     */
    public List<RefValue> list() {
        return list(e -> {
            throw e;
        });
    }

    /**
     * Like {@link #list()}, but a ref file that cannot be read (corrupt, or naming no valid
     * version id) is handed to {@code broken} and left out, as git lists the other refs and warns
     * of a broken one: for commands that only show refs ({@code fdl refs}, log's decorations).
     */
    public List<RefValue> list(Consumer<FdlException> broken) {
        List<RefValue> out = new ArrayList<>();
        if (!store.canList()) {
            read(RefValue.Kind.BRANCH, head()).ifPresent(out::add);
            return out;
        }
        for (RefValue.Kind kind : RefValue.Kind.values()) {
            String prefix = RepoLayout.refPrefix(kind);
            TreeSet<String> names = new TreeSet<>();
            try (Stream<ObjectMeta> s = store.list(prefix)) {
                s.forEach(m -> names.add(m.key().substring(prefix.length())));
            }
            for (String n : names) {
                if (RefName.problem(n) != null) continue; // not a ref fdl wrote; verify reports it
                try {
                    read(kind, new RefName(n)).ifPresent(out::add);
                } catch (FdlException e) {
                    if (e.kind() != FdlException.Kind.FAILURE) throw e;
                    broken.accept(e);
                }
            }
        }
        return out;
    }

    /** Version id to the refs pointing at it, for decorations; broken refs are handed to {@code broken} and left out. */
    public Map<String, List<RefValue>> byVersion(Consumer<FdlException> broken) {
        Map<String, List<RefValue>> m = new LinkedHashMap<>();
        for (RefValue r : list(broken)) m.computeIfAbsent(r.versionId(), k -> new ArrayList<>()).add(r);
        return m;
    }

    /** A change of the ref {@code name} of {@code kind}: every create, move and delete of a ref goes through one. */
    public RefUpdate newUpdate(RefValue.Kind kind, RefName name) {
        return new RefUpdate(this, kind, name);
    }

    /**
     * Refuses a new branch or tag whose name the other kind already has: a bare name resolves to
     * the tag first (SPEC.md section 4, as git does), so a tag {@code main} would silently hide
     * branch {@code main} from every read.
     *
     * @throws FdlException exit 3 (conflict) naming the ref in the way
     */
    public void refuseAmbiguous(RefValue.Kind kind, RefName name) {
        RefValue.Kind other = kind == RefValue.Kind.BRANCH ? RefValue.Kind.TAG : RefValue.Kind.BRANCH;
        if (read(other, name).isPresent()) {
            String word = kind == RefValue.Kind.BRANCH ? "branch" : "tag";
            String otherWord = other == RefValue.Kind.BRANCH ? "branch" : "tag";
            throw FdlException.conflict("a " + otherWord + " named '" + name + "' exists; a " + word + " of the same name would make '"
                    + name + "' ambiguous (a bare name means the tag); choose another name");
        }
    }

    static String abbreviate(String s) {
        String t = s.replace("\r", "\\r").replace("\n", "\\n");
        return t.length() > 80 ? t.substring(0, 80) + "…" : t;
    }
}
