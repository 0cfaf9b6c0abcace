package dev.fdl.iceberg;

import dev.fdl.cli.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/iceberg.md end to end: versions described as Iceberg tables read by Iceberg's Java reader as fdl query reads them. */
class IcebergCliTest {
    @TempDir Path dir;

    static Path month(Path dir, String date) throws Exception {
        Path p = dir.resolve("world-cities-" + date + ".csv.gz");
        try (InputStream in = IcebergCliTest.class.getResourceAsStream("/demo/world-cities/world-cities-" + date + ".csv.gz")) {
            Files.copy(in, p, StandardCopyOption.REPLACE_EXISTING);
        }
        return p;
    }

    static Path metadata(Path root, String versionId, String schema, String table) {
        return root.resolve(IcebergMetadataWriter.metadataKey(versionId, schema, table));
    }

    static String head(Path wc) {
        return Cli.ok(wc, "show", "--json").out();
    }

    @Test
    void aCommittedImportReadsTheSameThroughIceberg() throws Exception {
        Path wc = Cli.newWorkingCopy(dir);
        String repo = dir.resolve("repo").toString();
        Cli.ok(wc, "import", month(dir, "2024-10-04").toString(), "--table", "cities");
        Cli.ok(wc, "commit", "-m", "first");
        Cli.Result r = Cli.ok(wc, "iceberg");
        System.out.println(r.out());
        String id = r.out().split(" ")[1];
        IcebergRows.assertSame(metadata(dir.resolve("repo"), id, "main", "cities"), wc, repo, "main", "cities");
    }
}
