package dev.fdl.ducklake.read;

import dev.fdl.ducklake.engine.DuckDbPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.WorkingCatalogFixture;
import dev.fdl.ducklake.convert.CatalogConverter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** CatalogDiff over catalogs of one lineage: what it reports, and that files both sides share unchanged are never opened. */
class CatalogDiffTest {
    @TempDir
    Path tmp;

    private Path csv(String name, String content) {
        try {
            return Files.writeString(tmp.resolve(name), content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The working catalog as a DuckDB file: one side of a diff. */
    private CatalogDiff.DiffSide side(WorkingCatalogFixture wc, String label) {
        Path duck = tmp.resolve(label + ".duckdb");
        CatalogConverter.convert(wc.catalog, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        return new CatalogDiff.DiffSide(label, duck, null);
    }

    /** Everything the diff reports, one line per event. */
    private static final class Lines implements CatalogDiff.Sink {
        final List<String> lines = new ArrayList<>();

        @Override
        public void table(String table, String change) {
            lines.add("table " + change + " " + table);
        }

        @Override
        public void column(String table, String change, String detail) {
            lines.add("column " + change + " " + detail);
        }

        @Override
        public void row(String table, char sign, List<String> values, String json) {
            lines.add(sign + " " + json);
        }

        @Override
        public void changed(String table, List<String> key, String keyJson, List<CatalogDiff.ValueChange> changes, List<String> values) {
            lines.add("~ " + keyJson + " " + changes.stream().map(c -> c.column() + " " + c.oldJson() + "->" + c.newJson()).toList());
        }

        @Override
        public void stat(CatalogDiff.TableStat s) {
            lines.add("stat " + s.table() + " +" + s.added() + " -" + s.removed() + " ~" + s.changed());
        }
    }

    @Test
    void reportsRowsAndSchemaChangesAndNeverOpensFilesBothSidesShareWithTheSameDeletes() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("wc"));
        wc.sync(csv("v1.csv", "id,name,pop\n1,a,10\n2,b,20\n3,c,30\n"), "t", "id");
        // row 3 is deleted from the first data file: it gets a delete file
        wc.sync(csv("v2.csv", "id,name,pop\n1,a,10\n2,b,20\n4,d,40\n5,e,50\n6,f,60\n"), "t", "id");
        wc.sync(csv("u.csv", "x\n1\n"), "u");
        CatalogDiff.DiffSide a = side(wc, "a");
        // only rows of the second file change; the first file keeps its delete file; u is dropped, w added; pop renamed
        wc.sync(csv("v3.csv", "id,name,Pop\n1,a,10\n2,b,20\n4,d,41\n6,f,60\n7,g,70\n"), "t", "id");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + wc.catalog)) {
            c.createStatement().execute("UPDATE ducklake_table SET end_snapshot = 5 WHERE table_name = 'u'");
        }
        wc.sync(csv("w.csv", "y\nhello\n"), "w");
        CatalogDiff.DiffSide b = side(wc, "b");
        // the first data file of t is shared with the same delete file: take it away, the diff must not need it
        Path first;
        try (var s = Files.list(wc.dir.resolve("repo/data/main/t"))) {
            first = s.sorted().findFirst().orElseThrow();
        }
        Files.move(first, tmp.resolve("away.parquet"));

        Lines keyed = new Lines();
        CatalogDiff.Summary s = new CatalogDiff(DuckDbPool.shared()).run(new CatalogDiff.Request(a, b, null, List.of("id"), true), keyed);
        assertThat(keyed.lines).containsExactly(
                "column renamed pop -> Pop",
                "- {\"id\":5,\"name\":\"e\",\"Pop\":50}",
                "+ {\"id\":7,\"name\":\"g\",\"Pop\":70}",
                "~ {\"id\":4} [Pop 40->41]",
                "stat main.t +1 -1 ~1",
                "table dropped main.u",
                "- {\"x\":1}",
                "stat main.u +0 -1 ~0",
                "table added main.w",
                "+ {\"y\":\"hello\"}",
                "stat main.w +1 -0 ~0");
        assertThat(s).isEqualTo(new CatalogDiff.Summary(1, 1, 1, 2, 2, 1));

        Lines whole = new Lines();
        new CatalogDiff(DuckDbPool.shared()).run(new CatalogDiff.Request(a, b, "t", List.of(), false), whole);
        assertThat(whole.lines).containsExactly("column renamed pop -> Pop", "stat main.t +2 -2 ~0");
        // and the diff of a side with itself reads nothing at all
        Lines same = new Lines();
        assertThat(new CatalogDiff(DuckDbPool.shared()).run(new CatalogDiff.Request(b, b, null, List.of(), true), same)).isEqualTo(new CatalogDiff.Summary(0, 0, 0, 0, 0, 0));

        // a key no compared table has is refused naming the columns there are, not used to compare whole rows
        assertThatThrownBy(() -> new CatalogDiff(DuckDbPool.shared()).run(new CatalogDiff.Request(a, b, null, List.of("nosuch"), false), new Lines()))
                .isInstanceOfSatisfying(dev.fdl.FdlException.class, e -> assertThat(e.kind()).isEqualTo(dev.fdl.FdlException.Kind.USAGE))
                .hasMessageContaining("nosuch").hasMessageContaining("main.t: id, name, Pop");
    }

