package dev.fdl.repo;

import dev.fdl.util.ShellQuote;
import dev.fdl.FdlException;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * git's revision suffixes on a ref or version (gitrevisions(7)), as a reader of versions wants
 * them: {@code <rev>~N} (N-th first-parent ancestor, {@code ~} alone is {@code ~1}),
 * {@code <rev>^N} (N-th parent, {@code ^} alone is {@code ^1}, {@code ^0} the version itself) and
 * {@code <rev>@{<date>}} (the newest version on the first-parent history of {@code <rev>} created
 * at or before the date, UTC: a day {@code 2026-01-01} means up to its end, an instant
 * {@code 2026-01-01T12:00:00Z} or {@code 2026-01-01T12:00} means up to that second).
 * {@code @{<date>}} alone applies to HEAD. These characters cannot occur in ref names (SPEC.md
 * section 3) or version ids, so a spec without them is a plain ref or version.
 *
 * @param base  the ref or version the suffixes apply to ({@code HEAD} for {@code @{…}} alone)
 * @param until the date suffix as an exclusive upper bound, or null
 * @param date  the date as written, for messages, or null
 * @param steps the {@code ~}/{@code ^} steps in order
 */
record Revision(String spec, String base, Instant until, String date, List<Step> steps) {
    /** One navigation step: {@code ~n} (n first parents) or {@code ^n} (the n-th parent). */
    record Step(char kind, int n) {
        @Override
        public String toString() {
            return kind + String.valueOf(n);
        }
    }

    /**
     * Parses {@code spec}; null when it has no suffix (a plain ref or version).
     *
     * @throws FdlException usage error (exit 2) naming the part that is not understood
     */
    static Revision parse(String spec) {
        if (spec == null) return null;
        int cut = firstSuffix(spec);
        if (cut < 0) return null;
        String base = spec.substring(0, cut);
        String rest = spec.substring(cut);
        Instant until = null;
        String date = null;
        if (rest.startsWith("@{")) {
            int close = rest.indexOf('}');
            if (close < 0) throw bad(spec, "'@{' without '}'");
            date = rest.substring(2, close);
            until = until(spec, date);
            rest = rest.substring(close + 1);
            if (RevisionResolver.isHead(base)) base = RepoLayout.HEAD;
        }
        if (base.isEmpty()) throw bad(spec, "nothing before '" + rest.charAt(0) + "'");
        List<Step> steps = new ArrayList<>();
        int i = 0;
        while (i < rest.length()) {
            char k = rest.charAt(i++);
            if (k != '~' && k != '^') throw bad(spec, "unexpected '" + rest.substring(i - 1) + "'");
            int start = i;
            while (i < rest.length() && Character.isDigit(rest.charAt(i))) i++;
            if (i - start > 6) throw bad(spec, "the number after '" + k + "' is too large");
            int n = i == start ? 1 : Integer.parseInt(rest.substring(start, i));
            steps.add(new Step(k, n));
        }
        return new Revision(spec, base, until, date, steps);
    }

    /** How many characters of {@code spec} are suffixes (from the first {@code ~}, {@code ^} or {@code @{}). */
    int suffixLength() {
        return spec.length() - firstSuffix(spec);
    }

    private static int firstSuffix(String spec) {
        int best = -1;
        for (String s : new String[]{"~", "^", "@{"}) {
            int i = spec.indexOf(s);
            if (i >= 0 && (best < 0 || i < best)) best = i;
        }
        return best;
    }

    private static Instant until(String spec, String date) {
        try {
            return LocalDate.parse(date).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException e) {
            // not a day; an instant below
        }
        try {
            return Instant.parse(date).plusSeconds(1);
        } catch (DateTimeParseException e) {
            // not an instant with zone; local date-time below
        }
        try {
            return LocalDateTime.parse(date).toInstant(ZoneOffset.UTC).plusSeconds(1);
        } catch (DateTimeParseException e) {
            throw bad(spec, "'" + date + "' is not a date: use YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS][Z] (UTC)");
        }
    }

    private static FdlException bad(String spec, String why) {
        return FdlException.usage("cannot read revision '" + spec + "': " + why
                + "; write <ref>~N, <ref>^N or <ref>@{YYYY-MM-DD}");
    }

    /**
     * The version this revision names, walking version.json parents from the base's version.
     *
     * @throws FdlException exit 4 naming what was not found: the base, a parent beyond the start of
     *                      history, a missing parent, no version by the date
     */
    VersionInfo resolve(VersionDatabase repo, VersionInfo start) {
        VersionInfo v = start;
        String at = base;
        if (until != null) {
            VersionInfo newest = v;
            while (!v.createdAt().isBefore(until)) {
                if (v.parents().isEmpty())
                    throw FdlException.notFound("no version of " + base + " was created at or before " + date
                            + " (UTC): its oldest version " + v.id() + " was created " + v.createdAt()
                            + " (newest: " + newest.createdAt() + ")");
                v = parent(repo, v, 1, at);
            }
            at = base + "@{" + date + "}";
        }
        for (Step s : steps) {
            if (s.kind() == '^') {
                if (s.n() == 0) continue;
                if (v.parents().size() < s.n())
                    throw FdlException.notFound("revision '" + spec + "' not found: version " + v.id() + " (" + at + ") has "
                            + (v.parents().isEmpty() ? "no parent (it is the first version of its history)"
                            : v.parents().size() == 1 ? "1 parent, not " + s.n() + ": only a merge version has a second parent"
                            : v.parents().size() + " parents, not " + s.n())
                            + "; see fdl log --graph " + ShellQuote.word(base));
                v = parent(repo, v, s.n(), at);
                at = at + "^" + s.n();
            } else {
                String from = at;
                for (int i = 1; i <= s.n(); i++) {
                    String here = i == 1 ? from : from + "~" + (i - 1);
                    if (v.parents().isEmpty())
                        throw FdlException.notFound("revision '" + spec + "' not found: version " + v.id() + " (" + here
                                + ") has no parent (it is the first version of its history); see fdl log " + ShellQuote.word(base));
                    v = parent(repo, v, 1, here);
                }
                at = from + "~" + s.n();
            }
        }
        return v;
    }

    private static VersionInfo parent(VersionDatabase repo, VersionInfo v, int n, String at) {
        String id = v.parents().get(n - 1);
        return repo.read(id).orElseThrow(() -> FdlException.notFound("parent " + id + " of version " + v.id()
                + " (" + at + ") is missing (no version.json), so history stops there; run fdl verify"));
    }
}
