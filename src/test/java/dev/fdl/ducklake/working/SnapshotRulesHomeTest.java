package dev.fdl.ducklake.working;

import dev.fdl.SourceSites;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules of writing a snapshot have one home each: read from src/main with comments
 * left out (strings kept: the rules are SQL), a new bypass fails here, naming the file and line.
 */
class SnapshotRulesHomeTest {

    @Test
    void rowsEndOnlyThroughNewSnapshot() throws IOException {
        // UPDATE … SET end_snapshot (or an inlined table's end column, built as "SET " + end)
        assertThat(sites(Pattern.compile("(?i)\\bSET\\s+(?:\\w*end_snapshot\\b|\"\\s*\\+\\s*\\w*end)")))
                .as("rows ended outside working.NewSnapshot.endRows")
                .allMatch(s -> s.startsWith("ducklake/working/NewSnapshot.java:"));
    }

    @Test
    void snapshotRowsAreInsertedOnlyBySnapshotWriter() throws IOException {
        // EmptyCatalog writes snapshot 0 of a new catalog file, which no snapshot precedes
        Set<String> own = Set.of("ducklake/working/SnapshotWriter.java", "ducklake/catalog/EmptyCatalog.java");
        assertThat(sites(Pattern.compile("(?i)INSERT\\s+INTO\\s+(?:\\w+\\.)*ducklake_snapshot(?:_changes)?\\b")))
                .as("ducklake_snapshot or ducklake_snapshot_changes rows inserted outside working.SnapshotWriter")
                .isNotEmpty()
                .allMatch(s -> own.contains(file(s)));
    }

    @Test
    void theBusyTimeoutIsSetWhereSqliteConnectionsAreOpened() throws IOException {
        assertThat(sites(Pattern.compile("(?i)busy_timeout")))
                .as("busy_timeout set outside engine.Sql.sqlite")
                .isNotEmpty()
                .allMatch(s -> file(s).equals("ducklake/engine/Sql.java"));
    }

    @Test
    void transactionsBeginAndEndInSqlAlone() throws IOException {
        // CatalogConverter holds a read transaction on its source across a conversion (to see one
        // state on two connections) and copies in one DuckDB transaction; it writes no snapshot
        Set<String> own = Set.of("ducklake/engine/Sql.java", "ducklake/convert/CatalogConverter.java");
        assertThat(sites(Pattern.compile("setAutoCommit\\s*\\(\\s*false\\s*\\)|\"\\s*(?:BEGIN|COMMIT|ROLLBACK)\\b")))
                .as("transactions begun or ended outside engine.Sql.inTransaction/inWriteTransaction")
                .allMatch(s -> own.contains(file(s)));
    }

    @Test
    void theSiteFinderSeesCodeAndStringsNotComments() {
        String source = """
                class X {
                    // UPDATE t SET end_snapshot = ?
                    /* busy_timeout */
                    String s = "UPDATE t SET end_snapshot = ?";
                    String t = "UPDATE " + q + " SET " + end + " = ?";
                    boolean r = location.contains("://"); // a comment after a string holding //
                }
                """;
        assertThat(lines(source, Pattern.compile("(?i)\\bSET\\s+(?:\\w*end_snapshot\\b|\"\\s*\\+\\s*\\w*end)"))).containsExactly(4, 5);
        assertThat(lines(source, Pattern.compile("busy_timeout"))).isEmpty();
        assertThat(lines(source, Pattern.compile("contains\\(\"://\"\\)"))).containsExactly(6);
        assertThat(lines(source, Pattern.compile("a comment after"))).isEmpty();
    }

    private static String file(String site) {
        return SourceSites.file(site);
    }

    /** {@code path:line} of every match of {@code code} in src/main, comments left out (strings searched). */
    private static List<String> sites(Pattern code) throws IOException {
        return SourceSites.sites(code, SourceSites.COMMENTS);
    }

    private static List<Integer> lines(String source, Pattern code) {
        return SourceSites.lines(source, code, SourceSites.COMMENTS);
    }
}
