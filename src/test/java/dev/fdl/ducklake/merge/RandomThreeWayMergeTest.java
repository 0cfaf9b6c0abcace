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
import dev.fdl.ducklake.working.TableRename;
import dev.fdl.ducklake.working.WorkingCatalog;
import dev.fdl.store.LocalStore;
import dev.fdl.util.SqlQuote;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
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
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded, reproducible random three-way merges. Each case is one seed ({@code -Dfdl.merge.seed=N}
 * runs that one alone; {@code -Dfdl.merge.cases=N} runs seeds {@code 0..N-1}, 50 by default): a
 * keyed table (recorded key, {@code import --mode sync --key}) edited on disjoint keys (and, now and
 * then, one key changed on both sides: a conflict), columns added or dropped on one side, dropped on
 * one side; then either a keyless table whose sides overlap or a keyed table whose sides change
 * single cells, each sometimes renamed (the table, or a column by a full or a letter-case rename) on
 * one side; now and then tables created on one or both sides. Some cell and keyless tables not
 * renamed keep rows inlined, in the base or on a side: inlined rows and a data-file row deleted
 * inline, written by SQL as the DuckLake extension writes them (fdl's own writers never inline).
 * Tables whose columns are the same on all sides and that hold no inlined rows are merged from
 * their changes, the others whole ({@link DeltaMerge}); every default
 * run plans cases of every {@link Kind} ({@link #defaultSeedsReachEveryKind}).
 *
 * <p>Cases are independent, so to keep them cheap the tables of many cases (named
 * {@code c<seed>_...}) share one base, ours and theirs catalog and one merge: the engine merges
 * every table on its own, and the cost of a case is then that of its few table writes, not of
 * catalogs, conversions and merges of its own. Cases expected to conflict share a merge of their
 * own (a conflict writes nothing), which must report exactly their conflicting tables. In the
 * others' merge, read through the built-in reader, the keyed table of each case must equal what
 * plain SQL computes over whole rows of base, ours and theirs (ours when theirs left it as the
 * base, theirs when ours did, else {@code (B ∩ O ∩ T) ∪ (O − B) ∪ (T − B)}); the cell and keyless
 * tables must equal what the case computes in plain Java, cell by cell (a cell changed on one side
 * is taken from it) and per distinct row by the diff3 rule (docs/SPEC.md section 7).
 */
class RandomThreeWayMergeTest {
    @TempDir Path tmp;

    private static final int CASES = Integer.getInteger("fdl.merge.cases", 50);
    /** Cases per group of shared catalogs: bigger groups share more set-up, smaller ones run in parallel. */
    private static final int GROUP = 25;

    @TestFactory
    Stream<DynamicTest> randomMergesEqualSetAlgebraOverWholeRows() {
        Integer only = Integer.getInteger("fdl.merge.seed");
        List<Integer> seeds = only != null ? List.of(only) : IntStream.range(0, CASES).boxed().toList();
        // groups share nothing, so two run at once (the machine's two cores); each dynamic test waits for its own
        ExecutorService workers = Executors.newFixedThreadPool(2);
        List<DynamicTest> tests = new ArrayList<>();
        for (int from = 0; from < seeds.size(); from += GROUP) {
            List<Integer> group = seeds.subList(from, Math.min(seeds.size(), from + GROUP));
            String name = group.size() == 1 ? "seed " + group.get(0) : "seeds " + group.get(0) + ".." + group.get(group.size() - 1);
            Future<?> done = workers.submit(() -> {
                runGroup(tmp.resolve("g" + group.get(0)), group);
                return null;
            });
            tests.add(DynamicTest.dynamicTest(name, () -> {
                try {
                    done.get();
                } catch (ExecutionException e) {
                    throw e.getCause();
                }
            }));
        }
        workers.shutdown();
        return tests.stream();
    }

    /** The default seeds plan cases of every kind, so the default run reaches both merge paths and every rename. */
    @org.junit.jupiter.api.Test
    void defaultSeedsReachEveryKind() {
        Set<Kind> planned = java.util.EnumSet.noneOf(Kind.class);
        for (int seed = 0; seed < 50; seed++) planned.addAll(new Case(seed).kinds);
        assertThat(planned).containsExactlyInAnyOrder(Kind.values());
    }

    private static void runGroup(Path dir, List<Integer> seeds) throws Exception {
        List<Case> clean = new ArrayList<>(), conflicting = new ArrayList<>();
        for (int seed : seeds) {
            Case c = new Case(seed);
            (c.conflicts.isEmpty() ? clean : conflicting).add(c);
        }
        if (!clean.isEmpty()) new Trio(dir.resolve("clean"), clean).run();
        if (!conflicting.isEmpty()) new Trio(dir.resolve("conflicts"), conflicting).run();
    }

    /** Where an edit goes. */
    enum Where { BASE, OURS, THEIRS }

    /** What a case plans; tables with the same columns on every side merge from their changes, the others whole. */
    enum Kind {
        /** Keyed rows changed on disjoint keys, the same key sometimes changed on both sides. */
        KEYED_ROWS,
        /** A column added or dropped on one side (whole table). */
        KEYED_COLUMNS,
        /** Dropped on one side, sometimes changed on the other (a conflict). */
        KEYED_DROP,
        /** Single cells changed, the same key on both sides now and then (from the changes). */
        CELLS,
        /** Single cells, one side renames a column in letter case only (whole table). */
        CELLS_CASE_RENAME,
        /** Single cells, one side renames a column to another name (whole table). */
        CELLS_FULL_RENAME,
        /** Single cells, one side renames the table (from the changes). */
        CELLS_TABLE_RENAME,
        /** Keyless, overlapping sides (from the changes, or whole when both changed a count differently). */
        KEYLESS,
        /** Keyless, overlapping sides, one side renames a column in letter case only or fully (whole table). */
        KEYLESS_RENAME,
        /** Keyless, overlapping sides, one side renames the table. */
        KEYLESS_TABLE_RENAME,
        /** Tables created on one or both sides. */
        CREATED,
        /** A cell or keyless table whose base holds inlined rows and a data-file row deleted inline (whole table). */
        INLINED_BASE,
        /** A cell or keyless table to which a side adds inlined rows and deletes a data-file row inline (whole table). */
        INLINED_SIDE
    }

    /**
     * One table edit of a case: the table's rows become {@code csv} (import --mode sync; with
     * {@code key}, recorded); with a null {@code csv}, the table is renamed to {@code renameTo} and
     * its {@code columns} (old name to new) are renamed, or, with neither, it is dropped.
     */
    record Edit(Where where, String table, String csv, List<String> key, String renameTo, Map<String, String> columns, Inline inline) {
        Edit(Where where, String table, String csv, List<String> key) {
            this(where, table, csv, key, null, Map.of(), null);
        }

        Edit(Where where, String table, String csv, List<String> key, String renameTo, Map<String, String> columns) {
            this(where, table, csv, key, renameTo, columns, null);
        }

        boolean drops() {
            return csv == null && renameTo == null && columns.isEmpty() && inline == null;
        }
    }

    /**
     * Rows written into the catalog as DuckDB's DuckLake extension inlines them (DuckLake spec
     * "Data inlining": {@code ducklake_inlined_data_<table id>_<schema version>}, and
     * {@code ducklake_inlined_delete_<table id>} for a data file's row), in one snapshot: {@code add}
     * (CSV lines in column order) become inlined rows; the one visible data-file row equal to
     * {@code delete} (a CSV line), when not null, is deleted inline.
     */
    record Inline(List<String> add, String delete) {}

    /** One random case: its edits, in order, and the tables whose merge must conflict. */
    static final class Case {
        final String p;
        final Random rnd;
        /** Which writes keep rows inlined: apart from {@code rnd}, so a case plans the same rows either way. */
        final Random layout;
        final List<Edit> edits = new ArrayList<>();
        final Set<String> conflicts = new TreeSet<>();
        final Set<Kind> kinds = java.util.EnumSet.noneOf(Kind.class);
        /** Tables whose merge is computed here in plain Java: their merged columns, and rows as sorted CSV lines. */
        final Map<String, List<String>> columns = new TreeMap<>(), rows = new TreeMap<>();
        /** Names a side renamed tables from, as the built-in reader names them: no merged table has them. */
        final Set<String> renamedFrom = new TreeSet<>();

        Case(long seed) {
            this.p = "c" + seed + "_";
            this.rnd = new Random(seed);
            this.layout = new Random(~seed);
            keyed();
            if (rnd.nextBoolean()) overlapping();
            else cells();
            created();
        }

        private void sync(Where w, String table, String csv) {
            edits.add(new Edit(w, p + table, csv, null));
        }

        /** A keyed table: disjoint keys per side, sometimes one shared key (a conflict unless the same change). */
        private void keyed() {
            Map<Integer, String> keyed = new TreeMap<>();
            int n = 4 + rnd.nextInt(8);
            for (int k = 1; k <= n; k++) keyed.put(k, k + "," + rnd.nextInt(5) + "," + word());
            // key 0 is never edited: a merged keyed table is never empty (an empty merge result is refused)
            edits.add(new Edit(Where.BASE, p + "kt", keyedCsv(withKept(keyed)), List.of("k")));
            List<Integer> keys = new ArrayList<>(keyed.keySet());
            java.util.Collections.shuffle(keys, rnd);
            int split = keys.size() / 2;
            int mode = rnd.nextInt(10);
            if (mode < 2) { // columns change on one side only: the table is taken from that side
                kinds.add(Kind.KEYED_COLUMNS);
                Where side = rnd.nextBoolean() ? Where.OURS : Where.THEIRS;
                Map<Integer, String> edited = withKept(editRows(keyed, keys, 0, keys.size(), 1000));
                sync(side, "kt", rnd.nextBoolean() ? addColumn(edited) : dropColumn(edited));
            } else if (mode < 3) { // dropped on one side; changed on the other sometimes (a conflict)
                kinds.add(Kind.KEYED_DROP);
                boolean oursDrops = rnd.nextBoolean();
                edits.add(new Edit(oursDrops ? Where.OURS : Where.THEIRS, p + "kt", null, null));
                if (rnd.nextBoolean()) {
                    sync(oursDrops ? Where.THEIRS : Where.OURS, "kt", keyedCsv(withKept(editRows(keyed, keys, 0, keys.size(), 1000))));
                    conflicts.add(p + "kt");
                }
            } else {
                kinds.add(Kind.KEYED_ROWS);
                Map<Integer, String> o = editRows(keyed, keys, 0, split, 1000);
                Map<Integer, String> t = editRows(keyed, keys, split, keys.size(), 2000);
                if (mode == 3 && split > 0) { // the same key changed on both sides
                    int k = keys.get(0);
                    boolean same = rnd.nextBoolean();
                    o.put(k, k + ",77,same");
                    t.put(k, k + "," + (same ? "77,same" : "88,other"));
                    if (!same) conflicts.add(p + "kt");
                }
                if (!o.equals(keyed)) sync(Where.OURS, "kt", keyedCsv(withKept(o)));
                if (!t.equals(keyed)) sync(Where.THEIRS, "kt", keyedCsv(withKept(t)));
            }
        }

        /** New tables on one side, or on both under one name (equal, or a conflict). */
        private void created() {
            if (rnd.nextInt(4) == 0) sync(Where.OURS, "new_o", "a,b\n1,2\n3,4\n");
            if (rnd.nextInt(4) == 0) sync(Where.THEIRS, "new_t", "a\n5\n");
            if (rnd.nextInt(8) == 0) {
                boolean equal = rnd.nextBoolean();
                sync(Where.OURS, "both", "a\n1\n");
                sync(Where.THEIRS, "both", equal ? "a\n1\n" : "a\n2\n");
                if (!equal) conflicts.add(p + "both");
            }
            if (edits.stream().anyMatch(e -> e.table().endsWith("new_o") || e.table().endsWith("new_t") || e.table().endsWith("both")))
                kinds.add(Kind.CREATED);
        }

        /**
         * How one side renames a table of the case: nothing, the table, or column {@code column} by
         * letter case (by the file's header alone) or to another name ({@link dev.fdl.ducklake.working.TableRename}).
         */
        private record Rename(Where side, String table, String column, String to, boolean byHeader) {
            /** Whether neither {@code original} nor a column of it is renamed. */
            boolean plain(String original) {
                return table.equals(original) && column == null;
            }

            String header(Where w, String header) {
                if (w != side || column == null) return header;
                return String.join(",", java.util.Arrays.stream(header.split(",")).map(c -> c.equals(column) ? to : c).toList());
            }
        }

        /** A random rename of {@code table} (column {@code column}) on a random side; {@code kinds}: the kinds of a case, table and column renames. */
        private Rename rename(String table, String column, Kind plain, Kind tableRename, Kind columnRename, Kind caseRename) {
            Where side = rnd.nextBoolean() ? Where.OURS : Where.THEIRS;
            int r = rnd.nextInt(6);
            Rename out;
            if (r == 0) {
                out = new Rename(side, table + "_r", null, null, false);
                kinds.add(tableRename);
                renamedFrom.add("main." + p + table);
                edits.add(new Edit(side, p + table, null, null, p + out.table(), Map.of()));
            } else if (r == 1) {
                out = new Rename(side, table, column, column.toUpperCase(java.util.Locale.ROOT), true);
                kinds.add(caseRename);
            } else if (r == 2) {
                out = new Rename(side, table, column, column + "_new", false);
                kinds.add(columnRename);
                edits.add(new Edit(side, p + table, null, null, null, Map.of(column, out.to())));
            } else {
                out = new Rename(side, table, null, null, false);
                kinds.add(plain);
            }
            return out;
        }

        /**
         * A table without a key whose sides overlap: duplicates in the base, the same row removed
         * and the same row added on both sides, then each side's own edits; sometimes renamed on
         * one side. The expected rows follow the diff3 rule per distinct row (docs/SPEC.md section 7).
         */
        private void overlapping() {
            List<String> base = new ArrayList<>(List.of("5,5"));
            for (int i = 0; i < 3 + rnd.nextInt(4); i++) base.add(rnd.nextInt(3) + "," + rnd.nextInt(2));
            base.add(base.get(1)); // a duplicate
            List<String> shared = new ArrayList<>(base);
            if (rnd.nextBoolean()) shared.remove(1 + rnd.nextInt(shared.size() - 1));
            if (rnd.nextBoolean()) shared.add("7," + rnd.nextInt(2));
            List<String> o = own(shared), t = own(shared);
            Rename rn = rename("ov", rnd.nextBoolean() ? "x" : "y", Kind.KEYLESS, Kind.KEYLESS_TABLE_RENAME, Kind.KEYLESS_RENAME, Kind.KEYLESS_RENAME);
            boolean plain = rn.plain("ov");
            write(Where.BASE, "ov", "x,y", base, null, plain && layout.nextInt(3) == 0, "8,8");
            String table = rn.table();
            for (Where w : List.of(Where.OURS, Where.THEIRS)) {
                List<String> side = w == Where.OURS ? o : t;
                boolean header = rn.byHeader() && rn.side() == w;
                if (header || !counts(side).equals(counts(base)))
                    write(w, rn.side() == w ? table : "ov", rn.header(w, "x,y"), side, null, plain && layout.nextInt(3) == 0, "9,9");
            }
            Map<String, Integer> b = counts(base), oc = counts(o), tc = counts(t);
            List<String> merged = new ArrayList<>();
            Set<String> all = new TreeSet<>(b.keySet());
            all.addAll(oc.keySet());
            all.addAll(tc.keySet());
            for (String r : all) {
                int nb = b.getOrDefault(r, 0), no = oc.getOrDefault(r, 0), nt = tc.getOrDefault(r, 0);
                int n = no == nt ? no : no == nb ? nt : nt == nb ? no : Math.max(0, no + nt - nb);
                for (int i = 0; i < n; i++) merged.add(r);
            }
            expect(table, List.of(rn.header(rn.side(), "x,y").split(",")), merged);
        }

        /** {@code rows} with a random row removed (never the kept 5,5) and up to two added. */
        private List<String> own(List<String> rows) {
            List<String> out = new ArrayList<>(rows);
            if (out.size() > 1 && rnd.nextBoolean()) out.remove(1 + rnd.nextInt(out.size() - 1));
            for (int i = rnd.nextInt(3); i > 0; i--) out.add(rnd.nextInt(3) + "," + rnd.nextInt(2));
            return out;
        }

        private static Map<String, Integer> counts(List<String> rows) {
            Map<String, Integer> out = new TreeMap<>();
            rows.forEach(r -> out.merge(r, 1, Integer::sum));
            return out;
        }

        /**
         * A keyed table whose sides change single cells: ours column a of some keys, theirs column
         * b of some keys (the same key now and then: both cells merge), sometimes the same new
         * value of a on both; sometimes renamed on one side.
         */
        private void cells() {
            Map<Integer, int[]> base = new TreeMap<>(), o = new TreeMap<>(), t = new TreeMap<>();
            for (int k = 1; k <= 3 + rnd.nextInt(4); k++) base.put(k, new int[]{rnd.nextInt(5), rnd.nextInt(5)});
            base.forEach((k, v) -> {
                o.put(k, v.clone());
                t.put(k, v.clone());
            });
            for (int k : base.keySet()) {
                if (rnd.nextInt(3) == 0) o.get(k)[0] += 10;
                if (rnd.nextInt(3) == 0) t.get(k)[1] += 20;
                if (rnd.nextInt(8) == 0) {
                    o.get(k)[0] = 99;
                    t.get(k)[0] = 99;
                }
            }
            if (rnd.nextInt(3) == 0) o.put(100, new int[]{1, 1});
            Rename rn = rename("cell", rnd.nextBoolean() ? "a" : "b", Kind.CELLS, Kind.CELLS_TABLE_RENAME, Kind.CELLS_FULL_RENAME, Kind.CELLS_CASE_RENAME);
            boolean plain = rn.plain("cell");
            write(Where.BASE, "cell", "k,a,b", cellLines(base), List.of("k"), plain && layout.nextInt(3) == 0, "50,0,0");
            for (Where w : List.of(Where.OURS, Where.THEIRS)) {
                Map<Integer, int[]> side = w == Where.OURS ? o : t;
                boolean header = rn.byHeader() && rn.side() == w;
                if (header || !same(side, base))
                    write(w, rn.side() == w ? rn.table() : "cell", rn.header(w, "k,a,b"), cellLines(side), null, plain && layout.nextInt(3) == 0, "51,0,0");
            }
            List<String> merged = new ArrayList<>();
            Set<Integer> keys = new TreeSet<>(o.keySet());
            keys.addAll(t.keySet());
            for (int k : keys) {
                int[] bv = base.get(k), ov = o.get(k), tv = t.get(k);
                int[] m = bv == null ? (ov != null ? ov : tv) : new int[]{ov[0] != bv[0] ? ov[0] : tv[0], ov[1] != bv[1] ? ov[1] : tv[1]};
                merged.add(k + "," + m[0] + "," + m[1]);
            }
            expect(rn.table(), List.of(rn.header(rn.side(), "k,a,b").split(",")), merged);
        }

        private static boolean same(Map<Integer, int[]> a, Map<Integer, int[]> b) {
            if (!a.keySet().equals(b.keySet())) return false;
            for (int k : a.keySet()) if (!java.util.Arrays.equals(a.get(k), b.get(k))) return false;
            return true;
        }

        private static List<String> cellLines(Map<Integer, int[]> rows) {
            List<String> out = new ArrayList<>();
            rows.forEach((k, v) -> out.add(k + "," + v[0] + "," + v[1]));
            return out;
        }

        /**
         * {@code w}'s rows of {@code table} become {@code rows} (CSV lines under {@code header}; with
         * {@code key}, recorded): by one sync, or, {@code inline}, by a sync of all but the last
         * (up to two) rows plus {@code marker} (a row no side has), then one snapshot that adds those
         * last rows inlined and deletes the marker inline: the same rows, some of them inlined.
         */
        private void write(Where w, String table, String header, List<String> rows, List<String> key, boolean inline, String marker) {
            if (!inline) {
                edits.add(new Edit(w, p + table, header + "\n" + String.join("\n", rows) + "\n", key));
                return;
            }
            kinds.add(w == Where.BASE ? Kind.INLINED_BASE : Kind.INLINED_SIDE);
            int n = Math.min(2, rows.size() - 1);
            List<String> inFiles = new ArrayList<>(rows.subList(0, rows.size() - n));
            inFiles.add(marker);
            edits.add(new Edit(w, p + table, header + "\n" + String.join("\n", inFiles) + "\n", key));
            edits.add(new Edit(w, p + table, null, null, null, Map.of(), new Inline(List.copyOf(rows.subList(rows.size() - n, rows.size())), marker)));
        }

        private void expect(String table, List<String> cols, List<String> merged) {
            // as the built-in reader names the merged table
            columns.put("main." + p + table, cols);
            rows.put("main." + p + table, merged.stream().sorted().toList());
        }

        private static Map<Integer, String> withKept(Map<Integer, String> rows) {
            Map<Integer, String> out = new TreeMap<>(rows);
            out.put(0, "0,0,kept");
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
    }

    /** Base, ours and theirs catalogs holding the tables of {@code cases}, their one merge and its check. */
    static final class Trio {
        final Path dir;
        final List<Case> cases;
        final LocalStore store;
        final Path base, ours, theirs;
        int files;

        Trio(Path dir, List<Case> cases) throws IOException {
            this.dir = dir;
            this.cases = cases;
            Files.createDirectories(dir.resolve("repo"));
            store = new LocalStore(dir.resolve("repo"));
            base = dir.resolve("base.sqlite");
            ours = dir.resolve("ours.sqlite");
            theirs = dir.resolve("theirs.sqlite");
        }

        void run() throws Exception {
            dev.fdl.ducklake.catalog.EmptyCatalog.create(base, CatalogKind.SQLITE, store.location("data/"));
            apply(Where.BASE, base);
            Files.copy(base, ours);
            Files.copy(base, theirs);
            apply(Where.OURS, ours);
            apply(Where.THEIRS, theirs);
            // keep both sides moving, as two branches do
            EmptySnapshot.add(ours, "tester", "ours");
            EmptySnapshot.add(theirs, "tester", "theirs");
            check();
        }

        /** The cases' edits of {@code where}, case by case in order; drops of one side go in one snapshot. */
        private void apply(Where where, Path catalog) throws IOException, SQLException {
            List<String> drops = new ArrayList<>();
            for (Case c : cases) {
                for (Edit e : c.edits) {
                    if (e.where() != where) continue;
                    if (e.drops()) drops.add(e.table());
                    else if (e.inline() != null) inline(catalog, e.table(), e.inline());
                    else if (e.csv() == null) rename(catalog, e);
                    else sync(catalog, e.table(), e.csv(), e.key());
                }
            }
            if (!drops.isEmpty()) TableDrop.drop(catalog, drops, "tester", "drop " + String.join(", ", drops));
        }

        /**
         * Writes {@code inline} into {@code table} of {@code catalog} in a new snapshot, as the DuckLake
         * extension does (DuckLake spec "Data inlining"; the snapshot's schema version names the
         * inlined-data table, row ids continue {@code ducklake_table_stats.next_row_id}).
         */
        private void inline(Path catalog, String table, Inline inline) throws SQLException, IOException {
            try (Connection c = dev.fdl.ducklake.engine.Sql.sqlite(catalog, false); Statement st = c.createStatement()) {
                long id = single(st, "SELECT table_id FROM ducklake_table WHERE end_snapshot IS NULL AND table_name = " + SqlQuote.literal(table));
                long snapshot = single(st, "SELECT max(snapshot_id) FROM ducklake_snapshot");
                long schema = single(st, "SELECT schema_version FROM ducklake_snapshot WHERE snapshot_id = " + snapshot);
                long next = snapshot + 1;
                st.execute("INSERT INTO ducklake_snapshot SELECT " + next + ", snapshot_time, schema_version, next_catalog_id, next_file_id"
                        + " FROM ducklake_snapshot WHERE snapshot_id = " + snapshot);
                List<String> changes = new ArrayList<>();
                if (!inline.add().isEmpty()) {
                    List<String> columns = new ArrayList<>();
                    try (ResultSet rs = st.executeQuery("SELECT column_name, column_type FROM ducklake_column WHERE end_snapshot IS NULL"
                            + " AND parent_column IS NULL AND table_id = " + id + " ORDER BY column_order")) {
                        while (rs.next()) {
                            assertThat(rs.getString(2)).as("type of inlined column " + rs.getString(1)).isEqualTo("int64");
                            columns.add(SqlQuote.ident(rs.getString(1)) + " BIGINT");
                        }
                    }
                    String name = "ducklake_inlined_data_" + id + "_" + schema;
                    st.execute("CREATE TABLE IF NOT EXISTS " + name + " (row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, "
                            + String.join(", ", columns) + ")");
                    st.execute("INSERT INTO ducklake_inlined_data_tables SELECT " + id + ", '" + name + "', " + schema
                            + " WHERE NOT EXISTS (SELECT 1 FROM ducklake_inlined_data_tables WHERE table_name = '" + name + "')");
                    long rowId = single(st, "SELECT next_row_id FROM ducklake_table_stats WHERE table_id = " + id);
                    for (String row : inline.add()) st.execute("INSERT INTO " + name + " VALUES (" + (rowId++) + ", " + next + ", NULL, " + row + ")");
                    st.execute("UPDATE ducklake_table_stats SET record_count = record_count + " + inline.add().size() + ", next_row_id = "
                            + rowId + " WHERE table_id = " + id);
                    changes.add("inlined_insert:" + id);
                }
                if (inline.delete() != null) {
                    long[] at = locate(st, id, inline.delete());
                    st.execute("CREATE TABLE IF NOT EXISTS ducklake_inlined_delete_" + id + " (file_id BIGINT, row_id BIGINT, begin_snapshot BIGINT)");
                    st.execute("INSERT INTO ducklake_inlined_delete_" + id + " VALUES (" + at[0] + ", " + at[1] + ", " + next + ")");
                    st.execute("UPDATE ducklake_table_stats SET record_count = record_count - 1 WHERE table_id = " + id);
                    changes.add("inlined_delete:" + id);
                }
                st.execute("INSERT INTO ducklake_snapshot_changes (snapshot_id, changes_made, author, commit_message) VALUES (" + next + ", '"
                        + String.join(",", changes) + "', 'tester', 'inline " + table + "')");
            }
        }

        /** The data file id and position of the one row of table {@code id}'s visible data files equal to CSV line {@code row}. */
        private long[] locate(Statement st, long id, String row) throws SQLException, IOException {
            Map<Long, String> files = new TreeMap<>();
            try (ResultSet rs = st.executeQuery("SELECT data_file_id, path FROM ducklake_data_file WHERE end_snapshot IS NULL AND table_id = " + id)) {
                while (rs.next()) files.put(rs.getLong(1), rs.getString(2));
            }
            List<long[]> found = new ArrayList<>();
            try (Connection duck = DuckDbPool.shared().connection(); Statement d = duck.createStatement()) {
                for (Map.Entry<Long, String> f : files.entrySet()) {
                    String fileName = Path.of(f.getValue()).getFileName().toString();
                    Path file;
                    try (Stream<Path> s = Files.walk(dir.resolve("repo"))) {
                        file = s.filter(x -> x.getFileName().toString().equals(fileName)).findFirst().orElseThrow();
                    }
                    try (ResultSet rs = d.executeQuery("SELECT * FROM read_parquet(" + SqlQuote.literal(file.toString()) + ", file_row_number = true)")) {
                        int n = rs.getMetaData().getColumnCount();
                        while (rs.next()) {
                            List<String> values = new ArrayList<>();
                            for (int i = 1; i < n; i++) values.add(rs.getString(i));
                            if (String.join(",", values).equals(row)) found.add(new long[]{f.getKey(), rs.getLong(n)});
                        }
                    }
                }
            }
            assertThat(found).as("data-file rows of table " + id + " equal to " + row).hasSize(1);
            return found.get(0);
        }

        private static long single(Statement st, String sql) throws SQLException {
            try (ResultSet rs = st.executeQuery(sql)) {
                assertThat(rs.next()).as(sql).isTrue();
                return rs.getLong(1);
            }
        }

        /** Renames the table of {@code e} and its columns, by their ids in {@code catalog}. */
        private static void rename(Path catalog, Edit e) throws SQLException {
            long table = -1;
            Map<Long, String> columns = new TreeMap<>();
            try (Connection c = dev.fdl.ducklake.engine.Sql.sqlite(catalog, true); Statement st = c.createStatement()) {
                try (ResultSet rs = st.executeQuery("SELECT table_id FROM ducklake_table WHERE end_snapshot IS NULL AND table_name = "
                        + SqlQuote.literal(e.table()))) {
                    if (rs.next()) table = rs.getLong(1);
                }
                for (Map.Entry<String, String> col : e.columns().entrySet()) {
                    try (ResultSet rs = st.executeQuery("SELECT column_id FROM ducklake_column WHERE end_snapshot IS NULL AND table_id = "
                            + table + " AND column_name = " + SqlQuote.literal(col.getKey()))) {
                        assertThat(rs.next()).as("column " + col.getKey() + " of " + e.table()).isTrue();
                        columns.put(rs.getLong(1), col.getValue());
                    }
                }
            }
            assertThat(table).as("table " + e.table()).isNotNegative();
            TableRename.rename(catalog, table, e.renameTo(), columns, "tester", "rename " + e.table());
        }

        private void check() throws Exception {
            Path out = dir.resolve("merged.sqlite");
            MergeResult r = new ThreeWayMerge(DuckDbPool.shared()).merge(new MergeRequest(ours,
                    new MergeRequest.CatalogSnapshot(theirs, newest(theirs)), new MergeRequest.CatalogSnapshot(base, newest(base)), MergeOptions.NONE, out,
                    new MergeRequest.Writer(store, "data/", dir.resolve("tmp"), null, "tester", "merge")));
            long filesAfter = dataFiles();
            Set<String> expectedConflicts = new TreeSet<>();
            cases.forEach(c -> expectedConflicts.addAll(c.conflicts));
            Set<String> actualConflicts = new TreeSet<>();
            r.conflicts().forEach(c -> actualConflicts.add(c.table()));
            assertThat(actualConflicts).as("tables in conflict").isEqualTo(expectedConflicts);
            if (!expectedConflicts.isEmpty()) {
                assertThat(out).as("nothing written").doesNotExist();
                return;
            }
            assertThat(r.snapshot()).isEqualTo(newest(ours) + 1);
            try (Connection duck = DuckDbPool.shared().connection()) {
                Map<String, Path> b = dump(base, "b"), o = dump(ours, "o"), t = dump(theirs, "t"), m = dump(out, "m");
                Set<String> names = new TreeSet<>(b.keySet());
                names.addAll(o.keySet());
                names.addAll(t.keySet());
                Map<String, List<String>> javaColumns = new TreeMap<>(), javaRows = new TreeMap<>();
                cases.forEach(c -> {
                    javaColumns.putAll(c.columns);
                    javaRows.putAll(c.rows);
                });
                names.removeAll(javaRows.keySet());
                cases.forEach(c -> names.removeAll(c.renamedFrom));
                Map<String, String> expected = new TreeMap<>();
                for (String name : names) {
                    String rel = expected(duck, name.endsWith("kt"), b.get(name), o.get(name), t.get(name));
                    if (rel != null) expected.put(name, checksum(duck, rel));
                }
                Map<String, String> actual = new TreeMap<>();
                for (Map.Entry<String, Path> e : m.entrySet())
                    if (!javaRows.containsKey(e.getKey())) actual.put(e.getKey(), checksum(duck, read(e.getValue())));
                assertThat(actual).as("merged tables and their rows (table names start with their case's seed)").isEqualTo(expected);
                Map<String, List<String>> actualColumns = new TreeMap<>(), actualRows = new TreeMap<>();
                for (String name : javaRows.keySet()) {
                    assertThat(m).as("merged table " + name).containsKey(name);
                    csv(duck, m.get(name), actualColumns, actualRows, name);
                }
                assertThat(actualColumns).as("merged columns, in order (tables merged cell by cell or per distinct row)").isEqualTo(javaColumns);
                assertThat(actualRows).as("merged rows (tables merged cell by cell or per distinct row)").isEqualTo(javaRows);
            }
            assertThat(filesAfter).isGreaterThanOrEqualTo(files);
        }

        /**
         * Plain SQL over whole rows: ours where theirs is the base's, theirs where ours is; a table
         * created on both sides (equal, or the case expects a conflict) is ours; else, keyed (rows
         * are a set), {@code (B ∩ O ∩ T) ∪ (O − B) ∪ (T − B)}.
         */
        private static String expected(Connection duck, boolean keyed, Path b, Path o, Path t) throws SQLException {
            if (sameRows(duck, b, t)) return o == null ? null : read(o);
            if (sameRows(duck, b, o)) return t == null ? null : read(t);
            if (b == null) return read(o);
            if (!keyed) throw new IllegalStateException("a keyless table changed on both sides is expected by its case (the diff3 rule)");
            return "(" + read(b) + " INTERSECT " + read(o) + " INTERSECT " + read(t) + ") UNION (" + read(o) + " EXCEPT " + read(b)
                    + ") UNION (" + read(t) + " EXCEPT " + read(b) + ")";
        }

        /** The columns of Parquet file {@code p} and its rows as sorted CSV lines, put under {@code name}. */
        private static void csv(Connection duck, Path p, Map<String, List<String>> columns, Map<String, List<String>> rows, String name)
                throws SQLException {
            try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(read(p))) {
                List<String> cols = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) cols.add(rs.getMetaData().getColumnName(i));
                List<String> out = new ArrayList<>();
                while (rs.next()) {
                    List<String> values = new ArrayList<>();
                    for (int i = 1; i <= cols.size(); i++) values.add(rs.getString(i));
                    out.add(String.join(",", values));
                }
                columns.put(name, cols);
                rows.put(name, out.stream().sorted().toList());
            }
        }

        private static boolean sameRows(Connection duck, Path a, Path b) throws SQLException {
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
        private Map<String, Path> dump(Path catalog, String tag) {
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

        private void sync(Path catalog, String table, String csv, List<String> key) throws IOException {
            Path file = dir.resolve("src-" + (files++) + ".csv");
            Files.writeString(file, csv);
            new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(catalog, store, "data/", file, table, ImportMode.SYNC)
                    .withKeys(key).withAuthor("tester").withMessage("sync " + table));
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
