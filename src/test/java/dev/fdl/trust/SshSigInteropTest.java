package dev.fdl.trust;

import dev.fdl.FdlException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** fdl's SSHSIG signatures against OpenSSH's ssh-keygen, both ways, with key files and through an agent. */
class SshSigInteropTest {
    @TempDir Path tmp;
    private final byte[] message = "{\"fdl\": \"0.1\", \"id\": \"x\"}\n".getBytes(StandardCharsets.UTF_8);

    @ParameterizedTest
    @ValueSource(strings = {"ed25519", "rsa"})
    void sshKeygenAcceptsWhatFdlSignsWithAKeyFile(String type) throws Exception {
        Path key = OpenSsh.keygen(tmp, "id_" + type, type, "");
        byte[] sig = SshSig.sign(SigningKeys.open(key, null), message);
        assertThat(sshKeygenVerifies(key, sig, message)).isTrue();
        byte[] other = "something else".getBytes(StandardCharsets.UTF_8);
        assertThat(sshKeygenVerifies(key, sig, other)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ed25519", "rsa"})
    void fdlAcceptsWhatSshKeygenSigns(String type) throws Exception {
        Path key = OpenSsh.keygen(tmp, "id_" + type, type, "");
        Path msg = tmp.resolve("msg");
        Files.write(msg, message);
        OpenSsh.Run r = OpenSsh.run(tmp, null, Map.of(), "ssh-keygen", "-Y", "sign", "-f", key.toString(), "-n", "fdl", msg.toString()); // signs the file named
        assertThat(r.exit()).as(r.out()).isZero();
        SshSig.Parsed sig = SshSig.parse(Files.readAllBytes(tmp.resolve("msg.sig")), "msg.sig");
        assertThat(SshSig.verifies(sig, message)).isTrue();
        assertThat(SshSig.verifies(sig, "changed".getBytes(StandardCharsets.UTF_8))).isFalse();
        AllowedSigners allowed = AllowedSigners.parse(OpenSsh.allowedLine("alice@example.org", key).getBytes(StandardCharsets.UTF_8), "as");
        assertThat(allowed.principals(sig.key(), "fdl", Instant.now())).contains("alice@example.org");

        // a signature for another namespace is no fdl signature
        Files.delete(tmp.resolve("msg.sig"));
        OpenSsh.Run git = OpenSsh.run(tmp, null, Map.of(), "ssh-keygen", "-Y", "sign", "-f", key.toString(), "-n", "git", msg.toString());
        assertThat(git.exit()).as(git.out()).isZero();
        assertThat(SshSig.verifies(SshSig.parse(Files.readAllBytes(tmp.resolve("msg.sig")), "msg.sig"), message)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ed25519", "rsa"})
    void anAgentSignsForAPassphraseProtectedKey(String type) throws Exception {
        Path key = OpenSsh.keygen(tmp, "id_" + type, type, "secret words");
        assertThatThrownBy(() -> SigningKeys.open(key, null)).isInstanceOf(FdlException.class)
                .hasMessageContaining(key.toString()).hasMessageContaining("passphrase").hasMessageContaining("ssh-add");
        try (OpenSsh.Agent agent = new OpenSsh.Agent(tmp)) {
            assertThatThrownBy(() -> SigningKeys.open(key, agent.socket)).hasMessageContaining("does not hold it");
            agent.add(key, "secret words");
            SshSigner signer = SigningKeys.open(key, agent.socket);
            assertThat(signer.describe()).contains("agent");
            byte[] sig = SshSig.sign(signer, message);
            assertThat(sshKeygenVerifies(key, sig, message)).isTrue();
            // the public key alone names the agent's key
            assertThat(SshSig.sign(SigningKeys.open(key.resolveSibling(key.getFileName() + ".pub"), agent.socket), message)).isNotEmpty();
        }
    }

    @Test
    void aKeyTheAllowedSignersDoNotNameIsNotAllowed() throws Exception {
        Path alice = OpenSsh.keygen(tmp, "alice", "ed25519", "");
        Path mallory = OpenSsh.keygen(tmp, "mallory", "ed25519", "");
        String file = OpenSsh.allowedLine("alice@example.org", alice)
                + "bob@example.org namespaces=\"git\" " + Files.readString(tmp.resolve("mallory.pub"));
        AllowedSigners allowed = AllowedSigners.parse(file.getBytes(StandardCharsets.UTF_8), "allowed_signers");
        SshSig.Parsed sig = SshSig.parse(SshSig.sign(SigningKeys.open(mallory, null), message), "sig");
        assertThat(SshSig.verifies(sig, message)).isTrue();
        assertThat(allowed.principals(sig.key(), "fdl", Instant.now())).isEmpty(); // allowed for git only
        assertThat(allowed.principals(sig.key(), "git", Instant.now())).contains("bob@example.org");
        assertThatThrownBy(() -> AllowedSigners.parse("alice ssh-ed25519 notbase64!".getBytes(StandardCharsets.UTF_8), "f"))
                .hasMessageContaining("f line 1");
    }

    @Test
    void aMissingKeyIsNamed() {
        Path none = tmp.resolve("nope");
        assertThatThrownBy(() -> SigningKeys.open(none, null)).isInstanceOf(FdlException.class)
                .hasMessageContaining(none.toString()).hasMessageContaining("does not exist");
    }

    /** ssh-keygen -Y verify, as docs/signing.md tells a reader to run it. */
    private boolean sshKeygenVerifies(Path key, byte[] sig, byte[] msg) throws Exception {
        Path allowed = tmp.resolve("allowed_signers");
        Files.writeString(allowed, OpenSsh.allowedLine("alice@example.org", key));
        Path sigFile = tmp.resolve("check.sig");
        Files.write(sigFile, sig);
        OpenSsh.Run r = OpenSsh.run(tmp, msg, Map.of(), "ssh-keygen", "-Y", "verify", "-f", allowed.toString(), "-I", "alice@example.org",
                "-n", "fdl", "-s", sigFile.toString());
        return r.exit() == 0;
    }
}
