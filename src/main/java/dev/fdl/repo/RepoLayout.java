package dev.fdl.repo;

import dev.fdl.store.Keys;
import dev.fdl.util.VersionIds;

import java.nio.charset.StandardCharsets;

/**
 * Every key of a repository (SPEC.md section 1), in one place: other classes ask this one
 * instead of spelling {@code versions/…} or {@code refs/heads/…} themselves.
 *
 * <pre>
 * fdl.json                        {@link #CONFIG}
 * HEAD                            {@link #HEAD}
 * refs/heads/&lt;branch&gt;             {@link #refKey}
 * refs/tags/&lt;tag&gt;                 {@link #refKey}
 * versions/&lt;id&gt;/                   {@link #versionFolder}
 *   ducklake.duckdb, dataset.json {@link #versionFile} (names as version.json records them)
 *   version.json, expired.json    {@link #versionJson}, {@link #expiredJson}
 *   manifest.sha256               {@link #MANIFEST} (digests), version.json.sig {@link #SIGNATURE}
 *   unreachable.json              {@link #unreachableJson} (gc's mark: no ref reaches the version)
 *   catalogs/…                    {@link #EXTRA_CATALOGS}
 *   iceberg/&lt;schema&gt;/&lt;table&gt;/…     {@link #icebergTable} (Iceberg metadata of the version, docs/iceberg.md)
 * iceberg/&lt;schema&gt;/&lt;table&gt;/metadata/…  {@link #icebergHistory} (derived: every retained version of a table, docs/iceberg.md)
 * data/…                          fdl.json {@code data_dir}; {@link #DEFAULT_DATA_DIR} for a new repository
 * </pre>
 */
public final class RepoLayout {
    /** The repository identity, written once at init. */
    public static final String CONFIG = "fdl.json";
    /** The branch readers follow by default: {@code ref: refs/heads/<branch>\n}. */
    public static final String HEAD = "HEAD";
    /** The prefix of every ref, branches and tags. */
    public static final String REFS = "refs/";
    /** The prefix of every branch. */
    public static final String BRANCHES = "refs/heads/";
    /** What HEAD holds before the branch name. */
    public static final String HEAD_REF = "ref: " + BRANCHES;
    /** The prefix of every tag. */
    public static final String TAGS = "refs/tags/";
    /** The prefix of every version folder. */
    public static final String VERSIONS = "versions/";
    /** The catalog's name in a version folder, as commit writes it. */
    public static final String CATALOG = "ducklake.duckdb";
    /** The filled dataset description's name in a version folder, as commit writes it. */
    public static final String DATASET = "dataset.json";
    /** Written last in a version folder: the version is finished. */
    public static final String VERSION_JSON = "version.json";
    /** The version's digest manifest, in sha256sum's format (docs/signing.md); written before version.json. */
    public static final String MANIFEST = "manifest.sha256";
    /** The SSH signature (SSHSIG, namespace fdl) of the version's version.json (docs/signing.md); written before it. */
    public static final String SIGNATURE = "version.json.sig";
    /** Present once a version is out of retention. */
    public static final String EXPIRED_JSON = "expired.json";
    /**
     * gc's mark on a finished version no ref reaches (SPEC.md section 5): the grace period before
     * gc deletes the version runs from it. Written create-only by gc; removed by gc,
     * or by a new branch or tag at the version.
     */
    public static final String UNREACHABLE_JSON = "unreachable.json";
    /** Optional extra encodings of the catalog, relative to the version folder (deleted on expiry). */
    public static final String EXTRA_CATALOGS = "catalogs/";
    /** The Iceberg metadata of a version, relative to its folder (docs/iceberg.md; deleted on expiry). */
    public static final String ICEBERG = "iceberg/";
    /** The Iceberg history of every table, at the root (docs/iceberg.md, "History"; derived, rewritten in place). */
    public static final String HISTORY = "iceberg/";
    /** The data folder of a new repository (fdl.json {@code data_dir}). */
    public static final String DEFAULT_DATA_DIR = "data/";

    private RepoLayout() {}

    /** {@code refs/heads/} or {@code refs/tags/}. */
    public static String refPrefix(RefValue.Kind kind) {
        return kind == RefValue.Kind.BRANCH ? BRANCHES : TAGS;
    }

    /** {@code refs/heads/<name>} or {@code refs/tags/<name>}. */
    public static String refKey(RefValue.Kind kind, RefName name) {
        return refPrefix(kind) + name.name();
    }

