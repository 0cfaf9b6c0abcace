package dev.fdl;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No static mutable state in src/main: a run's services (the DuckDB pool, the catalog cache, the
 * clock, the working folder) and options are passed in (docs/ARCHITECTURE.md, "Conventions"), so
 * two runs in one JVM (the tests, a server) never see each other's. Read from the sources with
 * comments and strings left out: a static field that is not final, or a static final one holding
 * a mutable collection, a {@code ThreadLocal} or an {@code AtomicX}, fails here naming its file
 * and line, unless {@link #JVM_WIDE} lists it with the reason it must be JVM-wide.
 */
class NoStaticStateTest {
    /** {@code static} without {@code final} on a field (a method, class or initializer has no {@code name =} or {@code name;}). */
    static final Pattern NOT_FINAL = Pattern.compile("(?m)^[ \\t]*(?:@\\w+\\s+)*(?:(?:public|protected|private|volatile|transient)\\s+)*static\\s+"
            + "(?:(?:volatile|transient)\\s+)*(?!final\\b|class\\b|interface\\b|enum\\b|record\\b|void\\b|abstract\\b|synchronized\\b|native\\b|<)"
            + "[\\w.$<>\\[\\]?, ]+?\\s+\\w+\\s*(?:=(?!=)|;)");
    /** {@code static final} holding what can change: a mutable collection, a thread-local, an atomic. */
    static final Pattern MUTABLE_FINAL = Pattern.compile("\\bstatic\\s+final\\s+(?:[\\w.]+\\.)?(?:Inheritable)?(?:ThreadLocal|Atomic\\w+)\\b"
            + "|\\bstatic\\s+final\\s+[^=;(){}]+=\\s*(?:new\\s+(?:[\\w.]+\\.)?(?:\\w*(?:Map|List|Set|Deque|Queue)|(?:Inheritable)?ThreadLocal|Atomic\\w+)\\b"
            + "|(?:[\\w.]+\\.)?ThreadLocal\\.withInitial|(?:[\\w.]+\\.)?ConcurrentHashMap\\.newKeySet)");

    /** File to why its static state must be JVM-wide (or which helper removes it); one entry per site. */
    private static final Map<String, String> JVM_WIDE = Map.of(
            "serve/RepoServer.java",
            "lastDate: a memo of a pure function (the last instant formatted as an HTTP date), an immutable record swapped whole:"
                    + " any value it holds is right for every server in the JVM",
            "ducklake/format/DuckLakeSchema.java",
            "BY_FORMAT: DuckLake's catalog tables per format version, filled once by the class initializer and only read after",
            "ducklake/engine/RunScope.java",
            "the running command's pool for the static utilities OneHomePerRuleTest.theDuckDbPoolIsPassedInNotReachedStatically lists;"
                    + " goes when they take the pool as a parameter (two sites: the pool and the refusal flag)");

    @Test
    void noStaticFieldChangesOutsideTheListedJvmWideOnes() throws IOException {
        List<String> sites = new java.util.ArrayList<>(SourceSites.sites(NOT_FINAL, SourceSites.NOT_CODE));
        sites.addAll(SourceSites.sites(MUTABLE_FINAL, SourceSites.NOT_CODE));
        assertThat(sites).as("static mutable state in src/main: pass it in (CommandContext, a constructor, a request) instead")
                .allMatch(s -> JVM_WIDE.containsKey(SourceSites.file(s)));
        assertThat(sites.stream().map(SourceSites::file).distinct().toList())
                .as("files listed in JVM_WIDE without static state any more: remove them from the list")
                .containsExactlyInAnyOrderElementsOf(JVM_WIDE.keySet());
    }

    @Test
    void thePatternsSeeFieldsNotMethodsConstantsOrComments() {
        String source = """
                class X {
                    private static volatile boolean on = true;
                    static int count;
                    // static int notCode;
                    private static final int LIMIT = 3;
                    static final java.util.List<String> NAMES = java.util.List.of("a");
                    static String name(int x) { return null; }
                    static <T> T pick(T a) { return a; }
                    private static final ThreadLocal<String> DIR = new ThreadLocal<>();
                    private static final java.util.Map<String, String> SEEN = new java.util.concurrent.ConcurrentHashMap<>();
                    static final Set<String> KEYS = ConcurrentHashMap.newKeySet();
                    static {
                        count = 1;
                    }
                }
                """;
        assertThat(SourceSites.lines(source, NOT_FINAL, SourceSites.NOT_CODE)).containsExactly(2, 3);
        assertThat(SourceSites.lines(source, MUTABLE_FINAL, SourceSites.NOT_CODE)).containsExactly(9, 10, 11);
    }
}
