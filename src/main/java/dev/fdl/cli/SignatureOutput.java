package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.cache.CatalogCache;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionFolder;
import dev.fdl.trust.AllowedSigners;
import dev.fdl.trust.SignatureCheck;
import dev.fdl.util.Json;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@code fdl verify --signatures}: which versions, and the report as text or JSON (docs/signing.md). */
final class SignatureOutput {
    private SignatureOutput() {}

    static void verify(Repository repo, CatalogCache cache, String ref, boolean all, Path allowedFile, PrintWriter out,
                       boolean json, boolean progress) {
        AllowedSigners signers = SignatureCheck.allowedSigners(repo, allowedFile);
        List<String> ids = new ArrayList<>();
        if (all) {
            if (!repo.store().canList())
                throw new FdlException("--all lists the repository's versions, but " + repo.root() + " cannot be listed (an HTTP(S) root); "
                        + "name a ref instead");
            for (VersionFolder f : VersionFolder.list(repo.store()).folders().values()) if (f.finished()) ids.add(f.id());
        } else {
            ids.add(repo.resolveAllowingExpired(ref == null ? "HEAD" : ref).version().id());
        }
        SignatureCheck.Report r = new SignatureCheck(repo, cache, signers, Instant.now()).run(ids, step -> {
            if (progress) {
                System.err.print("\r\033[Kverify: " + step);
                System.err.flush();
            }
        });
        if (progress) System.err.print("\r\033[K");
        if (json) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("clean", r.clean());
            o.put("versions", r.versions());
            o.put("files", r.files());
            o.put("bytes", r.bytes());
            ArrayNode s = o.putArray("signed");
            for (SignatureCheck.Signer x : r.signed())
                s.addObject().put("version", x.versionId()).put("principals", x.principals()).put("key", x.key().fingerprint());
            ArrayNode a = o.putArray("problems");
            for (SignatureCheck.Problem p : r.problems()) a.addObject().put("key", p.key()).put("message", p.message());
            Out.json(out, o);
        } else {
            for (SignatureCheck.Signer x : r.signed())
                out.println("version " + x.versionId() + ": signed by " + (x.principals() == null ? "an unknown key" : x.principals())
                        + " (" + x.key() + ")");
            for (SignatureCheck.Problem p : r.problems()) out.println(p);
            out.printf("Checked %d version(s), %,d file(s), %,d bytes: %s%n", r.versions(), r.files(), r.bytes(),
                    r.clean() ? "every signature allowed, every digest matches" : r.problems().size() + " problem(s)");
            out.flush();
        }
        if (!r.clean()) throw new VerifyCommand.ProblemsFound(r.problems().size());
    }
}
