package dev.fdl.ducklake.merge;

import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.working.EmptySnapshot;
import dev.fdl.ducklake.working.TableDrop;
import dev.fdl.ducklake.working.WorkingCatalog;
import dev.fdl.store.LocalStore;
import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded, reproducible random three-way merges (the seed is the test's name: re-run one with
 * {@code -Dfdl.merge.seed=N}; {@code -Dfdl.merge.cases=N} runs more). Each case builds a base with
 * a keyed table (recorded key, {@code import --mode sync --key}) and an unkeyed one (duplicates
 * allowed), then edits two copies at random through fdl's own writers: inserts, updates and
 * deletes on disjoint keys (and, now and then, one key changed on both sides: a conflict), columns
 * added or dropped on one side, tables created (sometimes on both sides under one name) and
 * dropped. The merge's result, read through the built-in reader, must equal what plain SQL
 * computes over whole rows of base, ours and theirs: per table, ours when theirs left it as the
 * base, theirs when ours did, else {@code (ours UNION ALL theirs) EXCEPT ALL base}; and the
 * expected conflicts must be reported with nothing written.
 */
class RandomThreeWayMergeTest {
    @TempDir Path tmp;

    private static final int CASES = Integer.getInteger("fdl.merge.cases", 60);

    @TestFactory
    Stream<DynamicTest> randomMergesEqualSetAlgebraOverWholeRows() {
        Integer only = Integer.getInteger("fdl.merge.seed");
        IntStream seeds = only != null ? IntStream.of(only) : IntStream.range(0, CASES);
        return seeds.mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> new Case(tmp.resolve("s" + seed), seed).run()));
    }

    /** One random case. */
    static final class Case {
        final Path dir;
        final Random rnd;
        final LocalStore store;
        final Path base, ours, theirs;
        /** per table: its content on each side as CSV text (null: absent), and whether it is keyed */
        final Map<String, String[]> content = new TreeMap<>();
        boolean conflictExpected;
        int files;

        Case(Path dir, long seed) throws IOException {
            this.dir = dir;
            this.rnd = new Random(seed);
            Files.createDirectories(dir.resolve("repo"));
            store = new LocalStore(dir.resolve("repo"));
            base = dir.resolve("base.sqlite");
            ours = dir.resolve("ours.sqlite");
            theirs = dir.resolve("theirs.sqlite");
        }

        void run() throws Exception {
            dev.fdl.ducklake.catalog.EmptyCatalog.create(base, CatalogKind.SQLITE, store.location("data/"));
            Map<Integer, String> keyed = new TreeMap<>();
            int n = 4 + rnd.nextInt(8);
            for (int k = 1; k <= n; k++) keyed.put(k, k + "," + rnd.nextInt(5) + "," + word());
            sync(base, "kt", keyedCsv(keyed), List.of("k"));
            List<String> bag = new ArrayList<>();
            for (int i = 0; i < 3 + rnd.nextInt(6); i++) bag.add(rnd.nextInt(3) + "," + rnd.nextInt(3));
            sync(base, "bag", "x,y\n" + String.join("\n", bag) + "\n", null);
            Files.copy(base, ours);
            Files.copy(base, theirs);

            // keyed table: disjoint keys per side, sometimes one shared key (a conflict unless the same change)
            List<Integer> keys = new ArrayList<>(keyed.keySet());
            java.util.Collections.shuffle(keys, rnd);
            int split = keys.size() / 2;
            int mode = rnd.nextInt(10);
            if (mode < 2) { // columns change on one side only: the table is taken from that side
                Path side = rnd.nextBoolean() ? ours : theirs;
                Map<Integer, String> edited = editRows(keyed, keys, 0, keys.size(), 1000);
                if (rnd.nextBoolean()) sync(side, "kt", addColumn(edited), null);
                else sync(side, "kt", dropColumn(edited), null);
            } else if (mode < 3) { // dropped on one side; changed on the other sometimes (a conflict)
                boolean oursDrops = rnd.nextBoolean();
                drop(oursDrops ? ours : theirs, "kt");
                if (rnd.nextBoolean()) {
                    sync(oursDrops ? theirs : ours, "kt", keyedCsv(editRows(keyed, keys, 0, keys.size(), 1000)), null);
                    conflictExpected = true;
                }
            } else {
                Map<Integer, String> o = editRows(keyed, keys, 0, split, 1000);
                Map<Integer, String> t = editRows(keyed, keys, split, keys.size(), 2000);
                if (mode == 3 && split > 0) { // the same key changed on both sides
                    int k = keys.get(0);
                    boolean same = rnd.nextBoolean();
                    o.put(k, k + ",77,same");
                    t.put(k, k + "," + (same ? "77,same" : "88,other"));
                    if (!same) conflictExpected = true;
                }
                if (!o.equals(keyed)) sync(ours, "kt", keyedCsv(o), null);
                if (!t.equals(keyed)) sync(theirs, "kt", keyedCsv(t), null);
            }

            // unkeyed table: multiset edits on each side, never a conflict
            for (Path side : List.of(ours, theirs)) {
                if (rnd.nextInt(3) == 0) continue;
                List<String> b = new ArrayList<>(bag);
                if (!b.isEmpty() && rnd.nextBoolean()) b.remove(rnd.nextInt(b.size()));
                for (int i = rnd.nextInt(3); i > 0; i--) b.add(rnd.nextInt(3) + "," + rnd.nextInt(3));
                if (b.isEmpty()) b.add("9,9");
                if (!b.equals(bag)) sync(side, "bag", "x,y\n" + String.join("\n", b) + "\n", null);
            }

            // new tables
            if (rnd.nextInt(3) == 0) sync(ours, "new_o", "a,b\n1,2\n3,4\n", null);
            if (rnd.nextInt(3) == 0) sync(theirs, "new_t", "a\n5\n", null);
            if (rnd.nextInt(6) == 0) {
                boolean equal = rnd.nextBoolean();
                sync(ours, "both", "a\n1\n", null);
                sync(theirs, "both", equal ? "a\n1\n" : "a\n2\n", null);
                if (!equal) conflictExpected = true;
            }
            // keep both sides moving, as two branches do
            EmptySnapshot.add(ours, "tester", "ours");
            EmptySnapshot.add(theirs, "tester", "theirs");
            check();
        }

        private void check() throws Exception {
            Path out = dir.resolve("merged.sqlite");
            MergeResult r = new ThreeWayMerge(DuckDbPool.shared()).merge(new MergeRequest(ours,
                    new MergeRequest.Side(theirs, newest(theirs)), new MergeRequest.Side(base, newest(base)), MergeOptions.NONE, out,
                    new MergeRequest.Writer(store, "data/", dir.resolve("tmp"), null, "tester", "merge")));
            long filesAfter = dataFiles();
            if (conflictExpected) {
                assertThat(r.conflicts()).as("conflicts").isNotEmpty();
                assertThat(out).as("nothing written").doesNotExist();
                return;
            }
            assertThat(r.conflicts()).as("conflicts").isEmpty();
            assertThat(r.snapshot()).isEqualTo(newest(ours) + 1);
            try (Connection duck = DuckDbPool.shared().connection()) {
                Map<String, Path> b = dump(base, "b", duck), o = dump(ours, "o", duck), t = dump(theirs, "t", duck), m = dump(out, "m", duck);
                java.util.Set<String> names = new java.util.TreeSet<>(b.keySet());
                names.addAll(o.keySet());
                names.addAll(t.keySet());
                Map<String, String> expected = new TreeMap<>();
                for (String name : names) {
                    String rel = expected(duck, name.endsWith("kt"), b.get(name), o.get(name), t.get(name));
                    if (rel != null) expected.put(name, checksum(duck, rel));
                }
                Map<String, String> actual = new TreeMap<>();
                for (Map.Entry<String, Path> e : m.entrySet()) actual.put(e.getKey(), checksum(duck, read(e.getValue())));
                assertThat(actual).as("merged tables and their rows").isEqualTo(expected);
            }
            assertThat(filesAfter).isGreaterThanOrEqualTo(files);
        }

        /**
         * Plain SQL over whole rows: ours where theirs is the base's, theirs where ours is; a table
         * created on both sides (equal, or the case expects a conflict) is ours; else, keyed (rows
         * are a set), {@code (B ∩ O ∩ T) ∪ (O − B) ∪ (T − B)}, and unkeyed (a multiset), {@code (O ⊎ T) − B}.
         */
        private String expected(Connection duck, boolean keyed, Path b, Path o, Path t) throws SQLException {
            if (sameRows(duck, b, t)) return o == null ? null : read(o);
            if (sameRows(duck, b, o)) return t == null ? null : read(t);
            if (b == null) return read(o);
            if (keyed)
                return "(" + read(b) + " INTERSECT " + read(o) + " INTERSECT " + read(t) + ") UNION (" + read(o) + " EXCEPT " + read(b)
                        + ") UNION (" + read(t) + " EXCEPT " + read(b) + ")";
            return "(" + read(o) + " UNION ALL " + read(t) + ") EXCEPT ALL " + read(b);
        }

        private boolean sameRows(Connection duck, Path a, Path b) throws SQLException {
            if (a == null || b == null) return a == b;
            return checksum(duck, read(a)).equals(checksum(duck, read(b)));
        }

        private static String read(Path p) {
            return "SELECT * FROM read_parquet(" + SqlQuote.literal(p.toString()) + ")";
        }

        private static String checksum(Connection duck, String relation) throws SQLException {
            try (Statement st = duck.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*), md5(coalesce(string_agg(CAST(x AS VARCHAR), chr(10) ORDER BY CAST(x AS VARCHAR)), '')) FROM ("
                         + relation + ") AS x")) {
                rs.next();
                return rs.getLong(1) + ":" + rs.getString(2);
            }
        }

        /** Every table of {@code catalog} at its newest snapshot, as the built-in reader reads it, dumped to Parquet. */
        private Map<String, Path> dump(Path catalog, String tag, Connection unused) {
            Path duck = dir.resolve(tag + ".duckdb");
            CatalogConverter.convert(catalog, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
            Map<String, Path> out = new LinkedHashMap<>();
            try (BuiltInReader reader = BuiltInReader.open(DuckDbPool.shared(), duck, null, null);
                 Statement st = reader.connection().createStatement()) {
                for (String table : reader.tables()) {
                    Path file = dir.resolve(tag + "-" + table + ".parquet");
                    st.execute("COPY (SELECT * FROM " + table + ") TO " + SqlQuote.literal(file.toString()) + " (FORMAT parquet)");
                    out.put(table, file);
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return out;
        }

        private Map<Integer, String> editRows(Map<Integer, String> rows, List<Integer> keys, int from, int to, int fresh) {
            Map<Integer, String> out = new TreeMap<>(rows);
            for (int i = from; i < to; i++) {
                int k = keys.get(i);
                switch (rnd.nextInt(4)) {
                    case 0 -> out.remove(k);
                    case 1 -> out.put(k, k + "," + (10 + rnd.nextInt(5)) + "," + word());
                    default -> { }
                }
            }
            for (int i = rnd.nextInt(3); i > 0; i--) {
                int k = fresh + i;
                out.put(k, k + "," + rnd.nextInt(5) + "," + word());
            }
            if (out.isEmpty()) out.put(fresh + 50, (fresh + 50) + ",1,kept");
            return out;
        }

        private String word() {
            return List.of("ant", "bee", "cat", "dog").get(rnd.nextInt(4));
        }

        private static String keyedCsv(Map<Integer, String> rows) {
            return "k,a,b\n" + String.join("\n", rows.values()) + "\n";
        }

        private String addColumn(Map<Integer, String> rows) {
            StringBuilder sb = new StringBuilder("k,a,b,c\n");
            for (String r : rows.values()) sb.append(r).append(',').append(rnd.nextInt(9)).append('\n');
            return sb.toString();
        }

        private static String dropColumn(Map<Integer, String> rows) {
            StringBuilder sb = new StringBuilder("k,b\n");
            for (String r : rows.values()) {
                String[] f = r.split(",");
                sb.append(f[0]).append(',').append(f[2]).append('\n');
            }
            return sb.toString();
        }

        private void sync(Path catalog, String table, String csv, List<String> key) throws IOException {
            Path file = dir.resolve("src-" + (files++) + ".csv");
            Files.writeString(file, csv);
            new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(catalog, store, "data/", file, table, ImportMode.SYNC)
                    .withKeys(key).withAuthor("tester").withMessage("sync " + table));
        }

        private void drop(Path catalog, String table) {
            TableDrop.drop(catalog, List.of(table), "tester", "drop " + table);
        }

        private long dataFiles() throws IOException {
            try (Stream<Path> s = Files.walk(dir.resolve("repo"))) {
                return s.filter(Files::isRegularFile).count();
            }
        }

        static long newest(Path catalog) throws SQLException {
            try (WorkingCatalog c = WorkingCatalog.open(catalog)) {
                return c.newestSnapshot().id();
            }
        }
    }
}
