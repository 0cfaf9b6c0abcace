package dev.fdl.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Memory cgroups for a benchmark's measured processes: each process gets a fresh cgroup limited to
 * {@code limit} bytes, under {@code base} (made here, removed by {@link #close()}). cgroup v2 when
 * {@code /sys/fs/cgroup} is a v2 hierarchy with the memory controller ({@code memory.max},
 * {@code memory.peak}, {@code memory.events}' {@code oom_kill}), else v1's memory hierarchy
 * ({@code memory.limit_in_bytes}, {@code memory.max_usage_in_bytes}, {@code memory.oom_control}'s
 * {@code oom_kill}). Source: Linux's cgroup-v2.rst and cgroup-v1/memory.rst.
 */
final class MemoryCgroups implements AutoCloseable {
    private final Path base;
    private final boolean v2;
    private final long limit;
    private int count;

    private MemoryCgroups(Path base, boolean v2, long limit) {
        this.base = base;
        this.v2 = v2;
        this.limit = limit;
    }

    /**
     * Makes the folder for the cgroups.
     *
     * @throws IllegalStateException when neither a v2 nor a v1 memory cgroup can be made here (not root,
     *                               no memory controller), saying what was tried
     */
    static MemoryCgroups create(long limit) {
        Path root = Path.of("/sys/fs/cgroup");
        String name = "fdl-bench-" + ProcessHandle.current().pid();
        try {
            if (Files.readString(root.resolve("cgroup.controllers")).contains("memory")) {
                Path base = Files.createDirectories(root.resolve(name));
                // children of base may use the memory controller
                Files.writeString(base.resolve("cgroup.subtree_control"), "+memory");
                return new MemoryCgroups(base, true, limit);
            }
        } catch (IOException | RuntimeException e) {
            // not v2 with memory: try v1
        }
        try {
            Path v1 = root.resolve("memory");
            if (Files.isRegularFile(v1.resolve("memory.limit_in_bytes"))) {
                return new MemoryCgroups(Files.createDirectories(v1.resolve(name)), false, limit);
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("--cgroup: cannot make a memory cgroup under " + root.resolve("memory")
                    + " (" + e + "); run as root on a machine whose cgroup v1 memory hierarchy or v2 /sys/fs/cgroup is writable", e);
        }
        throw new IllegalStateException("--cgroup: neither cgroup v2 (" + root.resolve("cgroup.controllers") + " with 'memory') nor v1 ("
                + root.resolve("memory/memory.limit_in_bytes") + ") is available here; run without --cgroup, or where one is writable");
    }

    /** The limit as the user reads it: {@code 2.00 GB (cgroup v1)}. */
    String describe() {
        return String.format(Locale.ROOT, "%.2f GB (cgroup %s)", limit / 1e9, v2 ? "v2" : "v1");
    }

    /** A fresh cgroup for one process, its limit set. */
    Group next() throws IOException {
        Path dir = Files.createDirectories(base.resolve("p" + count++));
        Files.writeString(dir.resolve(v2 ? "memory.max" : "memory.limit_in_bytes"), Long.toString(limit));
        if (v2) {
            Path swap = dir.resolve("memory.swap.max");
            if (Files.exists(swap)) Files.writeString(swap, "0");
        } else {
            Path swap = dir.resolve("memory.memsw.limit_in_bytes");
            if (Files.exists(swap)) Files.writeString(swap, Long.toString(limit));
        }
        return new Group(dir);
    }

    /** One process's cgroup. */
    final class Group {
        private final Path dir;

        private Group(Path dir) {
            this.dir = dir;
        }

        /** The words before a command that move the shell into this cgroup and then become the command. */
        List<String> wrap() {
            return List.of("sh", "-c", "echo $$ > '" + dir.resolve("cgroup.procs") + "' && exec \"$@\"", "sh");
        }

        /** The cgroup's peak charge in bytes (its processes' memory plus page cache), -1 when the kernel does not say. */
        long peak() {
            return read(dir.resolve(v2 ? "memory.peak" : "memory.max_usage_in_bytes"));
        }

        /** How many processes the OOM killer ended in this cgroup. */
        long oomKills() throws IOException {
            for (String line : Files.readAllLines(dir.resolve(v2 ? "memory.events" : "memory.oom_control"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length == 2 && f[0].equals("oom_kill")) return Long.parseLong(f[1]);
            }
            return 0;
        }

        /** Removes the (now empty) cgroup. */
        void remove() {
            try {
                Files.deleteIfExists(dir);
            } catch (IOException e) {
                // a cgroup still charged for page cache may refuse: close() tries again
            }
        }
    }

    private static long read(Path file) {
        try {
            return Long.parseLong(Files.readString(file).trim());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** Removes every cgroup made here. */
    @Override
    public void close() {
        try (var s = Files.list(base)) {
            s.filter(Files::isDirectory).forEach(d -> {
                try {
                    Files.deleteIfExists(d);
                } catch (IOException ignored) {
                    // left for the operator: rmdir it
                }
            });
            Files.deleteIfExists(base);
        } catch (IOException e) {
            System.err.println("could not remove " + base + ": " + e.getMessage());
        }
    }
}
