package dev.fdl.ducklake.engine;

import dev.fdl.FdlException;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The memory a data command may use, as DuckDB settings: {@code memory_limit} = {@code bytes},
 * {@code threads} = one per {@link #BYTES_PER_THREAD} of it (at least 1, at most the processors),
 * and {@code temp_directory} = {@code spill}, where DuckDB writes what does not fit (joins,
 * aggregates, sorts and temporary tables all spill there). Fewer threads under a small budget are
 * what let a large join finish: each thread keeps its own partitions in memory, and DuckDB's
 * "Out of Memory… SET threads" failure is the sign of too many for the limit. The budget bounds
 * DuckDB's buffers; the JVM's heap and DuckDB's per-query overheads come on top (docs/data.md,
 * "Memory").
 *
 * @param bytes   DuckDB's memory limit, in bytes
 * @param threads DuckDB's worker threads
 * @param spill   the folder DuckDB spills to (made by DuckDB when first needed), or null for DuckDB's default
 */
public record MemoryBudget(long bytes, int threads, Path spill) {
    /** Memory per DuckDB thread: a hash join or aggregate partition per thread needs room to work before it spills. */
    public static final long BYTES_PER_THREAD = 256L << 20;
    /** Share of the machine's (or the cgroup's) memory a command takes when no budget is given: half. */
    public static final double DEFAULT_SHARE = 0.5;
    /** The smallest budget accepted: DuckDB cannot run a query in less. */
    public static final long MINIMUM = 16L << 20;

    private static final Pattern SIZE = Pattern.compile("(?i)\\s*(\\d+(?:\\.\\d+)?)\\s*(b|kb|mb|gb|tb|kib|mib|gib|tib)?\\s*");

    public MemoryBudget {
        if (bytes < MINIMUM) throw new IllegalArgumentException("memory budget below " + MINIMUM + " bytes: " + bytes);
        if (threads < 1) throw new IllegalArgumentException("threads < 1: " + threads);
    }

