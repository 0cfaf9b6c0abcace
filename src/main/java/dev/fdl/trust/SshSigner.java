package dev.fdl.trust;

/**
 * Something that makes SSH signatures with one key: a private key file ({@link KeyFile}) or an
 * SSH agent holding the key ({@link SshAgent}).
 */
public interface SshSigner {
    /** The key's public half. */
    SshPublicKey publicKey();

    /**
     * Signs {@code data}, returning an SSH signature blob ({@code string algorithm, string bytes}):
     * {@code ssh-ed25519}, or {@code rsa-sha2-512} for an RSA key.
     *
     * @throws dev.fdl.FdlException exit 1 when the key or agent refuses
     */
    byte[] sign(byte[] data);

    /** Where the key is, for messages (a file, or the agent and the key's file). */
    String describe();
}
