package dev.fdl.trust;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.cli.Cli;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/signing.md, "Signing": the user setting {@code signing.key} (as git's user.signingkey) signs
 * every commit. Isolated: the setting lives in a file the JVM-wide property {@code fdl.config}
 * names, and a signing key set there would sign the commits of tests running beside this one.
 */
@Isolated
class SigningKeySettingCliTest {
    @TempDir Path tmp;

    @Test
    void aRelativeKeyIsStoredAbsoluteAndSignsLaterCommitsFromAnyFolder() throws Exception {
        Path wc = Cli.newWorkingCopy(tmp);
        Path keys = Files.createDirectories(tmp.resolve("keys"));
        Path key = OpenSsh.keygen(keys, "alice", "ed25519", "");
        Path settings = tmp.resolve("settings/config.json");
        String before = System.getProperty("fdl.config");
        System.setProperty("fdl.config", settings.toString());
        try {
            Files.writeString(tmp.resolve("t.csv"), "id,v\n1,a\n");
            Cli.ok(wc, "import", tmp.resolve("t.csv").toString(), "--table", "t");
            // the hint of a commit asked to sign with no key, pasted as printed with <file> filled in
            Cli.Result noKey = Cli.in(wc, "commit", "-m", "one", "--sign");
            assertThat(noKey.exit()).isEqualTo(2);
            String hint = noKey.err().substring(noKey.err().indexOf("fdl config signing.key <file>")).strip();
            assertThat(hint).isEqualTo("fdl config signing.key <file>");
            Path relative = wc.relativize(key);
            String[] pasted = hint.substring("fdl ".length()).replace("<file>", relative.toString()).split(" ");
            Cli.ok(wc, pasted);

            assertThat(Json.MAPPER.readTree(Files.readString(settings)).get("signing.key").asText()).isEqualTo(key.toString());
            assertThat(Cli.in(wc, "config", "signing.key", "no-such-key").exit()).isEqualTo(2);
            assertThat(Cli.ok(wc, "config", "signing.key").out().strip()).isEqualTo(key.toString());

            Path sub = Files.createDirectories(wc.resolve("sub")); // a commit from another folder finds the same key
            Cli.ok(sub, "commit", "-m", "one");
            JsonNode shown = Json.MAPPER.readTree(Cli.ok(wc, "show", "--json").out());
            String id = shown.get("id").asText();
            assertThat(Files.exists(tmp.resolve("repo/versions/" + id + "/version.json.sig"))).isTrue();
        } finally {
            if (before == null) System.clearProperty("fdl.config");
            else System.setProperty("fdl.config", before);
        }
    }
}
