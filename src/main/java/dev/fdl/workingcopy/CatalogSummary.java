package dev.fdl.workingcopy;

import dev.fdl.ducklake.catalog.CatalogInspector;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What {@code fdl status} needs of the working catalog (its newest snapshot id and DuckLake
 * format), remembered in {@code .fdl/catalog-summary} with a fingerprint of the catalog file and
 * its SQLite journals (size, modification and change times, file id), as git's index remembers a
 * file's stat data: while the fingerprint is the same, the summary answers without opening the
 * catalog (SQLite's driver is a good part of a short command's start).
 *
 * <p>A summary is recorded only when it cannot be stale (git's "racy clean" rule): the catalog
 * and its journals must not change while it is read, no rollback journal may exist (a write in
 * progress), and their modification and change times must be older than a file this process
 * created before reading, on the same file system and clock. A change made after that read then
 * gets a later time, so its fingerprint differs, however coarse the file system's timestamps.
 * A missing, unreadable or foreign summary is read past; failing to record one costs only the
 * next run's read.
 */
public final class CatalogSummary {
    /** The summary's file name inside {@code .fdl/}. */
    static final String FILE = "catalog-summary";
    private static final String HEADER = "fdl working catalog summary 1";
    /** SQLite's companions of a database file whose contents are part of the database. */
    private static final List<String> JOURNALS = List.of("-wal", "-journal");

    /**
     * The working catalog's newest snapshot and DuckLake format.
     *
     * @param lastSnapshot the newest snapshot id
     * @param format       {@code ducklake_metadata}'s {@code version}, e.g. {@code 0.3}
     */
    public record Facts(long lastSnapshot, String format) {}

    private CatalogSummary() {}

    /**
     * The working catalog's facts: from the recorded summary while the catalog's fingerprint is
     * unchanged, otherwise read from the catalog (and recorded when that is safe).
     *
     * @throws dev.fdl.FdlException (exit 1) when the catalog has to be read and cannot be
     */
    public static Facts of(WorkingCopy wc) {
        Path catalog = wc.catalog();
        Path summary = wc.dir().resolve(WorkingCopy.DIR).resolve(FILE);
        String name = catalog.getFileName().toString();
        String before = fingerprint(catalog);
        Facts recorded = before == null ? null : recorded(summary, name, before);
        if (recorded != null) return recorded;
        Path marker = before == null ? null : createMarker(summary);
        try {
            Facts read = read(catalog);
            if (marker != null) record(marker, summary, catalog, name, before, read);
            return read;
        } finally {
            if (marker != null) deleteQuietly(marker);
        }
    }

    private static Facts read(Path catalog) {
        try (CatalogInspector c = CatalogInspector.open(catalog)) {
            return new Facts(c.lastSnapshotId(), c.formatVersion());
        }
    }

    /** The facts {@code summary} records for catalog {@code name} at fingerprint {@code now}, or null. */
    private static Facts recorded(Path summary, String name, String now) {
        List<String> lines;
        try {
            lines = Files.readAllLines(summary, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (lines.size() != 5 || !lines.get(0).equals(HEADER) || !lines.get(1).equals("catalog " + name)
                || !lines.get(2).equals("fingerprint " + now) || !lines.get(3).startsWith("last_snapshot ")
                || !lines.get(4).startsWith("format ")) return null;
        try {
            return new Facts(Long.parseLong(lines.get(3).substring("last_snapshot ".length())), lines.get(4).substring("format ".length()));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** An empty file beside the summary, made now: its modification time is the file system's "now". Null when it cannot be made. */
    private static Path createMarker(Path summary) {
        Path marker = summary.resolveSibling("." + FILE + ".tmp-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        try {
            return Files.createFile(marker);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Writes {@code facts} into {@code marker} and moves it over {@code summary} when the catalog read is safe to remember. */
    private static void record(Path marker, Path summary, Path catalog, String name, String before, Facts facts) {
        try {
            long made = nanos(Files.getLastModifiedTime(marker));
            if (!before.equals(fingerprint(catalog)) || !olderThan(catalog, made)) return;
            Files.writeString(marker, String.join("\n", HEADER, "catalog " + name, "fingerprint " + before,
                    "last_snapshot " + facts.lastSnapshot(), "format " + facts.format()) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.TRUNCATE_EXISTING);
            dev.fdl.util.AtomicFile.moveCopy(marker, summary);
        } catch (IOException | RuntimeException e) {
            // not remembered: the next status reads the catalog again
        }
    }

    /** True when the catalog and its journals were last modified and changed before {@code made} (nanoseconds since the epoch). */
    private static boolean olderThan(Path catalog, long made) throws IOException {
        for (Path f : files(catalog)) {
            Map<String, Object> a = attributes(f);
            if (a == null) continue;
            if (nanos((FileTime) a.get("lastModifiedTime")) >= made) return false;
            if (a.get("ctime") instanceof FileTime ctime && nanos(ctime) >= made) return false;
        }
        return true;
    }

    /**
     * The catalog's and its journals' stat data in one line, or null when the catalog is missing
     * or a rollback journal exists (a write in progress, or one a crash left for SQLite to roll back).
     */
    static String fingerprint(Path catalog) {
        StringBuilder sb = new StringBuilder();
        try {
            for (Path f : files(catalog)) {
                Map<String, Object> a = attributes(f);
                if (a == null && f == catalog) return null;
                if (a != null && f.getFileName().toString().endsWith("-journal")) return null;
                if (!sb.isEmpty()) sb.append(' ');
                sb.append(a == null ? "-" : a.get("size") + ":" + nanos((FileTime) a.get("lastModifiedTime"))
                        + ":" + (a.get("ctime") instanceof FileTime c ? nanos(c) : "") + ":" + (a.containsKey("ino") ? a.get("dev") + "/" + a.get("ino") : a.get("fileKey")));
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return sb.toString();
    }

    private static List<Path> files(Path catalog) {
        String n = catalog.getFileName().toString();
        return List.of(catalog, catalog.resolveSibling(n + JOURNALS.get(0)), catalog.resolveSibling(n + JOURNALS.get(1)));
    }

    /** {@code f}'s size, times and file id (with its change time where the platform has one), or null when it does not exist. */
    private static Map<String, Object> attributes(Path f) throws IOException {
        try {
            try {
                return Files.readAttributes(f, "unix:size,lastModifiedTime,ctime,ino,dev", LinkOption.NOFOLLOW_LINKS);
            } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
                BasicFileAttributes b = Files.readAttributes(f, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                return Map.of("size", b.size(), "lastModifiedTime", b.lastModifiedTime(), "fileKey", String.valueOf(b.fileKey()));
            }
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private static long nanos(FileTime t) {
        return t.to(TimeUnit.NANOSECONDS);
    }

    private static void deleteQuietly(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException e) {
            // a leftover marker is an empty file in .fdl/
        }
    }
}
