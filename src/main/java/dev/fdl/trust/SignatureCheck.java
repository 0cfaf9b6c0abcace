package dev.fdl.trust;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.FdlException;
import dev.fdl.cache.CatalogCache;
import dev.fdl.ducklake.catalog.CatalogFiles;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.store.ObjectBytes;
import dev.fdl.util.Sha256;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code fdl verify --signatures} (docs/signing.md): for each version asked, its signature
 * ({@code version.json.sig}) over version.json's bytes, by a key the allowed-signers file allows
 * in namespace {@code fdl}; the manifest version.json records (size and SHA-256); that the
 * manifest lists the catalog, dataset.json and every file the catalog names; and every listed
 * file's SHA-256 as the store holds it now, each file read once per run however many versions
 * list it. Reads only; every problem is reported, none stops the others.
 */
public final class SignatureCheck {
    /** fdl.json's key naming the repository's allowed-signers file, a path relative to the root. */
    public static final String CONFIG_KEY = "allowed_signers";

    private final Repository repo;
    private final CatalogCache cache;
    private final AllowedSigners signers;
    private final Instant now;
    private final Map<String, Optional<StoredDigest>> read = new HashMap<>();
    private long bytes;

    /** One problem: the key it is about and what is wrong. */
    public record Problem(String key, String message) {
        @Override
        public String toString() {
            return key + ": " + message;
        }
    }

    /** A version whose signature was checked: the principals the allowed-signers file gives its key (null when none), and the key. */
    public record Signer(String versionId, String principals, SshPublicKey key) {}

    /**
     * The outcome.
     *
     * @param signed versions with a valid signature, allowed or not
     * @param files  distinct files read
     * @param bytes  bytes read and hashed
     */
    public record Report(List<Problem> problems, int versions, List<Signer> signed, long files, long bytes) {
        public boolean clean() {
            return problems.isEmpty();
        }
    }

    public SignatureCheck(Repository repo, CatalogCache cache, AllowedSigners signers, Instant now) {
        this.repo = Objects.requireNonNull(repo);
        this.cache = Objects.requireNonNull(cache);
        this.signers = Objects.requireNonNull(signers);
        this.now = Objects.requireNonNull(now);
    }

    /**
     * The allowed signers: the local file {@code override} when given, else the file fdl.json's
     * {@link #CONFIG_KEY} names in the repository.
     *
     * @throws FdlException usage error (exit 2) when neither names one; exit 1 naming the file when
     *                      it cannot be read or a line is not an allowed signer
     */
    public static AllowedSigners allowedSigners(Repository repo, Path override) {
        if (override != null) {
            try {
                return AllowedSigners.parse(Files.readAllBytes(override), override.toString());
            } catch (IOException e) {
                throw new FdlException("cannot read the allowed-signers file " + override + ": " + e.getMessage() + "; nothing was checked");
            }
        }
        JsonNode n = repo.config().extra().get(CONFIG_KEY);
        if (n == null || n.isNull())
            throw FdlException.usage("no allowed signers: " + repo.root() + RepoLayout.CONFIG + " has no key '" + CONFIG_KEY
                    + "' naming the repository's allowed-signers file; give one with --allowed-signers <file>");
        String key = n.asText();
        if (!n.isTextual() || !RepoLayout.isPlainRelative(key))
            throw FdlException.corrupt(RepoLayout.CONFIG, "key '" + CONFIG_KEY + "' must be a path relative to the root, not " + n);
        byte[] b = repo.store().get(key).map(ObjectBytes::bytes).orElseThrow(() -> new FdlException("the allowed-signers file "
                + repo.root() + key + " that " + RepoLayout.CONFIG + " names does not exist; nothing was checked"));
        return AllowedSigners.parse(b, repo.root() + key);
    }

    /** Checks the versions {@code ids}, in order; {@code progress} hears a line per version. */
    public Report run(List<String> ids, Consumer<String> progress) {
        List<Problem> problems = new ArrayList<>();
        List<Signer> signed = new ArrayList<>();
        for (String id : ids) {
            progress.accept("checking version " + id);
            check(id, problems, signed);
        }
        return new Report(problems, ids.size(), signed, read.size(), bytes);
    }

    private void check(String id, List<Problem> problems, List<Signer> signed) {
        String vkey = RepoLayout.versionJson(id);
        Optional<ObjectBytes> vb = repo.store().get(vkey);
        if (vb.isEmpty()) {
            problems.add(new Problem(vkey, "missing: not a finished version"));
            return;
        }
        byte[] versionJson = vb.get().bytes();
        VersionInfo v;
        try {
            v = VersionInfo.parse(versionJson, vkey);
        } catch (FdlException e) {
            problems.add(new Problem(vkey, e.getMessage()));
            return;
        }
        signature(v, versionJson, problems).ifPresent(signed::add);
        Optional<Manifest> m = manifest(v, problems);
        if (m.isEmpty()) return;
        boolean expired = repo.readExpired(id).isPresent();
        String catalogKey = RepoLayout.versionFile(id, v.catalog().path());
        String datasetKey = RepoLayout.versionFile(id, v.dataset().path());
        String mkey = RepoLayout.versionFile(id, RepoLayout.MANIFEST);
        if (!v.catalog().sha256().equals(m.get().entries().get(catalogKey)) || !v.dataset().sha256().equals(m.get().entries().get(datasetKey)))
            problems.add(new Problem(mkey, "does not list " + catalogKey + " and " + datasetKey + " with the SHA-256 version.json records"));
        boolean catalogIntact = true;
        for (Map.Entry<String, String> e : m.get().entries().entrySet()) {
            if (expired && e.getKey().equals(catalogKey)) continue; // expiry deletes the catalog (SPEC.md section 5)
            catalogIntact &= compare(e.getKey(), e.getValue(), id, problems) || !e.getKey().equals(catalogKey);
        }
        if (!expired && catalogIntact) coverage(v, m.get(), mkey, problems);
    }

