package dev.fdl.repo;

import dev.fdl.FdlException;
import dev.fdl.store.ObjectStore;
import dev.fdl.util.VersionIds;

import java.util.Optional;

/**
 * Turns what a user wrote into a version, in the manner of git's revision parsing
 * (gitrevisions(7)), and is the one place that knows HEAD's names and the suffixes: {@code HEAD}
 * and git's {@code @} (HEAD's branch), a {@code refs/...} full name, a tag, a branch, a version id
 * or unique prefix of 4+ characters, each optionally followed by {@link Revision} suffixes
 * ({@code ~N}, {@code ^N}, {@code @{date}}; {@code @{date}} alone applies to HEAD). The CLI,
 * which knows what HEAD means inside a working copy, asks {@link #afterHead} and
 * {@link #baseName} rather than reading the syntax itself. README.md, "A ref-or-version".
 */
public final class RevisionResolver {
    private final ObjectStore store;
    private final RefDatabase refs;
    private final VersionDatabase versions;

    RevisionResolver(ObjectStore store, RefDatabase refs, VersionDatabase versions) {
        this.store = store;
        this.refs = refs;
        this.versions = versions;
    }

    /** Whether {@code name} (a spec without suffixes) names HEAD: {@code HEAD}, git's {@code @}, or nothing. */
    public static boolean isHead(String name) {
        return name == null || name.isEmpty() || name.equals(RepoLayout.HEAD) || name.equals("@");
    }

    /**
     * What follows HEAD in {@code spec} when {@code spec} names HEAD or goes from it: "" for
     * {@code HEAD}, {@code @} or no spec, {@code ~2} for {@code HEAD~2} or {@code @~2},
     * {@code @{2026-01-01}} for {@code HEAD@{2026-01-01}} or {@code @{2026-01-01}} alone; null when
     * it starts from another ref or version, is empty, or has suffixes that cannot be read
     * (resolving it then says why).
     */
    public static String afterHead(String spec) {
        if (spec == null || spec.equals(RepoLayout.HEAD) || spec.equals("@")) return "";
        String base = baseName(spec);
        return base == null || base.equals(spec) || !isHead(base) ? null : spec.substring(base.length());
    }

    /** Whether {@code spec} is a date suffix alone ({@code @{2026-01-01}}), which applies to the default ref. */
    public static boolean isDateAlone(String spec) {
        return spec != null && spec.startsWith("@{");
    }

    /**
     * The ref or version {@code spec} starts from, without its suffixes ({@code main} for
     * {@code main~2}); null when the suffixes cannot be read (resolution then says why).
     */
    public static String baseName(String spec) {
        try {
            Revision rev = Revision.parse(spec);
            return rev == null ? spec : spec.substring(0, spec.length() - rev.suffixLength());
        } catch (FdlException e) {
            return null;
        }
    }

    /**
     * Resolves what a reader asked for and refuses an expired version (SPEC.md section 4, Reading).
     *
     * @throws FdlException exit 4 for: no repository, no version yet, no such ref or version,
     *                      unfinished version, expired version (naming its date); exit 2 for an
     *                      ambiguous prefix or unreadable suffix; exit 1 for corrupt files
     */
    public Resolved resolve(String spec) {
        Resolved r = resolveAllowingExpired(spec);
        if (r.isExpired())
            throw FdlException.notFound("version " + r.version().id() + " expired on "
                    + r.expired().expiredAt() + " (" + r.expired().reason() + "): its catalog is gone; "
                    + "use a version that is still in retention (see fdl log)");
        return r;
    }

    /** Resolves {@code spec} like {@link #resolve} but returns expired versions (for log and show). */
    public Resolved resolveAllowingExpired(String spec) {
        Revision rev = Revision.parse(spec);
        if (rev != null) {
            VersionInfo v = rev.resolve(versions, resolveAllowingExpired(rev.base()).version());
            return new Resolved(spec, null, v, versions.readExpired(v.id()).orElse(null));
        }
        if (isHead(spec)) {
            RefName head = refs.head();
            RefValue ref = refs.read(RefValue.Kind.BRANCH, head).orElseThrow(() -> FdlException.notFound(
                    "the repository at " + store.root() + " has no version yet: branch '" + head
                            + "' (HEAD) has no commit; make one with fdl checkout and fdl commit"));
            return followRef(spec == null || spec.isEmpty() ? RepoLayout.HEAD : spec, ref);
        }
        Optional<RefValue> ref = Optional.empty();
        if (spec.startsWith(RepoLayout.BRANCHES)) {
            ref = refs.read(RefValue.Kind.BRANCH, nameOf(spec.substring(RepoLayout.BRANCHES.length())));
        } else if (spec.startsWith(RepoLayout.TAGS)) {
            ref = refs.read(RefValue.Kind.TAG, nameOf(spec.substring(RepoLayout.TAGS.length())));
        } else if (RefName.problem(spec) == null) {
            ref = refs.readBare(new RefName(spec));
        }
        if (ref.isPresent()) return followRef(spec, ref.get());
        if (VersionIds.isPrefix(spec)) {
            String id = versions.expand(spec);
            if (id != null) {
                VersionInfo v = versions.read(id).orElseThrow();
                return new Resolved(spec, null, v, versions.readExpired(id).orElse(null));
            }
            if (VersionIds.isValid(spec) && versions.hasFolder(spec))
                throw FdlException.notFound("version " + spec + " is unfinished (its folder has no version.json): "
                        + "it was never committed and is not a version");
        }
        throw FdlException.notFound("no ref or version named '" + spec + "' in " + store.root()
                + (store.canList() ? "; list refs with: fdl refs" : " (an HTTP(S) root cannot be listed: name a tag, a branch or a full version id)"));
    }

    /**
     * The ref a bare name at the start of {@code spec} (before any suffix) resolves to, read as
     * {@link #resolveAllowingExpired} reads it: the tag, else the branch. Empty for HEAD, a
     * {@code refs/...} path, a name no ref has, or anything that is not a ref name.
     */
    public Optional<RefValue> bareRef(String spec) {
        Revision rev = Revision.parse(spec);
        String name = rev != null ? rev.base() : spec;
        if (isHead(name) || RefName.problem(name) != null) return Optional.empty();
        return refs.readBare(new RefName(name));
    }

    private static RefName nameOf(String s) {
        String why = RefName.problem(s);
        if (why != null) throw FdlException.notFound("no such ref 'refs/.../" + s + "' (" + why + ")");
        return new RefName(s);
    }

    private Resolved followRef(String spec, RefValue ref) {
        VersionInfo v = versions.read(ref.versionId()).orElseThrow(() -> FdlException.notFound(
                "ref " + ref.key() + " points at version " + ref.versionId()
                        + ", which is not a finished version (no version.json); run fdl verify"));
        return new Resolved(spec, ref, v, versions.readExpired(ref.versionId()).orElse(null));
    }
}