    @Test
    void aKeyHeldByTwoRowsOrNullIsRefusedNamingTableSideAndValueInsteadOfCountingAJoin() throws Exception {
        WorkingCatalogFixture wc = new WorkingCatalogFixture(tmp.resolve("wc"));
        wc.sync(csv("v1.csv", "id,k,name\n1,x,a\n2,x,b\n3,y,c\n"), "t");
        CatalogDiff.DiffSide a = side(wc, "a");
        wc.sync(csv("v2.csv", "id,k,name\n1,x,A\n2,x,B\n3,y,C\n"), "t");
        CatalogDiff.DiffSide b = side(wc, "b");
        wc.sync(csv("v3.csv", "id,k,name\n1,x,A\n2,z,B\n3,,D\n"), "t");
        CatalogDiff.DiffSide c = side(wc, "c");

        // k = 'x' pairs 2 rows with 2: the join would count 4 changed rows where there are 2
        assertThatThrownBy(() -> new CatalogDiff(DuckDbPool.shared()).run(new CatalogDiff.Request(a, b, null, List.of("k"), false), new Lines()))
                .isInstanceOf(dev.fdl.FdlException.class)
                .hasMessageContaining("the key k is not unique in table main.t in a: x is held by 2 rows")
                .hasMessageContaining("--no-key");
        assertThatThrownBy(() -> new CatalogDiff(DuckDbPool.shared()).run(new CatalogDiff.Request(b, c, null, List.of("k"), false), new Lines()))
                .isInstanceOf(dev.fdl.FdlException.class)
                .hasMessageContaining("the key k is");
        assertThatThrownBy(() -> new CatalogDiff(DuckDbPool.shared()).run(new CatalogDiff.Request(c, b, null, List.of("k", "name"), false), new Lines()))
                .isInstanceOf(dev.fdl.FdlException.class)
                .hasMessageContaining("the key k, name is NULL in 1 row(s) of table main.t in c");
        // a unique key and whole rows still compare
        assertThat(new CatalogDiff(DuckDbPool.shared()).run(new CatalogDiff.Request(a, b, null, List.of("id"), false), new Lines())).isEqualTo(new CatalogDiff.Summary(0, 0, 1, 0, 0, 3));
        assertThat(new CatalogDiff(DuckDbPool.shared()).run(new CatalogDiff.Request(a, b, null, List.of(), false), new Lines())).isEqualTo(new CatalogDiff.Summary(0, 0, 1, 3, 3, 0));
    }
}
