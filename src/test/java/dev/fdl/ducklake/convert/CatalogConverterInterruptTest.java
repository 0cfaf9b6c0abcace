package dev.fdl.ducklake.convert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fdl.FdlException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import dev.fdl.ducklake.CatalogCompare;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.SqliteFiles;

/**
 * An interrupted conversion stops its threads and leaves nothing behind. Isolated: it looks for
 * conversion threads still alive, which a conversion of another test running meanwhile would have.
 */
@Isolated
class CatalogConverterInterruptTest {
    @TempDir
    Path dir;

    /** A SQLite catalog with one more table, {@code table(i BIGINT, s VARCHAR)}, of {@code rows} rows. */
    private Path sqliteCatalogWithRows(String table, int rows) throws Exception {
        return SqliteFiles.catalog(dir.resolve("w.sqlite"), "CREATE TABLE " + table + "(i BIGINT, s VARCHAR)",
                "INSERT INTO " + table + " WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + rows + ")"
                        + " SELECT i, 'row ' || i FROM n");
    }

    /** Threads still running whose name starts with {@code prefix}. */
    private static List<Thread> live(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix) && t.isAlive()).toList();
    }

    /** Converts on this thread, interrupting it once the table before {@code ducklake_zz} is copied. */
    private static Throwable convertInterruptedBeforeLastTable(Path source, Path target, CatalogKind kind) {
        ProgressListener interrupter = (table, rows, done, total) -> {
            if (done == total - 1) {
                Thread.currentThread().interrupt();
            }
        };
        try {
            CatalogConverter.convert(source, target, kind, interrupter);
            return null;
        } catch (Throwable t) {
            return t;
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void anInterruptedSqliteToDuckDbConversionStopsItsThreadsAndLeavesNothingBehind() throws Exception {
        Path sqlite = sqliteCatalogWithRows("ducklake_zz", 600_000);
        Path target = dir.resolve("c.duckdb");
        Files.writeString(target, "previous");

        Throwable failure = convertInterruptedBeforeLastTable(sqlite, target, CatalogKind.DUCKDB);

        assertThat(live("fdl-sqlite-reader")).isEmpty();
        assertThat(CatalogCompare.fileNames(dir)).containsExactlyInAnyOrder("c.duckdb", "w.sqlite");
        assertThat(failure).isInstanceOf(FdlException.class).hasMessageContaining("interrupted");
        assertThat(Files.readString(target)).isEqualTo("previous");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void anInterruptedDuckDbToSqliteConversionStopsItsReaderBeforeClosingDuckDb() throws Exception {
        Path sqlite = sqliteCatalogWithRows("ducklake_zz", 600_000);
        Path duck = dir.resolve("c.duckdb");
        CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        Path target = dir.resolve("back.sqlite");

        Throwable failure = convertInterruptedBeforeLastTable(duck, target, CatalogKind.SQLITE);

        assertThat(failure).isInstanceOf(FdlException.class).hasMessageContaining("interrupted");
        assertThat(live("fdl-duckdb-reader")).isEmpty();
        assertThat(CatalogCompare.fileNames(dir)).containsExactlyInAnyOrder("c.duckdb", "w.sqlite");
    }

}
