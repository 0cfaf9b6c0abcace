package dev.fdl.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * What the JVM of a benchmark runs with, against what fdl's launcher ({@code ./fdl}) gives the
 * commands being measured: the launcher runs checkout, commit and the other data commands with the
 * serial collector ({@code -XX:+UseSerialGC}), under which a catalog conversion costs about a fifth
 * less process CPU than under the JVM's default G1 (docs/catalog.md "Benchmark").
 */
final class LauncherJvm {
    private LauncherJvm() {}

    /** The names of this JVM's garbage collectors, e.g. {@code [Copy, MarkSweepCompact]} for the serial one. */
    static List<String> collectors() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList();
    }

    /**
     * Prints the collector in use on standard output and, unless it is the serial one the launcher
     * chooses, a warning on standard error saying how to run the benchmark as fdl runs.
     */
    static void reportCollector(String bench) {
        List<String> names = collectors();
        boolean serial = names.contains("Copy") || names.contains("MarkSweepCompact");
        System.out.println("collector: " + String.join(", ", names) + (serial ? " (serial, as ./fdl runs the data commands)" : ""));
        if (!serial) {
            System.err.println("warning: " + bench + " runs without -XX:+UseSerialGC, which ./fdl gives the commands it measures:"
                    + " ratios will be higher than fdl's (run java -XX:+UseSerialGC …, or MAVEN_OPTS=-XX:+UseSerialGC for exec:java)");
        }
    }
}
