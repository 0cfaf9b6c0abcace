package dev.fdl.workingcopy;

import dev.fdl.FdlException;
import dev.fdl.repo.VersionInfo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who a commit is by: {@code --author "Name <email>"}, else {@code FDL_AUTHOR_NAME} /
 * {@code FDL_AUTHOR_EMAIL}, else git's {@code user.name} / {@code user.email}, else the OS user.
 */
public final class Authors {
    private static final Pattern NAME_EMAIL = Pattern.compile("^\\s*([^<>]*?)\\s*(?:<([^<>]*)>)?\\s*$");

    private Authors() {}

    /** Parses {@code Name <email>} or {@code Name}; exit 2 when malformed. */
    public static VersionInfo.Author parse(String text) {
        Matcher m = NAME_EMAIL.matcher(text);
        if (!m.matches() || m.group(1).isEmpty())
            throw FdlException.usage("invalid author '" + text + "': expected \"Name <email>\" or \"Name\"");
        String email = m.group(2);
        return new VersionInfo.Author(m.group(1), email == null || email.isBlank() ? null : email.trim());
    }

    /** The author for a commit, by the order in the class comment. */
    public static VersionInfo.Author resolve(String flag) {
        if (flag != null) return parse(flag);
        String name = System.getenv("FDL_AUTHOR_NAME");
        String email = System.getenv("FDL_AUTHOR_EMAIL");
        if (name != null && !name.isBlank()) return new VersionInfo.Author(name.trim(), blankToNull(email));
        String gitName = git("user.name");
        if (gitName != null) return new VersionInfo.Author(gitName, blankToNull(email != null ? email : git("user.email")));
        return new VersionInfo.Author(System.getProperty("user.name", "unknown"), blankToNull(email));
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    private static String git(String key) {
        try {
            Process p = new ProcessBuilder("git", "config", "--get", key).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 && !out.isEmpty() ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