    /** The signer of {@code v}, when its signature is valid; problems otherwise. */
    private Optional<Signer> signature(VersionInfo v, byte[] versionJson, List<Problem> problems) {
        String skey = RepoLayout.versionFile(v.id(), RepoLayout.SIGNATURE);
        Optional<ObjectBytes> sb = repo.store().get(skey);
        if (sb.isEmpty()) {
            problems.add(new Problem(RepoLayout.versionJson(v.id()), "unsigned: there is no " + RepoLayout.SIGNATURE));
            return Optional.empty();
        }
        SshSig.Parsed sig;
        try {
            sig = SshSig.parse(sb.get().bytes(), skey);
        } catch (FdlException e) {
            problems.add(new Problem(skey, e.getMessage()));
            return Optional.empty();
        }
        if (!sig.namespace().equals(SshSig.NAMESPACE)) {
            problems.add(new Problem(skey, "is a signature for namespace '" + sig.namespace() + "', not '" + SshSig.NAMESPACE + "'"));
            return Optional.empty();
        }
        if (!SshSig.verifies(sig, versionJson)) {
            problems.add(new Problem(skey, "does not match version.json (one of the two was changed after signing)"));
            return Optional.empty();
        }
        Optional<String> who = signers.principals(sig.key(), SshSig.NAMESPACE, now);
        if (who.isEmpty())
            problems.add(new Problem(skey, "signed by " + sig.key() + ", a key " + signers.source() + " does not allow to sign for fdl"));
        return Optional.of(new Signer(v.id(), who.orElse(null), sig.key()));
    }

    private Optional<Manifest> manifest(VersionInfo v, List<Problem> problems) {
        Optional<VersionDigests.Recorded> rec = VersionDigests.recorded(v);
        if (rec.isEmpty()) {
            problems.add(new Problem(RepoLayout.versionJson(v.id()), "records no digest manifest (key '" + VersionDigests.KEY + "')"));
            return Optional.empty();
        }
        String mkey = RepoLayout.versionFile(v.id(), rec.get().path());
        Optional<ObjectBytes> mb = repo.store().get(mkey);
        if (mb.isEmpty()) {
            problems.add(new Problem(mkey, "missing: version.json records it"));
            return Optional.empty();
        }
        byte[] b = mb.get().bytes();
        String sha = Sha256.of(b);
        if (b.length != rec.get().bytes() || !sha.equals(rec.get().sha256())) {
            problems.add(new Problem(mkey, "has " + b.length + " bytes and sha256 " + sha + " but version.json records "
                    + rec.get().bytes() + " bytes and sha256 " + rec.get().sha256()));
            return Optional.empty();
        }
        try {
            return Optional.of(Manifest.parse(b, mkey));
        } catch (FdlException e) {
            problems.add(new Problem(mkey, e.getMessage()));
            return Optional.empty();
        }
    }

    /** Reads {@code key} (once per run) and compares its SHA-256 with the manifest's; false when it differs or is missing. */
    private boolean compare(String key, String expected, String id, List<Problem> problems) {
        Optional<StoredDigest> d = read.computeIfAbsent(key, k -> {
            Optional<StoredDigest> got = StoredDigest.of(repo.store(), k);
            got.ifPresent(x -> bytes += x.bytes());
            return got;
        });
        if (d.isEmpty()) {
            problems.add(new Problem(key, "missing: the manifest of version " + id + " lists it"));
            return false;
        }
        if (!d.get().sha256().equals(expected)) {
            problems.add(new Problem(key, "differs: sha256 " + d.get().sha256() + " (" + d.get().bytes() + " bytes), but the manifest of version "
                    + id + " records " + expected));
            return false;
        }
        return true;
    }

    /** Every file the catalog names must be in the manifest (a catalog whose digest matched: it is the signed one). */
    private void coverage(VersionInfo v, Manifest m, String mkey, List<Problem> problems) {
        String dataLocation = repo.dataLocation();
        List<String> unlisted = new ArrayList<>();
        try {
            cache.forEachFile(repo, v, CatalogFiles.duckLake(), false, f -> {
                String name = f.nameIn(dataLocation);
                String key = name == null ? f.location() : repo.dataDir() + name;
                if (!m.entries().containsKey(key)) unlisted.add(key);
            });
        } catch (FdlException e) {
            problems.add(new Problem(RepoLayout.versionFile(v.id(), v.catalog().path()), e.getMessage()));
        }
        for (String k : unlisted) problems.add(new Problem(mkey, "does not list " + k + ", which the catalog names"));
    }
}
