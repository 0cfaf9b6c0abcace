package dev.fdl.ducklake.engine;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** DuckDB's out-of-memory error reaches the user as fdl's advice (raise --memory, by what DuckDB asked), not as DuckDB's SET advice. */
class OutOfMemoryMessageTest {
    @Test
    void aRealOutOfMemoryErrorNamesMemoryAndWhatDuckDbAskedFor() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("SET memory_limit = '8MB'");
            st.execute("SET threads = 1");
            try {
                // one list of 20 million integers: a single value, which cannot spill
                st.executeQuery("SELECT length(list(range)) FROM range(20000000)").close();
                fail("DuckDB did not run out of memory");
            } catch (SQLException e) {
                String raw = e.getMessage();
                assertThat(raw).contains("Out of Memory").contains("SET");
                Matcher asked = Pattern.compile("failed to allocate data of size ([^ ]+ [^ ]+) ").matcher(raw);
                String message = DuckDbErrors.duckError(e);
                assertThat(message).contains("--memory").doesNotContain("SET threads").doesNotContain("memory_limit");
                if (asked.find()) assertThat(message).contains("asked for " + asked.group(1));
            }
        }
    }

    @Test
    void otherErrorsAreNotTakenForOutOfMemory() {
        assertThat(DuckDbErrors.outOfMemory("Conversion Error: Could not convert string 'x' to INT32")).isNull();
    }

    @Test
    void thePhaseAndAMemoryThatHoldsWhatDuckDbAskedForAreSaid() {
        String duck = "Out of Memory Error: failed to allocate data of size 32.0 MiB (60.8 MiB/61.0 MiB used)\n\nPossible solutions: SET threads=1";
        String message = DuckDbErrors.outOfMemory(duck, "writing delete files");
        // 61.0 MiB of budget and 32.0 MiB more is 93 MiB, rounded up to 16 MiB: 96 MiB
        assertThat(message).contains("while writing delete files (it asked for 32.0 MiB more with 60.8 MiB of its 61.0 MiB in use)")
                .contains("--memory 96MiB or more").doesNotContain("SET");
        assertThat(DuckDbErrors.outOfMemory("Out of Memory Error: could not allocate block of size 256.0 KiB (15.9 MiB/16.0 MiB used)", null))
                .contains("ran out of the memory budget (it asked").contains("--memory 32MiB or more");
    }
}
