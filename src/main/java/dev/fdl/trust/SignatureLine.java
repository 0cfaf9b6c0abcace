package dev.fdl.trust;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.FdlException;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectBytes;

import java.time.Instant;
import java.util.Optional;

/**
 * Who signed a version, in one line for {@code fdl show} and {@code fdl log --show-signature}
 * (docs/signing.md): the signature is checked against version.json's bytes and its key looked up
 * in the allowed signers fdl.json names. Reads two small objects (and the allowed-signers file);
 * never the catalog or data, which {@code fdl verify --signatures} checks.
 */
public final class SignatureLine {
    private final Repository repo;
    private AllowedSigners signers;
    private String signersProblem;
    private String signersDigest;

    /** Lines for the versions of {@code repo}, checked against the allowed signers its fdl.json names. */
    public SignatureLine(Repository repo) {
        this.repo = repo;
    }

    /**
     * What every line depends on besides the version's own immutable files: the allowed-signers
     * file's SHA-256 (hex), or why there is none. A page showing these lines is rendered again
     * when this changes (a key added to or removed from the allowed signers).
     */
    public String inputs() {
        AllowedSigners allowed = signers();
        return allowed == null ? "no allowed signers: " + signersProblem : "allowed signers " + signersDigest;
    }

    /** The line for version {@code id}: empty when it is unsigned. */
    public Optional<String> of(String id) {
        Optional<ObjectBytes> sig = repo.store().get(RepoLayout.versionFile(id, RepoLayout.SIGNATURE));
        if (sig.isEmpty()) return Optional.empty();
        Optional<ObjectBytes> vj = repo.store().get(RepoLayout.versionJson(id));
        SshSig.Parsed p;
        try {
            p = SshSig.parse(sig.get().bytes(), RepoLayout.SIGNATURE);
        } catch (FdlException e) {
            return Optional.of("BAD: " + e.getMessage());
        }
        if (vj.isEmpty() || !SshSig.verifies(p, vj.get().bytes()))
            return Optional.of("BAD signature by " + p.key() + ": it does not match version.json");
        AllowedSigners allowed = signers();
        if (allowed == null) return Optional.of("by " + p.key() + " (" + signersProblem + ")");
        return Optional.of(allowed.principals(p.key(), SshSig.NAMESPACE, Instant.now())
                .map(who -> who + " (" + p.key() + ")")
                .orElse("by " + p.key() + ", a key " + allowed.source() + " does not allow"));
    }

    private AllowedSigners signers() {
        if (signers != null || signersProblem != null) return signers;
        JsonNode n = repo.config().extra().get(SignatureCheck.CONFIG_KEY);
        if (n == null || !n.isTextual() || !RepoLayout.isPlainRelative(n.asText())) {
            signersProblem = "fdl.json names no allowed signers";
            return null;
        }
        try {
            Optional<ObjectBytes> b = repo.store().get(n.asText());
            if (b.isEmpty()) signersProblem = repo.root() + n.asText() + " does not exist";
            else {
                signers = AllowedSigners.parse(b.get().bytes(), repo.root() + n.asText());
                signersDigest = dev.fdl.util.Sha256.of(b.get().bytes());
            }
        } catch (FdlException e) {
            signersProblem = e.getMessage();
        }
        return signers;
    }
}
