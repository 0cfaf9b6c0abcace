package dev.fdl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The launcher run through a symbolic link (a {@code ~/bin/fdl} pointing at a checkout) finds its own folder's jar. */
class LauncherSymlinkTest {
    @TempDir Path dir;

    @Test
    void aLinkedLauncherRunsTheJarBesideTheLauncher() throws Exception {
        Path home = dir.resolve("fdl-home");
        Path target = Files.createDirectories(home.resolve("target"));
        Files.copy(Path.of("fdl"), home.resolve("fdl"), StandardCopyOption.REPLACE_EXISTING);
        Instant built = Instant.now().minusSeconds(60);
        for (String f : List.of("fdl-0.1.0.jar", "fdl.jsa", "fdl-light.jsa")) {
            Path p = Files.writeString(target.resolve(f), "x");
            Files.setLastModifiedTime(p, FileTime.from(f.endsWith(".jar") ? built : built.plusSeconds(30)));
        }
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path java = Files.writeString(bin.resolve("java"), "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path links = Files.createDirectories(dir.resolve("links"));
        Path link = Files.createSymbolicLink(links.resolve("fdl"), home.resolve("fdl"));
        ProcessBuilder pb = new ProcessBuilder("bash", link.toString(), "status").redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().remove("FDL_JAVA_OPTS");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out.lines()).as(out).contains(home.resolve("target/fdl-0.1.0.jar").toString()).noneMatch(l -> l.contains("building"));
    }
}
