package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The launcher script {@code ./fdl} chooses JVM flags per command: the serial collector for every
 * command but {@code serve} (a conversion costs about a fifth more CPU under G1:
 * {@code CatalogConversionBench}, docs/catalog.md), the optimizing JIT for the commands that move
 * data, the first JIT tier for the everyday ones. The script runs against a copy with a built jar
 * and archives in place and a {@code java} on the PATH that prints its arguments.
 */
class LauncherJvmFlagsTest {
    @TempDir
    Path dir;

    /** Run the launcher through a symbolic link to it (a {@code ~/bin/fdl} pointing at a checkout). */
    private boolean viaLink;

    @Test
    void aLinkedLauncherRunsTheJarBesideTheLauncher() throws Exception {
        viaLink = true;
        assertThat(javaArguments("status")).contains(dir.resolve("fdl-home/target/fdl-0.1.0.jar").toString())
                .noneMatch(l -> l.contains("building"));
    }

    /** The arguments the launcher passes to {@code java} for {@code args}, one per element. */
    private List<String> javaArguments(String... args) throws IOException, InterruptedException {
        return javaArguments(Map.of("LANG", "C.UTF-8"), args);
    }

    /** The same with {@code locale} as the only locale variables of the environment. */
    private List<String> javaArguments(Map<String, String> locale, String... args) throws IOException, InterruptedException {
        Path home = dir.resolve("fdl-home");
        Path target = Files.createDirectories(home.resolve("target"));
        Files.copy(Path.of("fdl"), home.resolve("fdl"), StandardCopyOption.REPLACE_EXISTING);
        Instant built = Instant.now().minusSeconds(60);
        for (String f : List.of("fdl-0.1.0.jar", "fdl.jsa", "fdl-light.jsa", "fdl-log.jsa", "fdl-status.jsa", "fdl-show.jsa")) {
            Path p = Files.writeString(target.resolve(f), "x");
            // the archives are newer than the jar: the launcher prepares nothing
            Files.setLastModifiedTime(p, FileTime.from(f.endsWith(".jar") ? built : built.plusSeconds(30)));
        }
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path java = Files.writeString(bin.resolve("java"),
                "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\nprintf 'LC_ALL=%s\\n' \"$LC_ALL\"\nprintf 'FDL_USER_LC_ALL=%s\\n' \"${FDL_USER_LC_ALL-unset}\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path launcher = home.resolve("fdl");
        if (viaLink) launcher = Files.createSymbolicLink(Files.createDirectories(dir.resolve("links")).resolve("fdl"), launcher);
        ProcessBuilder pb = new ProcessBuilder(concat("bash", launcher.toString(), args)).redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().remove("FDL_JAVA_OPTS");
        pb.environment().keySet().removeIf(k -> k.equals("LANG") || k.startsWith("LC_"));
        pb.environment().putAll(locale);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out.lines().toList();
    }

    private static String[] concat(String a, String b, String... rest) {
        String[] all = new String[rest.length + 2];
        all[0] = a;
        all[1] = b;
        System.arraycopy(rest, 0, all, 2, rest.length);
        return all;
    }

    @Test
    void checkoutAndCommitRunWithTheSerialCollectorAndTheOptimizingJit() throws Exception {
        for (String[] command : List.of(new String[] {"checkout", "--repo", "r"}, new String[] {"-C", "wc", "commit", "-m", "x"},
                new String[] {"restore", "v1"}, new String[] {"import", "a.csv", "-t", "a"})) {
            List<String> args = javaArguments(command);
            assertThat(args).as(String.join(" ", command)).contains("-XX:+UseSerialGC").doesNotContain("-XX:TieredStopAtLevel=1");
            assertThat(args.subList(args.indexOf("-jar") + 2, args.size() - 2)).containsExactly(command);
        }
    }

    @Test
    void importAndQueryCompileAtTenTimesTheThresholdsWhileConversionsKeepTheJvmsOwn() throws Exception {
        for (String[] command : List.of(new String[] {"import", "a.csv", "-t", "a"}, new String[] {"query", "SELECT 1"})) {
            assertThat(javaArguments(command)).as(String.join(" ", command)).contains("-XX:+UseSerialGC", "-XX:CompileThresholdScaling=10")
                    .doesNotContain("-XX:TieredStopAtLevel=1");
        }
        for (String[] command : List.of(new String[] {"checkout", "--repo", "r"}, new String[] {"commit", "-m", "x"})) {
            assertThat(javaArguments(command)).as(String.join(" ", command)).noneMatch(a -> a.startsWith("-XX:CompileThresholdScaling"));
        }
    }

    @Test
    void serveKeepsTheJvmDefaultsAndEverydayCommandsTheFirstTier() throws Exception {
        assertThat(javaArguments("serve", "--repo", "r")).noneMatch(a -> a.startsWith("-XX:+Use") || a.startsWith("-XX:Tiered"));
        assertThat(javaArguments("log", "--oneline")).contains("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    }

    /**
     * The JVM relocates the archive it maps at every start, in time growing with its size: log, status and show map
     * one of their own classes, the other everyday commands the light one, the rest (and {@code --json}) the full one.
     */
    @Test
    void eachEverydayCommandMapsTheSmallestArchiveHoldingItsClasses() throws Exception {
        Map<String, String> archives = Map.of("log --oneline", "fdl-log.jsa", "status", "fdl-status.jsa", "show", "fdl-show.jsa",
                "refs", "fdl-light.jsa", "branch", "fdl-light.jsa", "log --json", "fdl.jsa", "commit -m x", "fdl.jsa",
                "-C wc log", "fdl-log.jsa");
        for (Map.Entry<String, String> e : archives.entrySet()) {
            assertThat(javaArguments(e.getKey().split(" "))).as(e.getKey())
                    .contains("-XX:SharedArchiveFile=" + dir.resolve("fdl-home/target").resolve(e.getValue()));
        }
    }

    @Test
    void namesAndOutputAreUtf8WhateverTheLocale() throws Exception {
        // cron and env -i: no locale at all; the JVM would write '?' and fail on a non-ASCII file name
        assertThat(javaArguments(Map.of(), "log")).contains("-Dfile.encoding=UTF-8", "-Dsun.stdout.encoding=UTF-8",
                "-Dsun.stderr.encoding=UTF-8", "LC_ALL=C.UTF-8");
        assertThat(javaArguments(Map.of("LANG", "C"), "log")).contains("LC_ALL=C.UTF-8");
        assertThat(javaArguments(Map.of("LANG", "de_DE.UTF-8", "LC_ALL", "POSIX"), "log")).contains("LC_ALL=C.UTF-8",
                "FDL_USER_LC_ALL=POSIX"); // for fdl run's command
        // a UTF-8 locale of the user's stays
        assertThat(javaArguments(Map.of("LANG", "de_DE.UTF-8"), "log")).contains("LC_ALL=", "FDL_USER_LC_ALL=unset")
                .doesNotContain("LC_ALL=C.UTF-8");
        assertThat(javaArguments(Map.of("LC_ALL", "en_US.utf8"), "log")).contains("LC_ALL=en_US.utf8");
    }

    @Test
    void progressFollowsWhetherStderrIsATerminal() throws Exception {
        // this test's child has its stderr on a pipe: no progress, whatever stdin and stdout are
        assertThat(javaArguments("verify")).contains("-Dfdl.stderr.terminal=false");
        assertThat(Out.interactive(false, "false", true, false)).isFalse();
        assertThat(Out.interactive(false, "true", false, false)).isTrue();
        assertThat(Out.interactive(true, "true", true, false)).isFalse();
        assertThat(Out.interactive(false, "true", true, true)).isFalse();
        assertThat(Out.interactive(false, null, true, false)).isTrue(); // java -jar without the launcher
    }

    @Test
    void fdlRunGivesItsCommandTheUsersOwnLocale() {
        Map<String, String> env = new java.util.HashMap<>(Map.of("LC_ALL", "C.UTF-8", "FDL_USER_LC_ALL", "POSIX"));
        RunCommand.userLocale(env);
        assertThat(env).isEqualTo(Map.of("LC_ALL", "POSIX"));
        env = new java.util.HashMap<>(Map.of("LC_ALL", "C.UTF-8", "FDL_USER_LC_ALL", ""));
        RunCommand.userLocale(env);
        assertThat(env).isEmpty();
        env = new java.util.HashMap<>(Map.of("LC_ALL", "de_DE.UTF-8"));
        RunCommand.userLocale(env);
        assertThat(env).isEqualTo(Map.of("LC_ALL", "de_DE.UTF-8"));
    }
}