    /**
     * The budget of {@code bytes} with its thread count: one per {@link #BYTES_PER_THREAD}, within
     * 1 and the available processors.
     */
    public static MemoryBudget of(long bytes, Path spill) {
        long threads = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), bytes / BYTES_PER_THREAD));
        return new MemoryBudget(bytes, (int) threads, spill);
    }

    /**
     * The budget a run uses: {@code option} ({@code --memory}) when given, else {@code env}
     * ({@code FDL_MEMORY}) when set, else {@link #DEFAULT_SHARE} of {@link #available()}.
     *
     * @throws FdlException usage error naming the setting when a value is not a size {@link #parse} reads
     */
    public static MemoryBudget resolve(String option, String env, Path spill) {
        if (option != null) return of(parse(option, "--memory"), spill);
        if (env != null && !env.isBlank()) return of(parse(env, "FDL_MEMORY"), spill);
        return of(Math.max(MINIMUM, (long) (available() * DEFAULT_SHARE)), spill);
    }

    /**
     * A size as {@code 512MB}, {@code 2GB}, {@code 1.5GiB} or a number of bytes: KB, MB, GB, TB
     * are powers of 1000, KiB… of 1024 (as DuckDB reads {@code memory_limit}).
     *
     * @param setting where the text came from, for the message
     * @throws FdlException usage error naming {@code setting} and the value when it is no size or below {@link #MINIMUM}
     */
    public static long parse(String text, String setting) {
        long bytes = bytes(text);
        if (bytes < 0) {
            throw FdlException.usage(setting + " '" + text + "' is not a size; give one like 512MB, 2GB or 1.5GiB");
        }
        if (bytes < MINIMUM) {
            throw FdlException.usage(setting + " '" + text + "' is below the " + (MINIMUM >> 20) + "MiB DuckDB needs; give at least 16MiB");
        }
        return bytes;
    }

    /** The bytes of a size as {@link #parse} reads it (DuckDB's messages write {@code 32.0 MiB}: a space is allowed), or -1 for no size. */
    static long bytes(String text) {
        Matcher m = SIZE.matcher(text == null ? "" : text.replace(" ", ""));
        if (!m.matches()) return -1;
        String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(Locale.ROOT);
        double factor = switch (unit) {
            case "kb" -> 1e3;
            case "mb" -> 1e6;
            case "gb" -> 1e9;
            case "tb" -> 1e12;
            case "kib" -> 1024.0;
            case "mib" -> 1024.0 * 1024;
            case "gib" -> 1024.0 * 1024 * 1024;
            case "tib" -> 1024.0 * 1024 * 1024 * 1024;
            default -> 1;
        };
        return (long) (Double.parseDouble(m.group(1)) * factor);
    }

    /**
     * The memory this process may use: the smaller of the machine's physical memory and the
     * limits of the cgroups it is in ({@link #cgroupLimit(Path, String)} over {@code /proc/self/cgroup}).
     */
    public static long available() {
        long machine = Long.MAX_VALUE;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            machine = os.getTotalMemorySize();
        }
        String self;
        try {
            self = Files.readString(Path.of("/proc/self/cgroup"));
        } catch (IOException | SecurityException e) {
            self = "";
        }
        long limit = Math.min(machine, cgroupLimit(Path.of("/sys/fs/cgroup"), self));
        return limit == Long.MAX_VALUE ? 4L << 30 : limit;
    }

    /**
     * The smallest memory limit of the cgroups a process is in, or {@link Long#MAX_VALUE} for none:
     * its own cgroup and every one above it, v2 ({@code <root>/<path>/memory.max}, for the
     * {@code 0::<path>} line of {@code /proc/<pid>/cgroup}) and v1 ({@code
     * <root>/memory/<path>/memory.limit_in_bytes}, for the line whose controllers name
     * {@code memory}); a folder not mounted here (a container sees only its own) counts as no limit.
     * Source: Linux's cgroup-v1 memory.txt and cgroup-v2.rst, {@code /proc/<pid>/cgroup} format.
     *
     * @param root        where the cgroup file systems are mounted ({@code /sys/fs/cgroup})
     * @param procCgroup  the text of {@code /proc/<pid>/cgroup}
     */
    static long cgroupLimit(Path root, String procCgroup) {
        long limit = Math.min(cgroupLimit(root.resolve("memory.max")), cgroupLimit(root.resolve("memory/memory.limit_in_bytes")));
        for (String line : procCgroup.split("\n")) {
            String[] f = line.split(":", 3);
            if (f.length < 3 || !f[2].startsWith("/")) continue;
            boolean v2 = f[0].equals("0") && f[1].isEmpty();
            boolean v1 = java.util.Arrays.asList(f[1].split(",")).contains("memory");
            if (!v1 && !v2) continue;
            Path base = v2 ? root : root.resolve("memory");
            String file = v2 ? "memory.max" : "memory.limit_in_bytes";
            for (Path dir = base.resolve(f[2].substring(1)); dir != null && dir.startsWith(base); dir = dir.getParent()) {
                limit = Math.min(limit, cgroupLimit(dir.resolve(file)));
            }
        }
        return limit;
    }

    /** The limit a cgroup file states, or {@link Long#MAX_VALUE} for none (no file, "max", unreadable). */
    static long cgroupLimit(Path file) {
        try {
            String text = Files.readString(file).trim();
            if (text.equals("max")) return Long.MAX_VALUE;
            long v = Long.parseLong(text);
            return v <= 0 || v >= (1L << 60) ? Long.MAX_VALUE : v; // v1 says "no limit" with a huge page-aligned number
        } catch (IOException | NumberFormatException | SecurityException e) {
            return Long.MAX_VALUE;
        }
    }

    /** The statements that apply this budget to a DuckDB connection (global settings of its instance). */
    public java.util.List<String> statements() {
        java.util.List<String> sql = new java.util.ArrayList<>();
        sql.add("SET memory_limit = '" + bytes + "B'");
        sql.add("SET threads = " + threads);
        if (spill != null) sql.add("SET temp_directory = " + dev.fdl.util.SqlQuote.literal(spill.toAbsolutePath().toString()));
        return sql;
    }

    /** As the user would write it: {@code 512.0MiB, 2 threads}. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.1fMiB, %d thread%s", bytes / 1048576.0, threads, threads == 1 ? "" : "s");
    }
}
