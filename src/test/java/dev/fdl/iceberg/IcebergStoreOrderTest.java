package dev.fdl.iceberg;

import dev.fdl.ducklake.FixtureCopies;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.repo.RefName;
import dev.fdl.repo.Repository;
import dev.fdl.store.ForwardingStore;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table's Iceberg metadata JSON is stored after every other file of the table (docs/iceberg.md:
 * a table whose {@code v1.metadata.json} exists is complete), though the other files are stored
 * in parallel.
 */
class IcebergStoreOrderTest {
    @TempDir Path tmp;

    @Test
    void eachTablesMetadataJsonIsStoredAfterEveryFileItNames() throws Exception {
        FixtureCopies.Copy towns = FixtureCopies.townsWithSnapshot16(tmp);
        List<String> puts = Collections.synchronizedList(new ArrayList<>());
        ObjectStore store = new ForwardingStore(Stores.open(towns.dir().toString())) {
            @Override
            protected void before(String op, String key) {
                if (op.equals("put")) puts.add(key);
            }
        };
        Repository repo = Repository.init(store, new RefName("main"));
        puts.clear();
        List<IcebergMetadataWriter.TableWritten> written = new IcebergMetadataWriter(DuckDbPool.shared(), repo).write(
                IcebergDeletesAndInlinedRowsTest.VERSION, towns.catalog(),
                new IcebergMetadataWriter.Target(store, "", towns.dir().toUri().toString()), Files.createDirectories(tmp.resolve("scratch")));

        assertThat(written).hasSize(2);
        for (IcebergMetadataWriter.TableWritten t : written) {
            String folder = t.metadataKey().substring(0, t.metadataKey().indexOf("/metadata/") + 1);
            List<String> ofTable = puts.stream().filter(k -> k.startsWith(folder)).toList();
            // the manifest list, a manifest, the version hint and the metadata JSON at least; main.towns also its delete and inlined rows' files
            assertThat(ofTable).hasSizeGreaterThanOrEqualTo(4).containsAll(t.digests().keySet());
            assertThat(ofTable.get(ofTable.size() - 1)).as("last file of " + t.table() + " stored").isEqualTo(t.metadataKey());
            assertThat(ofTable).containsOnlyOnce(t.metadataKey());
        }
    }
}
