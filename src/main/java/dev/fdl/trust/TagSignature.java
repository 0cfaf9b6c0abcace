package dev.fdl.trust;

import dev.fdl.repo.RefName;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectBytes;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;

/**
 * A signed tag ({@code fdl tag -s}, docs/signing.md): an SSHSIG signature (namespace {@code fdl})
 * of the text {@code object <version id>\ntag <name>\n}, stored as
 * {@code versions/<id>/tags/<name>.sig} before the tag is created. The ref file itself stays one
 * version id (SPEC.md section 3); the version's own signature and manifest cover its bytes, the
 * tag's signature says the signer named that version so.
 */
public final class TagSignature {
    private TagSignature() {}

    /** The signed text. */
    public static byte[] message(String versionId, RefName tag) {
        return ("object " + versionId + "\ntag " + tag.name() + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** Signs the tag {@code tag} at {@code versionId} and stores the signature (replacing one left by a deleted tag of that name). */
    public static void write(Repository repo, String versionId, RefName tag, SshSigner signer) {
        repo.store().put(RepoLayout.tagSignature(versionId, tag.name()), SshSig.sign(signer, message(versionId, tag)));
    }

    /**
     * The tag's signature checked against {@code allowed}: empty when the tag is unsigned, else a
     * problem (null when the signature is valid and allowed) and the signer's principals.
     */
    public static Optional<String[]> check(Repository repo, String versionId, RefName tag, AllowedSigners allowed) {
        String key = RepoLayout.tagSignature(versionId, tag.name());
        Optional<ObjectBytes> b = repo.store().get(key);
        if (b.isEmpty()) return Optional.empty();
        SshSig.Parsed p = SshSig.parse(b.get().bytes(), key);
        if (!SshSig.verifies(p, message(versionId, tag)))
            return Optional.of(new String[]{"does not sign tag '" + tag.name() + "' at version " + versionId, null});
        Optional<String> who = allowed.principals(p.key(), SshSig.NAMESPACE, Instant.now());
        return Optional.of(new String[]{who.isPresent() ? null : "signed by " + p.key() + ", a key " + allowed.source()
                + " does not allow to sign for fdl", who.orElse(null)});
    }
}
