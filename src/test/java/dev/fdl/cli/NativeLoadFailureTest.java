package dev.fdl.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/** A native library that cannot be loaded is one line in fdl's words, not a stack trace. */
class NativeLoadFailureTest {
    @Test
    void duckDbsLibraryThatCannotBeUnpackedNamesTheFolderAndWhatToDo() {
        IOException full = new IOException("No space left on device");
        full.setStackTrace(new StackTraceElement[] {new StackTraceElement("org.duckdb.DuckDBNative", "unpackAndLoad", null, -1)});
        String m = NativeLoadFailure.message(new ExceptionInInitializerError(new IllegalStateException(full)));
        assertThat(m).startsWith("cannot load DuckDB's native library (java.io.IOException: No space left on device)")
                .contains(System.getProperty("java.io.tmpdir"), "FDL_JAVA_OPTS=-Djava.io.tmpdir=<folder>")
                .doesNotContain("\n");
        // every later use of the driver in the same process
        assertThat(NativeLoadFailure.message(new NoClassDefFoundError("Could not initialize class org.duckdb.DuckDBNative")))
                .startsWith("cannot load DuckDB's native library (Could not initialize class org.duckdb.DuckDBNative)");
    }

    @Test
    void anotherLinkageErrorIsAnInternalError() {
        assertThat(NativeLoadFailure.message(new NoSuchMethodError("dev.fdl.Something.x()")))
                .isEqualTo("internal error: java.lang.NoSuchMethodError: dev.fdl.Something.x() (set FDL_DEBUG=1 to see where it happened)");
    }
}
