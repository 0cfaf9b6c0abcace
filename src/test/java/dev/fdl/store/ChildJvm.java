package dev.fdl.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Starts a main class of the test classpath in a separate JVM (for cross-process tests). */
public final class ChildJvm {
    private ChildJvm() {}

    /** What a finished child printed (stdout and stderr merged) and its exit code. */
    public record Result(int exitCode, String output) {}

    /** Starts {@code main} with {@code heap} (e.g. {@code -Xmx48m}), extra environment and arguments. */
    static Process start(Class<?> main, String heap, Map<String, String> env, String... args) throws IOException {
        return start(System.getProperty("java.class.path"), main.getName(), heap, env, args);
    }

    /**
     * Starts {@code mainClass} on {@code classpath} (not the test classpath: e.g. another DuckDB
     * driver, which cannot share a JVM with the one fdl uses).
     */
    public static Process start(String classpath, String mainClass, String heap, Map<String, String> env, String... args) throws IOException {
        return start(classpath, mainClass, List.of(heap), env, args);
    }

    /** {@link #start(String, String, String, Map, String...)} with several JVM options (e.g. {@code -Duser.timezone=…}). */
    public static Process start(String classpath, String mainClass, List<String> jvmOptions, Map<String, String> env, String... args)
            throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", classpath, mainClass));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        return pb.start();
    }

    /** Waits at most {@code seconds} for the child, reading all it prints; kills it on timeout. */
    public static Result await(Process p, long seconds) throws IOException, InterruptedException {
        byte[][] out = new byte[1][];
        Thread reader = new Thread(() -> {
            try {
                out[0] = p.getInputStream().readAllBytes();
            } catch (IOException e) {
                out[0] = ("(cannot read output: " + e + ")").getBytes(StandardCharsets.UTF_8);
            }
        });
        reader.start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            reader.join();
            return new Result(-1, "timed out after " + seconds + " s:\n" + new String(out[0], StandardCharsets.UTF_8));
        }
        reader.join();
        return new Result(p.exitValue(), new String(out[0], StandardCharsets.UTF_8));
    }
}
