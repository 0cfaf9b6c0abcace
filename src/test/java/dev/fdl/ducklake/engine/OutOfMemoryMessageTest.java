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
}
