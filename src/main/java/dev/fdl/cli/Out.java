package dev.fdl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fdl.util.Json;

import java.io.Console;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Printing helpers shared by commands: JSON for scripts, progress only on a terminal. */
final class Out {
    private Out() {}

    /** Prints {@code node} as pretty JSON on {@code out}. */
    static void json(PrintWriter out, JsonNode node) {
        out.print(new String(Json.bytes(node), StandardCharsets.UTF_8));
        out.flush();
    }

    /** True when stderr is probably a terminal and progress may be shown. */
    static boolean interactive(boolean quiet) {
        Console c = System.console();
        return !quiet && c != null && System.getenv("CI") == null;
    }

    /** {@code 1.2 MB} (decimal units; {@code 999 B} below a kilobyte): sizes for people. */
    static String size(long b) {
        if (b < 1000) return b + " B";
        String[] units = {"kB", "MB", "GB", "TB", "PB"};
        double v = b;
        int u = -1;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return String.format("%.1f %s", v, units[u]);
    }
}
