package dev.fdl.trust;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** OpenSSH's own tools for the tests: ssh-keygen, ssh-agent, ssh-add (the distribution's, in /usr/bin). */
final class OpenSsh {
    private OpenSsh() {}

    /** What a run printed and returned. */
    record Run(int exit, String out) {}

    /** Runs {@code command} in {@code dir} with {@code stdin} (may be null) and extra environment. */
    static Run run(Path dir, byte[] stdin, Map<String, String> env, String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().remove("SSH_AUTH_SOCK");
        pb.environment().putAll(env);
        if (stdin == null) pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        if (stdin != null) {
            try (var in = p.getOutputStream()) {
                in.write(stdin);
            }
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
        return new Run(p.exitValue(), out);
    }

    /** A new key pair {@code dir/name} (and {@code .pub}) of {@code type} (ed25519, rsa), with {@code passphrase} ("" for none). */
    static Path keygen(Path dir, String name, String type, String passphrase) throws IOException, InterruptedException {
        Path key = dir.resolve(name);
        Run r = run(dir, null, Map.of(), "ssh-keygen", "-q", "-t", type, type.equals("rsa") ? "-b" : "-C", type.equals("rsa") ? "2048" : name,
                "-N", passphrase, "-f", key.toString());
        assertThat(r.exit()).as(r.out()).isZero();
        return key;
    }

    /** An allowed-signers line for {@code principal} and the public key of {@code key}. */
    static String allowedLine(String principal, Path key) throws IOException {
        return principal + " " + Files.readString(key.resolveSibling(key.getFileName() + ".pub")).trim() + "\n";
    }

    /** A private agent listening on {@code dir/agent.sock}; close kills it. */
    static final class Agent implements AutoCloseable {
        final Path socket;
        private final long pid;

        Agent(Path dir) throws IOException, InterruptedException {
            socket = dir.resolve("agent.sock");
            Run r = run(dir, null, Map.of(), "ssh-agent", "-s", "-a", socket.toString());
            assertThat(r.exit()).as(r.out()).isZero();
            Matcher m = Pattern.compile("SSH_AGENT_PID=(\\d+)").matcher(r.out());
            assertThat(m.find()).as(r.out()).isTrue();
            pid = Long.parseLong(m.group(1));
        }

        /** ssh-add {@code key}, answering its passphrase through SSH_ASKPASS. */
        void add(Path key, String passphrase) throws IOException, InterruptedException {
            Path askpass = key.resolveSibling("askpass-" + key.getFileName());
            Files.writeString(askpass, "#!/bin/sh\necho '" + passphrase + "'\n");
            askpass.toFile().setExecutable(true);
            Run r = run(key.getParent(), null, Map.of("SSH_AUTH_SOCK", socket.toString(), "SSH_ASKPASS", askpass.toString(),
                    "SSH_ASKPASS_REQUIRE", "force", "DISPLAY", ":0"), "ssh-add", key.toString());
            assertThat(r.exit()).as(r.out()).isZero();
        }

        @Override
        public void close() {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
        }
    }

    static List<String> lines(String s) {
        return List.of(s.split("\n"));
    }
}
