package dev.fdl.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.cache.CatalogCache;
import dev.fdl.repo.RefValue;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.trust.TagSignature;
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

    /** The tags whose signatures are checked: every tag with --all, the ref when it is a tag. */
    private static List<RefValue> tags(Repository repo, String ref, boolean all) {
        if (all) return repo.listRefs().stream().filter(r -> r.kind() == RefValue.Kind.TAG).toList();
        if (ref == null) return List.of();
        return repo.bareRef(ref).filter(r -> r.kind() == RefValue.Kind.TAG).map(List::of).orElse(List.of());
    }

    /** Runs the check the options of {@code c} ask for and prints its report on {@code out}; exit 1 on any problem. */
    static void verify(Repository repo, CatalogCache cache, VerifyCommand c, PrintWriter out) {
        String ref = c.ref;
        boolean all = c.all;
        Path allowedFile = c.allowedSigners;
        boolean json = c.json;
        boolean progress = Out.interactive(c.quiet);
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
        List<String> tagLines = new ArrayList<>();
        List<SignatureCheck.Problem> tagProblems = new ArrayList<>();
        for (RefValue t : tags(repo, ref, all)) {
            java.util.Optional<String[]> tc = TagSignature.check(repo, t.versionId(), t.name(), signers);
            if (tc.isEmpty()) continue;
            String key = RepoLayout.tagSignature(t.versionId(), t.name().name());
            if (tc.get()[0] != null) tagProblems.add(new SignatureCheck.Problem(key, tc.get()[0]));
            else tagLines.add("tag " + t.name().name() + ": signed by " + tc.get()[1]);
        }
        SignatureCheck.Report checked = new SignatureCheck(repo, cache, signers, Instant.now()).run(ids, step -> {
            if (progress) {
                System.err.print("\r\033[Kverify: " + step);
                System.err.flush();
            }
        });
        if (progress) System.err.print("\r\033[K");
        List<SignatureCheck.Problem> all0 = new ArrayList<>(checked.problems());
        all0.addAll(tagProblems);
        SignatureCheck.Report r = new SignatureCheck.Report(all0, checked.versions(), checked.signed(), checked.files(), checked.bytes());
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
            tagLines.forEach(out::println);
            for (SignatureCheck.Problem p : r.problems()) out.println(p);
            out.printf("Checked %d version(s), %,d file(s), %,d bytes: %s%n", r.versions(), r.files(), r.bytes(),
                    r.clean() ? "every signature allowed, every digest matches" : r.problems().size() + " problem(s)");
            out.flush();
        }
        if (!r.clean()) throw new VerifyCommand.ProblemsFound(r.problems().size());
    }
}
