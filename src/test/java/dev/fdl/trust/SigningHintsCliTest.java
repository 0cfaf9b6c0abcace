package dev.fdl.trust;

import dev.fdl.cli.Cli;
import dev.fdl.util.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.fdl.cli.Pasted.paste;
import static dev.fdl.cli.Pasted.printed;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commands a refused signing prints, pasted as printed with the key file filled in: the user
 * setting {@code signing.key} that commit {@code --sign} and {@code tag -s} read, the commit that
 * names its key, and the tag that names its key. Each pasted command signs: the version or tag gets
 * its signature file. The user settings file is JVM-wide ({@code fdl.config}) and its signing.key signs
 * every commit, so no other test runs meanwhile.
 */
@Isolated
class SigningHintsCliTest {
    @TempDir Path dir;
    private Path wc, root, key;
    private String before;

    @BeforeEach
    void userSettingsOfTheirOwn() throws Exception {
        before = System.getProperty("fdl.config");
        System.setProperty("fdl.config", dir.resolve("user config.json").toString());
        wc = Cli.newWorkingCopy(dir);
        root = dir.resolve("repo");
        key = OpenSsh.keygen(Files.createDirectories(dir.resolve("my keys")), "id_ed25519", "ed25519", "");
        Cli.ok(wc, "import", Files.writeString(dir.resolve("t.csv"), "id\n1\n").toString(), "--table", "t");
    }

    @AfterEach
    void restoreUserSettings() {
        if (before == null) System.clearProperty("fdl.config");
        else System.setProperty("fdl.config", before);
    }

    /** {@code text} with the placeholder {@code <…>} replaced by the key file, quoted for the shell. */
    private String withKey(String text) {
        return text.replaceAll("<[^>]+>", "'" + key + "'");
    }

    private boolean headIsSigned() throws Exception {
        String head = Files.readString(root.resolve("refs/heads/main")).trim();
        return Files.exists(root.resolve("versions").resolve(head).resolve("version.json.sig"));
    }

    private boolean tagIsSigned(String tag) throws Exception {
        String head = Files.readString(root.resolve("refs/heads/main")).trim();
        return Files.exists(root.resolve(dev.fdl.repo.RepoLayout.tagSignature(head, tag)));
    }

    @Test
    void commitSignWithoutAKeyOffersTheSettingAndTheKeyOption() throws Exception {
        Cli.Result refused = Cli.in(wc, "commit", "-m", "one", "--sign");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(2);
        paste(wc, withKey(printed(refused.err(), "(fdl commit --sign=<[^>]+>)")) + " -m one");
        assertThat(headIsSigned()).isTrue();

        Cli.ok(wc, "import", Files.writeString(dir.resolve("u.csv"), "id\n2\n").toString(), "--table", "u");
        paste(wc, withKey(printed(refused.err(), "set one with (fdl config signing.key <file>)$")));
        Cli.ok(wc, "commit", "-m", "two", "--sign");
        assertThat(headIsSigned()).isTrue();
    }

    @Test
    void aSigningKeySettingNamingNoFileOffersTheSetting() throws Exception {
        Path gone = Files.copy(key, dir.resolve("gone"));
        Cli.ok(wc, "config", "signing.key", gone.toString());
        Files.delete(gone);
        Cli.Result refused = Cli.in(wc, "commit", "-m", "one", "--sign");
        assertThat(refused.exit()).as(refused.toString()).isNotZero();
        paste(wc, withKey(printed(refused.err(), "or (fdl config signing.key <file>)\\)")));
        Cli.ok(wc, "commit", "-m", "one", "--sign");
        assertThat(headIsSigned()).isTrue();
    }

    @Test
    void tagSignWithoutAKeyOffersTheSettingAndTheKeyOption() throws Exception {
        Cli.ok(wc, "commit", "-m", "one");
        Cli.Result refused = Cli.in(wc, "tag", "-s", "v1");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(2);
        paste(wc, withKey(printed(refused.err(), ", or (fdl tag -u .*)$")));
        assertThat(tagIsSigned("v1")).isTrue();

        paste(wc, withKey(printed(refused.err(), "not set: (fdl config signing.key <file>),")));
        Cli.ok(wc, "tag", "-s", "v2");
        assertThat(tagIsSigned("v2")).isTrue();
    }

    @Test
    void aRelativeKeyIsStoredAbsoluteAndSignsCommitsFromAnyFolder() throws Exception {
        Cli.ok(wc, "config", "signing.key", wc.relativize(key).toString());
        assertThat(Json.MAPPER.readTree(Files.readString(dir.resolve("user config.json"))).get("signing.key").asText()).isEqualTo(key.toString());
        assertThat(Cli.ok(wc, "config", "signing.key").out().strip()).isEqualTo(key.toString());
        assertThat(Cli.in(wc, "config", "signing.key", "no-such-key").exit()).isEqualTo(2);
        Cli.ok(Files.createDirectories(wc.resolve("sub")), "commit", "-m", "one");
        assertThat(headIsSigned()).isTrue();
    }
}
