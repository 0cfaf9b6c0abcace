package dev.fdl.repo;

import dev.fdl.FdlException;

/**
 * git's two-dot revision range {@code <a>..<b>} on the command line: for {@code fdl log} the versions
 * {@code b} reaches and {@code a} does not, for {@code fdl diff} the same as {@code diff a b}, as in
 * git. An empty side is {@code HEAD} ({@code main..}, {@code ..main}). Ref names cannot hold
 * {@code ..} (SPEC.md section 3, ref names) and version ids and revision suffixes hold no dot, so
 * the split is unambiguous. Each side is then resolved by {@link RevisionResolver}.
 *
 * @param from the side left of {@code ..}
 * @param to   the side right of it
 */
public record RevisionRange(String from, String to) {
    /**
     * The range {@code arg} names, or null when it holds no {@code ..}.
     *
     * @param command the command, for the error
     * @throws FdlException usage error for git's three-dot form {@code a...b}, which fdl does not take
     */
    public static RevisionRange parse(String arg, String command) {
        int at = arg.indexOf("..");
        if (at < 0) return null;
        if (arg.contains("..."))
            throw FdlException.usage(command + " does not take git's three-dot form '" + arg + "'; name the two sides ("
                    + command + " <a>..<b>)");
        String from = arg.substring(0, at), to = arg.substring(at + 2);
        if (to.contains("..")) throw FdlException.usage(command + ": '" + arg + "' is not a range <a>..<b>");
        return new RevisionRange(from.isEmpty() ? RepoLayout.HEAD : from, to.isEmpty() ? RepoLayout.HEAD : to);
    }
}
