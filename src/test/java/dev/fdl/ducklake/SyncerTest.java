package dev.fdl.ducklake;

import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.fdl.ducklake.WorkingCatalogFixture.checksum;
import static org.assertj.core.api.Assertions.assertThat;

/** import --mode sync: the table ends up holding exactly the file's rows, and only the difference is written. */
class SyncerTest {
    @TempDir
    Path tmp;

    private static String source(Path file) {
        return "SELECT * FROM read_csv(" + SqlQuote.literal(file.toAbsolutePath().toString()) + ", header = true)";
    }

    @Test
    void syncOfEveryShippedMonthOntoThePreviousReadsAsThatMonthAtEverySnapshot() {
        List<Path> months = WorkingCatalogFixture.months();
        for (String[] keys : List.of(new String[]{"geonameid"}, new String[]{})) {
            WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("k" + keys.length));
            List<Long> snapshots = new ArrayList<>();
            for (Path month : months) {
                SyncResult r = wc.sync(month, "cities", keys);
                assertThat(r.snapshot()).isNotNull();
                snapshots.add(r.snapshot());
                System.out.println(r);
            }
            for (int i = 0; i < months.size(); i++) {
                try (CatalogReader reader = wc.read(snapshots.get(i))) {
                    assertThat(checksum(reader.connection(), "SELECT * FROM cities")).as("month " + i)
                            .isEqualTo(checksum(reader.connection(), source(months.get(i))));
                }
            }
        }
    }
}
