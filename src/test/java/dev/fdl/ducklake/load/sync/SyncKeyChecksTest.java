package dev.fdl.ducklake.load.sync;

import dev.fdl.FdlException;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.read.BuiltInReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The key checks of {@code import --mode sync --key}, made in the same pass as the difference: each
 * way a file's key can repeat (among the keys the table holds, among new keys) is refused on its
 * own, naming the first repeated key in file order as SQL's {@code GROUP BY key HAVING count(*) > 1}
 * finds it, with nothing written; a table holding a key twice pairs only its first copy.
 */
class SyncKeyChecksTest {
    @TempDir
    Path tmp;

    @Test
    void aKeyRepeatedOnlyAmongTheTablesKeysIsRefusedThoughEveryCopyEqualsTheTablesRow() throws IOException {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("wc"));
        wc.sync(csv("a.csv", "id,name\n1,a\n2,b\n"), "t", "id");
        String before = wc.dump();
        long files = files(wc);
        assertThat(error(() -> wc.sync(csv("same.csv", "id,name\n1,a\n2,b\n2,b\n"), "t", "id")))
                .contains("same.csv").contains("key id = 2 (data row 2) appears more than once").contains("Nothing was imported");
        assertThat(wc.dump()).isEqualTo(before);
        assertThat(files(wc)).isEqualTo(files);
    }

    @Test
    void aKeyRepeatedOnlyAmongNewKeysIsRefused() throws IOException {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("wc"));
        wc.sync(csv("a.csv", "id,name\n1,a\n2,b\n"), "t", "id");
        String before = wc.dump();
        assertThat(error(() -> wc.sync(csv("new.csv", "id,name\n1,a\n2,b\n5,x\n5,y\n"), "t", "id")))
                .contains("key id = 5 (data row 3) appears more than once");
        assertThat(wc.dump()).isEqualTo(before);
    }

    @Test
    void aTableHoldingAKeyTwicePairsItsFirstCopyAndDeletesTheOther() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("wc"));
        wc.importFile(csv("a.csv", "id,name\n1,a\n2,b\n"), "t", ImportMode.CREATE);
        wc.importFile(csv("more.csv", "id,name\n1,z\n"), "t", ImportMode.APPEND); // no key recorded: id 1 twice
        SyncResult r = wc.sync(csv("b.csv", "id,name\n1,a\n2,b\n3,c\n"), "t", "id");
        // by the rule stated in docs/data.md: the first copy (1,a) pairs and is equal, the other (1,z) goes, 3 is new
        assertThat(List.of(r.added(), r.removed(), r.changed())).containsExactly(1L, 1L, 0L);
        try (BuiltInReader reader = wc.read(null)) {
            assertThat(reader.query("SELECT id, name FROM t ORDER BY id").rows())
                    .containsExactly(List.of(1L, "a"), List.of(2L, "b"), List.of(3L, "c"));
        }
    }

    private Path csv(String name, String text) {
        try {
            return Files.writeString(tmp.resolve(name), text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String error(Runnable r) {
        return assertThatThrownBy(r::run).isInstanceOf(FdlException.class).actual().getMessage();
    }

    private static long files(WorkingCatalogFixture wc) throws IOException {
        try (Stream<Path> s = Files.walk(wc.dir.resolve("repo"))) {
            return s.filter(Files::isRegularFile).count();
        }
    }
}
