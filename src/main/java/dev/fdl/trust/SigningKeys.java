package dev.fdl.trust;

import dev.fdl.FdlException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the signer for a key the user named ({@code fdl commit --sign=<key>}, the user setting
 * {@code signing.key}, as git's {@code user.signingkey}): the private key file, or its
 * {@code .pub} beside it. Where an SSH agent is given ({@code SSH_AUTH_SOCK}) and holds the key,
 * the agent signs; otherwise the key file, which must then be unencrypted (fdl asks for no
 * passphrase). Everything is checked here, before a commit uploads anything.
 */
public final class SigningKeys {
    private SigningKeys() {}

    /**
     * @param key   the private key file, or its public key file ({@code .pub}) when an agent holds the key
     * @param agent the agent's socket, or null when none is set
     * @throws FdlException exit 1 naming the file: missing, not a key, passphrase-protected with no agent holding it,
     *                      or an agent that cannot be reached
     */
    public static SshSigner open(Path key, Path agent) {
        boolean pubGiven = key.getFileName().toString().endsWith(".pub");
        Path priv = pubGiven ? key.resolveSibling(key.getFileName().toString().replaceFirst("\\.pub$", "")) : key;
        Path pub = pubGiven ? key : key.resolveSibling(key.getFileName() + ".pub");
        if (!Files.exists(key))
            throw new FdlException("the signing key " + key + " does not exist; name an SSH private key (fdl commit --sign=<file>, "
                    + "or fdl config signing.key <file>); nothing was committed");
        KeyFile file = Files.exists(priv) ? KeyFile.read(priv) : null;
        SshPublicKey publicKey = file != null ? file.publicKey() : readPub(pub);
        if (agent != null) {
            if (new SshAgent(agent).keys().contains(publicKey)) return new SshAgent(agent).signer(publicKey, key.toString());
        }
        if (file == null)
            throw new FdlException("the signing key " + key + " is a public key, and " + (agent == null ? "no SSH agent is set (SSH_AUTH_SOCK)"
                    : "the SSH agent at " + agent + " does not hold it (ssh-add " + priv + ")") + "; nothing was committed");
        if (file.encrypted())
            throw new FdlException("the signing key " + priv + " is protected by a passphrase, which fdl does not ask for, and "
                    + (agent == null ? "no SSH agent is set (SSH_AUTH_SOCK)" : "the SSH agent at " + agent + " does not hold it")
                    + ": add it to an agent (eval $(ssh-agent); ssh-add " + priv + "); nothing was committed");
        return file;
    }

    private static SshPublicKey readPub(Path pub) {
        try {
            return SshPublicKey.parseLine(Files.readString(pub), pub.toString());
        } catch (IOException e) {
            throw new FdlException("cannot read the public key " + pub + ": " + e.getMessage());
        }
    }
}
