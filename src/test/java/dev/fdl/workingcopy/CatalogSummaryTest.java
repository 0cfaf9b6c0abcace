package dev.fdl.workingcopy;

import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.working.EmptySnapshot;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The working catalog's summary answers status while the catalog is unchanged, and never after it
 * changed: what it says is what reading the catalog says (its newest snapshot and format).
 */
class CatalogSummaryTest {
    @TempDir Path dir;
    WorkingCopy wc;

    @BeforeEach
    void aWorkingCopy() {
        wc = WorkingCopy.create(dir.resolve("wc"));
        Path catalog = wc.dir().resolve(WorkingCopy.DIR).resolve("catalog.sqlite");
        EmptyCatalog.create(catalog, CatalogKind.SQLITE, dir.resolve("data").toUri().toString());
        wc.save(new WorkingCopy.State(dir.resolve("repo").toString(), "id", "main", null, null, 0, "catalog.sqlite", Map.of()));
    }

    /** What reading the catalog itself says. */
    private CatalogSummary.Facts readDirectly() {
        try (CatalogInspector c = CatalogInspector.open(wc.catalog())) {
            return new CatalogSummary.Facts(c.lastSnapshotId(), c.formatVersion());
        }
    }

    private Path summary() {
        return wc.dir().resolve(WorkingCopy.DIR).resolve(CatalogSummary.FILE);
    }

    /**
     * Waits (without sleeping a fixed time) until the file system's clock has passed the catalog's
     * last modification, as it has for any catalog a user changed before running status.
     */
    private void fileClockPassesTheCatalog() throws IOException {
        long changed = Math.max(Files.getLastModifiedTime(wc.catalog()).to(TimeUnit.NANOSECONDS),
                ((FileTime) Files.getAttribute(wc.catalog(), "unix:ctime")).to(TimeUnit.NANOSECONDS));
        Path probe = dir.resolve("probe");
        do {
            Files.deleteIfExists(probe);
            Files.createFile(probe);
        } while (Files.getLastModifiedTime(probe).to(TimeUnit.NANOSECONDS) <= changed);
    }

    @Test
    void anUnchangedCatalogIsAnsweredByItsSummaryAndAChangedOneIsReadAgain() throws IOException {
        fileClockPassesTheCatalog();
        CatalogSummary.Facts first = CatalogSummary.of(wc);
        assertThat(first).isEqualTo(readDirectly());
        assertThat(summary()).exists();

        // the summary is what answers while the fingerprint holds: a summary edited by hand is believed
        String recorded = Files.readString(summary());
        Files.writeString(summary(), recorded.replace("last_snapshot " + first.lastSnapshot(), "last_snapshot 41"));
        assertThat(CatalogSummary.of(wc).lastSnapshot()).isEqualTo(41);

        long added = EmptySnapshot.add(wc.catalog(), "a <a@example.com>", "more");
        assertThat(added).isGreaterThan(first.lastSnapshot());
        assertThat(CatalogSummary.of(wc)).isEqualTo(readDirectly()).extracting(CatalogSummary.Facts::lastSnapshot).isEqualTo(added);
        assertThat(dir.resolve("wc").resolve(WorkingCopy.DIR)).isDirectoryNotContaining("glob:**.tmp-*");
    }

    @Test
    void aCatalogChangedNoEarlierThanTheReadIsNotRemembered() throws IOException {
        // a change within the file system's last clock tick could be followed by another with the same times
        Files.setLastModifiedTime(wc.catalog(), FileTime.from(Instant.now().plusSeconds(3600)));
        assertThat(CatalogSummary.of(wc)).isEqualTo(readDirectly());
        assertThat(summary()).doesNotExist();
        assertThat(dir.resolve("wc").resolve(WorkingCopy.DIR)).isDirectoryNotContaining("glob:**.tmp-*");
    }

    @Test
    void aSummaryOfAnotherCatalogOrOfAnotherFingerprintIsNotBelieved() throws IOException {
        fileClockPassesTheCatalog();
        CatalogSummary.of(wc);
        String recorded = Files.readString(summary());
        Files.writeString(summary(), recorded.replace("catalog catalog.sqlite", "catalog catalog-other.sqlite")
                .replaceAll("last_snapshot \\d+", "last_snapshot 41"));
        assertThat(CatalogSummary.of(wc)).isEqualTo(readDirectly());
        Files.writeString(summary(), recorded.replaceAll("fingerprint \\d+", "fingerprint 1")
                .replaceAll("last_snapshot \\d+", "last_snapshot 41"));
        assertThat(CatalogSummary.of(wc)).isEqualTo(readDirectly());
        Files.writeString(summary(), "garbage");
        assertThat(CatalogSummary.of(wc)).isEqualTo(readDirectly());
    }

    @Test
    void aRollbackJournalBesideTheCatalogMeansAWriteInProgress() throws IOException {
        fileClockPassesTheCatalog();
        CatalogSummary.of(wc);
        String recorded = Files.readString(summary());
        Files.writeString(summary(), recorded.replaceAll("last_snapshot \\d+", "last_snapshot 41"));
        Path journal = wc.catalog().resolveSibling("catalog.sqlite-journal");
        Files.createFile(journal);
        try {
            assertThat(CatalogSummary.of(wc).lastSnapshot()).isNotEqualTo(41);
        } finally {
            Files.delete(journal); // an empty journal: SQLite ignores it
        }
    }
}