    /** The content of HEAD naming {@code branch}. */
    public static byte[] headBytes(RefName branch) {
        return (HEAD_REF + branch.name() + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** {@code versions/<id>/}. */
    public static String versionFolder(String id) {
        return VERSIONS + id + "/";
    }

    /**
     * A file of a version folder, {@code versions/<id>/<name>}, where {@code name} is a path
     * relative to the folder as version.json records it.
     *
     * @throws IllegalArgumentException when {@code name} is absolute or has a {@code ..} segment (store key rules)
     */
    public static String versionFile(String id, String name) {
        return Keys.check(versionFolder(id) + name);
    }

    /**
     * {@code versions/<id>/iceberg/<schema>/<table>/}: the Iceberg table of one DuckLake table of
     * a version (its {@code metadata/} and the delete and inlined-row files written for it).
     *
     * @throws IllegalArgumentException when a name would not be one key segment (store key rules)
     */
    public static String icebergTable(String id, String schema, String table) {
        return Keys.check(versionFolder(id) + ICEBERG + segment(schema) + "/" + segment(table) + "/");
    }

    /**
     * {@code iceberg/<schema>/<table>/} at the root: the table's Iceberg history (docs/iceberg.md,
     * "History"), derived from the versions and rewritten in place; the only {@link #HISTORY}
     * keys, never inside a version.
     *
     * @throws IllegalArgumentException when a name would not be one key segment (store key rules)
     */
    public static String icebergHistory(String schema, String table) {
        return Keys.check(HISTORY + segment(schema) + "/" + segment(table) + "/");
    }

    private static String segment(String name) {
        if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.equals(".") || name.equals(".."))
            throw new IllegalArgumentException("'" + name + "' cannot be a folder name of the Iceberg layout");
        return name;
    }

    /** {@code versions/<id>/version.json}. */
    public static String versionJson(String id) {
        return versionFolder(id) + VERSION_JSON;
    }

    /** {@code versions/<id>/tags/<tag>.sig}: the signature of a signed tag at the version (docs/signing.md). */
    public static String tagSignature(String id, String tag) {
        return Keys.check(versionFolder(id) + "tags/" + tag + ".sig");
    }

    /** {@code versions/<id>/expired.json}. */
    public static String expiredJson(String id) {
        return versionFolder(id) + EXPIRED_JSON;
    }

    /** {@code versions/<id>/unreachable.json}: gc's mark ({@link #UNREACHABLE_JSON}). */
    public static String unreachableJson(String id) {
        return versionFolder(id) + UNREACHABLE_JSON;
    }

    /** A key relative to the root: no leading {@code /}, scheme, backslash, or empty, {@code .} or {@code ..} segment. */
    public static boolean isPlainRelative(String key) {
        if (key.isEmpty() || key.startsWith("/") || key.contains(":") || key.contains("\\")) return false;
        for (String seg : key.split("/", -1)) if (seg.isEmpty() || seg.equals(".") || seg.equals("..")) return false;
        return true;
    }

    /**
     * Whether the object at {@code key} (under {@code versions/}) may change or disappear while its
     * version exists: expired.json appears, gc's mark comes and goes. Every other object of a version
     * folder is immutable once written (SPEC.md section 3).
     */
    public static boolean isMutableVersionObject(String key) {
        return key.endsWith("/" + EXPIRED_JSON) || key.endsWith("/" + UNREACHABLE_JSON);
    }

    /**
     * The version id of a key inside a version folder ({@code versions/<id>/<something>}), or null
     * for any other key (a stray object under {@code versions/}, a folder key).
     */
    public static String versionIdOf(String key) {
        if (!key.startsWith(VERSIONS)) return null;
        String rest = key.substring(VERSIONS.length());
        int slash = rest.indexOf('/');
        if (slash < 0 || slash == rest.length() - 1) return null;
        String id = rest.substring(0, slash);
        return VersionIds.isValid(id) ? id : null;
    }

    /**
     * Whether {@code key} is one of the repository's own keys (SPEC.md section 1: {@code fdl.json},
     * {@code HEAD}, {@code refs/}, {@code versions/}, the data folder {@code dataDir}) or a local
     * folder's {@code .fdl-*} lock and temporary files, or lies under one of them. A key prefix
     * ending in {@code /} is judged by the keys it would hold. Keys outside these (a site, a README)
     * are the publisher's; fdl writes into them only when told to.
     */
    public static boolean isRepositoryKey(String key, String dataDir) {
        return key.equals(CONFIG) || key.startsWith(CONFIG + "/") || key.equals(HEAD) || key.startsWith(HEAD + "/")
                || key.startsWith(REFS) || key.equals("refs") || key.startsWith(VERSIONS) || key.equals("versions")
                || key.startsWith(dataDir) || (key + "/").equals(dataDir) || key.startsWith(".fdl-");
    }
}
