package dev.fdl.ducklake.load;

import dev.fdl.FdlException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The files one {@code fdl import} loads as one snapshot, from what the user named: files, folders
 * (every file below, recursively, in name order; names starting with {@code .} or {@code _}, such
 * as Spark's {@code _SUCCESS} or {@code .crc} files, are left out) and quoted globs ({@code *},
 * {@code ?}, {@code [..]}, {@code {a,b}}, {@code **} across folders, as Java's glob matcher reads
 * them; a shell that already expanded a glob hands over files, which is the same).
 *
 * @param files the files in load order, at least one, each once
 * @param hive  whether the files sit in hive-partitioned folders ({@code year=2026/month=01/}) below
 *              a named folder or a glob's fixed part: DuckDB's {@code hive_partitioning} then adds
 *              the partition columns (their types as DuckDB infers them from the folder names)
 */
public record SourceFiles(List<Path> files, boolean hive) {
    public SourceFiles {
        files = List.copyOf(files);
        if (files.isEmpty()) throw new IllegalArgumentException("no source file");
    }

    /** One file, no partitioning: what an import of a single named file reads. */
    public static SourceFiles of(Path file) {
        return new SourceFiles(List.of(file), false);
    }

    /** The first file (named in messages about the whole set). */
    public Path first() {
        return files.get(0);
    }

    /** Whether more than one file, or hive partition columns, make this more than a one-file read. */
    public boolean many() {
        return files.size() > 1 || hive;
    }

    /**
     * Refuses a source that is not a readable file, naming it: one that does not exist is not found
     * (exit 4, SPEC.md section 6, as for a missing ref), anything else there (a device, a socket) a failure.
     */
    public static void requireFile(Path f) {
        if (Files.isRegularFile(f)) return;
        if (!Files.exists(f)) throw FdlException.notFound("cannot import " + f + ": no such file");
        throw new FdlException("cannot import " + f + ": not a regular file");
    }

    /**
     * The files {@code args} name, relative to {@code cwd}.
     *
     * @throws FdlException not found naming the argument when a named file does not exist or a glob
     *                      matches no file; failure naming the folder when one holds no file to load
     */
    public static SourceFiles expand(List<String> args, Path cwd) {
        Set<Path> files = new LinkedHashSet<>();
        boolean partitioned = !args.isEmpty();
        for (String arg : args) {
            List<Path> found;
            Path base;
            if (isGlob(arg)) {
                base = cwd.resolve(fixedPart(arg)).normalize();
                found = glob(base, cwd.resolve(arg).normalize().toString());
                if (found.isEmpty()) throw FdlException.notFound("cannot import " + arg + ": no file matches it");
            } else {
                Path p = cwd.resolve(arg).normalize();
                if (Files.isDirectory(p)) {
                    base = p;
                    found = glob(p, null);
                    if (found.isEmpty()) throw new FdlException("cannot import " + p + ": the folder holds no file to load");
                } else {
                    requireFile(p);
                    base = null;
                    found = List.of(p);
                }
            }
            for (Path f : found) {
                files.add(f);
                if (base == null || partitionDepth(base.relativize(f)) == 0) partitioned = false;
            }
        }
        return new SourceFiles(new ArrayList<>(files), partitioned);
    }

    /** Whether {@code arg} holds a glob character. */
    static boolean isGlob(String arg) {
        return arg.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{');
    }

    /** The folders of {@code glob} before its first segment with a glob character ({@code "."} when the first has one). */
    static String fixedPart(String glob) {
        String[] parts = glob.split("/", -1);
        StringBuilder b = new StringBuilder(glob.startsWith("/") ? "/" : "");
        for (int i = 0; i < parts.length - 1 && !isGlob(parts[i]); i++) {
            if (parts[i].isEmpty()) continue;
            b.append(parts[i]).append('/');
        }
        return b.length() == 0 ? "." : b.toString();
    }

    /** The hive folders ({@code key=value}) among the folders of {@code relative}. */
    static int partitionDepth(Path relative) {
        int n = 0;
        for (int i = 0; i < relative.getNameCount() - 1; i++) {
            String s = relative.getName(i).toString();
            int eq = s.indexOf('=');
            if (eq > 0 && eq < s.length() - 1) n++;
        }
        return n;
    }

    /** Regular files under {@code base} (not hidden), matching {@code pattern} (an absolute glob) when given, in name order. */
    private static List<Path> glob(Path base, String pattern) {
        if (!Files.isDirectory(base)) return List.of();
        PathMatcher m = pattern == null ? null : FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        try (Stream<Path> s = Files.walk(base)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> !hidden(base.relativize(p)))
                    .filter(p -> m == null || m.matches(p))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + base, e);
        }
    }

    private static boolean hidden(Path relative) {
        for (Path seg : relative) {
            String s = seg.toString();
            if (s.startsWith(".") || s.startsWith("_")) return true;
        }
        return false;
    }

    /**
     * The one format of all the files: {@code given} when not null, else each file's by its
     * extension ({@link ImportFormat#of}).
     *
     * @throws FdlException usage error naming two files of different formats
     */
    public ImportFormat format(ImportFormat given) {
        ImportFormat first = ImportFormat.of(first(), given);
        for (Path f : files) {
            ImportFormat other = ImportFormat.of(f, given);
            if (other != first) {
                throw FdlException.usage("cannot import files of different formats in one import: " + first() + " is "
                        + first.name().toLowerCase(Locale.ROOT) + ", " + f + " is " + other.name().toLowerCase(Locale.ROOT)
                        + "; import each format with its own fdl import (--mode append adds to the table)");
            }
        }
        return first;
    }
}
