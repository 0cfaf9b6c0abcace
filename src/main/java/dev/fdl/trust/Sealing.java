package dev.fdl.trust;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.ducklake.load.DataFileDigests;
import dev.fdl.workingcopy.Commit;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.workingcopy.WorkingCopy;
import dev.fdl.util.Json;
import dev.fdl.util.Sha256;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Commit's step 5b (docs/signing.md): the digest manifest ({@link VersionDigests}), recorded in
 * version.json under {@code manifest}, and, with a signer, the SSHSIG signature of version.json's
 * exact bytes as {@code version.json.sig}. Both are made before the catalog is uploaded (after
 * step 5a's Iceberg files, which the manifest lists), and uploaded before version.json, so a
 * signed version is signed from the moment it exists.
 */
public final class Sealing implements Commit.Seal {
    private final SshSigner signer;

    /** @param signer the key to sign with, or null for digests only */
    public Sealing(SshSigner signer) {
        this.signer = signer;
    }

    @Override
    public Commit.Sealed seal(Repository repo, WorkingCopy wc, VersionInfo v, Path catalog, Map<String, String> written) {
        Manifest m = VersionDigests.of(repo, v, catalog, DataFileDigests.beside(wc.catalog()), written);
        byte[] manifest = m.toBytes();
        ObjectNode rec = Json.MAPPER.createObjectNode();
        rec.put("path", RepoLayout.MANIFEST);
        rec.put("bytes", manifest.length);
        rec.put("sha256", Sha256.of(manifest));
        Map<String, JsonNode> extra = new HashMap<>(v.extra());
        extra.put(VersionDigests.KEY, rec);
        VersionInfo sealed = new VersionInfo(v.fdl(), v.id(), v.seq(), v.parents(), v.createdAt(), v.author(), v.message(),
                v.catalog(), v.dataset(), v.ducklake(), extra);
        List<Map.Entry<String, byte[]>> files = new ArrayList<>();
        files.add(Map.entry(RepoLayout.MANIFEST, manifest));
        if (signer != null) files.add(Map.entry(RepoLayout.SIGNATURE, SshSig.sign(signer, sealed.toBytes())));
        return new Commit.Sealed(sealed, files);
    }
}
