package dev.fdl.ducklake.merge;

import dev.fdl.FdlException;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.Identifiers;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.load.RowDelta;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.ducklake.read.TableViewSql;
import dev.fdl.ducklake.working.CatalogMatch;
import dev.fdl.ducklake.working.SnapshotRow;
import dev.fdl.ducklake.working.TableRename;
import dev.fdl.ducklake.working.WorkingCatalog;
import dev.fdl.util.SqlQuote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The three-way merge of DuckLake catalogs (docs/SPEC.md section 7, "Merge"): ours (a SQLite
 * catalog at its newest snapshot), theirs and their merge base. Tables are matched by
 * {@code table_uuid} (a table of one side is a table of the other when both descend from the same
 * table of the base), and each is
 * <ul>
 * <li>kept as ours when theirs did not change it (nor drop it), or both changed it the same way;</li>
 * <li>taken from theirs when only theirs changed, created or dropped it: the merged catalog names
 * their data and delete files under ids it has not used ({@link CatalogMatch.Request#tables}),
 * so no data file is copied or written;</li>
 * <li>merged when both changed it: from what each side changed since the base ({@link DeltaMerge}:
 * only data and delete files not shared with the base are read, keys touched on both sides go
 * through {@link RowMerge}), written against ours as deletes and inserts ({@link DeltaCommit}: a
 * delete file per data file deleted from, new data files); a table whose columns differ between the
 * sides or that holds inlined rows is merged whole ({@link RowMerge}) and the difference to ours
 * written as {@code import --mode sync} writes it ({@link Syncer});</li>
 * <li>a conflict when dropped on one side and changed on the other, or created on both sides under
 * one name with different contents, unless settled for a side ({@link MergeOptions}).</li>
 * </ul>
 * A table changed on both sides takes its merged name and its columns' ({@link Naming}); views
 * merge as whole objects ({@link ViewMerge}).
 * Conflicts write nothing. Otherwise the merge is composed in a scratch copy of ours and then
 * recorded in {@link MergeRequest#output} (a fresh copy of ours) as <em>one</em> snapshot
 * ({@link CatalogMatch.Request#merge}): ours is never changed, so the caller switches to
 * the output in one atomic step or throws it away.
 */
public final class ThreeWayMerge {
    private final DuckDbPool pool;

    /** A merge borrowing DuckDB instances from {@code pool}. */
    public ThreeWayMerge(DuckDbPool pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    /** A table changed on both sides, planned for a row merge, with its merged names. */
    private record Both(CatalogSide.Table base, CatalogSide.Table ours, CatalogSide.Table theirs, Naming naming) {
        /** The merged table's qualified name. */
        String merged() {
            return ours.entry().schema().equals("main") ? naming.table() : ours.entry().schema() + "." + naming.table();
        }
    }

    /**
     * Merges. Nothing is written when the result has conflicts ({@link MergeResult#conflicted}).
     *
     * @throws FdlException failure naming the catalog or table when a catalog cannot be read or
     *                      written, or a table uses a feature the merge does not handle (partitions,
     *                      sort orders, macros, column mappings: as restore); the output is then absent
     */
    public MergeResult merge(MergeRequest r) {
        MergeRequest.Writer w = r.writer();
        Path tmp = null;
        boolean written = false;
        try {
            Files.createDirectories(w.tmp());
            tmp = Files.createTempDirectory(w.tmp(), "merge-");
            try (Connection duck = pool.connection()) {
                try (Statement st = duck.createStatement()) {
                    st.execute(Sql.SET_UTC);
                    st.execute("SET temp_directory = " + SqlQuote.literal(tmp.resolve("spill").toString()));
                }
                List<CatalogSide> sides = CatalogSide.openAll(duck, List.of(new CatalogSide.Source("__fdl_base", r.base().catalog(), r.base().snapshot()),
                        new CatalogSide.Source("__fdl_ours", r.ours(), null),
                        new CatalogSide.Source("__fdl_theirs", r.theirs().catalog(), r.theirs().snapshot())), tmp);
                Run run = new Run(duck, sides.get(0), sides.get(1), sides.get(2), r, tmp);
                Plan plan = classify(duck, run.base(), run.ours(), run.theirs(), r.options(), w);
                List<Merged> merged = new ArrayList<>();
                long bytesRead = 0;
                for (int i = 0; i < plan.both.size(); i++) bytesRead += mergeBoth(run, plan, i, merged);
                if (!plan.conflicts.isEmpty()) return new MergeResult(plan.outcomes, plan.conflicts, null, bytesRead, plan.warnings);
                Path scratch = compose(run, plan, merged);
                long last;
                try (WorkingCatalog c = WorkingCatalog.open(scratch)) {
                    last = c.newestSnapshot().id();
                }
                copy(r.ours(), r.output());
                written = true;
                CatalogMatch.MatchResult result = CatalogMatch.run(CatalogMatch.Request.merge(r.output(), scratch, last, w.author(), w.message()));
                return new MergeResult(plan.outcomes, List.of(), result.snapshot(), bytesRead, plan.warnings);
            }
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot merge: " + DuckDbErrors.duckError(e), e);
        } catch (IOException e) {
            throw new FdlException("cannot merge: " + e.getMessage());
        } catch (RuntimeException e) {
            if (written) deleteQuietly(r.output());
            throw e;
        } finally {
            deleteTree(tmp);
        }
    }

    /** One merge's connection, its three sides, the request and its scratch folder. */
    private record Run(Connection duck, CatalogSide base, CatalogSide ours, CatalogSide theirs, MergeRequest r, Path tmp) {}

    /**
     * Merges table {@code i} of {@code plan.both} from its changes ({@link DeltaMerge}) or, where that
     * does not apply, whole ({@link RowMerge}); adds its result to {@code merged} and its conflicts,
     * warnings and outcome to {@code plan}.
     *
     * @return the bytes of data and delete files read
     */
    private long mergeBoth(Run run, Plan plan, int i, List<Merged> merged) throws SQLException {
        Connection duck = run.duck();
        MergeRequest r = run.r();
        Both b = plan.both.get(i);
        String name = b.ours().qualified();
        MergeOptions.MergeSide res = r.options().resolution(b.ours().entry().schema(), b.ours().entry().name());
        List<String> key = !r.options().key().isEmpty() ? r.options().key()
                : Stream.of(b.ours().key(), b.theirs().key(), b.base().key()).filter(k -> !k.isEmpty()).findFirst().orElse(List.of());
        // the delta path reads the sides under their own names (a renamed column makes it fall back);
        // the whole-table merge reads them under the merged names
        RowMerge.SideRows bs = side(duck, run.base(), b.base(), r.writer()), os = side(duck, run.ours(), b.ours(), r.writer()),
                ts = side(duck, run.theirs(), b.theirs(), r.writer());
        DeltaMerge delta = DeltaMerge.plan(duck, i, name, new DeltaMerge.Entries(run.base().view(), bs.entry(), run.ours().view(), os.entry(),
                run.theirs().view(), ts.entry()), key, res, run.ours()::fetch);
        List<MergeResult.TableConflict> found;
        boolean empty;
        long bytesRead = 0;
        if (delta != null) {
            found = delta.conflicts();
            empty = found.isEmpty() && delta.count(delta.inserts()) == 0
                    && DeltaCommit.perFile(duck, delta).stream().filter(RowDelta.FileDeletes::ends).count() == os.entry().dataFiles().size();
            bytesRead += delta.bytesRead();
            merged.add(new Merged(null, delta));
        } else {
            run.base().fetchWhole(bs.entry());
            run.ours().fetchWhole(os.entry());
            run.theirs().fetchWhole(ts.entry());
            for (RowMerge.SideRows s : List.of(bs, os, ts)) bytesRead += wholeBytes(s.entry());
            RowMerge m = RowMerge.plan(duck, name, named(run.base(), bs, b), named(run.ours(), os, b), named(run.theirs(), ts, b), key,
                    new RowMerge.Settle(res, r.options().strict()));
            found = m.conflicts();
            if (m.countClashes() != null) plan.warnings.add(m.countClashes());
            Path file = run.tmp().resolve("merged-" + i + ".parquet");
            empty = found.isEmpty() && m.write(file, res) == 0;
            merged.add(new Merged(file, null));
        }
        if (!found.isEmpty()) {
            plan.conflicts.addAll(found);
            return bytesRead;
        }
        if (empty) {
            plan.conflicts.add(new MergeResult.TableConflict(name, "empty", 1, List.of(new MergeResult.KeyConflict("",
                    null, "the merged table would hold no rows, which fdl cannot write as a merge yet: settle it with --ours or --theirs",
                    null))));
        }
        plan.outcomes.add(new MergeResult.TableOutcome(b.merged(), res == null ? MergeResult.Action.MERGED : MergeResult.Action.SETTLED,
                (key.isEmpty() ? MergeResult.TableOutcome.WHOLE_ROWS : "rows merged on key (" + String.join(", ", key) + ")")
                        + (b.naming().renameOurs() != null ? "; renamed from " + name : "")));
        return bytesRead;
    }

    /**
     * Composes the merge in a scratch copy of ours: theirs' tables taken, then each table changed
     * on both sides renamed and written. Data files uploaded for it are deleted again when it fails.
     *
     * @return the scratch catalog
     */
    private Path compose(Run run, Plan plan, List<Merged> merged) throws SQLException, IOException {
        MergeRequest r = run.r();
        MergeRequest.Writer w = r.writer();
        Path scratch = run.tmp().resolve("scratch.sqlite");
        copy(r.ours(), scratch);
        if (!plan.take.isEmpty())
            CatalogMatch.run(CatalogMatch.Request.tables(scratch, r.theirs().catalog(), r.theirs().snapshot(), plan.take, w.author(), w.message()));
        List<String> uploaded = new ArrayList<>();
        boolean done = false;
        try {
            for (int i = 0; i < plan.both.size(); i++) {
                Both b = plan.both.get(i);
                List<String> key = !r.options().key().isEmpty() ? r.options().key() : null;
                Merged m = merged.get(i);
                if (!b.naming().keepsOurs())
                    TableRename.rename(scratch, b.ours().entry().id(), b.naming().renameOurs(), b.naming().oursColumns(), w.author(), w.message());
                if (m.delta() != null) {
                    DeltaCommit.write(run.duck(), m.delta(), new DeltaCommit.Target(scratch, b.merged(), w, run.tmp().resolve("delta-" + i), key),
                            run.ours().logicalPaths(run.duck(), w, b.ours().uuid()), uploaded);
                    continue;
                }
                new Syncer(pool).sync(ImportRequest.of(scratch, w.store(), w.dataDirKey(), m.file(), b.merged(), ImportMode.SYNC)
                        .withKeys(key).withAuthor(w.author()).withMessage(w.message()).withDigests(w.digests())
                        .withCacheDir(w.cacheDir() != null ? w.cacheDir() : run.tmp().resolve("mirror")));
            }
            done = true;
        } finally {
            if (!done) for (String k : uploaded) {
                try {
                    w.store().delete(k);
                } catch (RuntimeException ignored) {
                    // nothing names the file: gc removes it later
                }
            }
        }
        return scratch;
    }

    /** A side of a table changed on both sides, its columns under their merged names. */
    private static RowMerge.SideRows named(CatalogSide side, RowMerge.SideRows s, Both b) {
        return RowMerge.SideRows.whole(side.view(), b.naming().apply(s.entry()));
    }

    /** A table changed on both sides, merged: the merged rows' file (whole-table merge) or its changes ({@link DeltaMerge}). */
    private record Merged(Path file, DeltaMerge delta) {}

    /** The bytes of every data and delete file of {@code e}: what a whole-table merge reads of it. */
    private static long wholeBytes(SnapshotView.TableEntry e) {
        long n = 0;
        for (SnapshotView.DataFileEntry f : e.dataFiles()) n += Math.max(0, f.bytes());
        for (SnapshotView.DeleteFileEntry d : e.deleteFiles()) {
            try {
                n += Files.size(Path.of(d.location()));
            } catch (IOException | RuntimeException ignored) {
                // not a local file: not counted
            }
        }
        return n;
    }

    private RowMerge.SideRows side(Connection duck, CatalogSide side, CatalogSide.Table t, MergeRequest.Writer w) throws SQLException {
        SnapshotView.TableEntry e = side.readable(duck, w, t.uuid());
        return RowMerge.SideRows.whole(side.view(), e);
    }

    /** What {@link #classify} decided. */
    private static final class Plan {
        final Set<String> take = new LinkedHashSet<>();
        final List<Both> both = new ArrayList<>();
        final List<MergeResult.TableOutcome> outcomes = new ArrayList<>();
        final List<MergeResult.TableConflict> conflicts = new ArrayList<>();
        final List<MergeResult.TableConflict> warnings = new ArrayList<>();
    }

    private Plan classify(Connection duck, CatalogSide base, CatalogSide ours, CatalogSide theirs, MergeOptions options,
                          MergeRequest.Writer w) throws SQLException {
        Plan p = new Plan();
        Set<String> uuids = new LinkedHashSet<>(ours.byUuid.keySet());
        uuids.addAll(theirs.byUuid.keySet());
        uuids.addAll(base.byUuid.keySet());
        for (String uuid : uuids) {
            CatalogSide.Table b = base.byUuid.get(uuid), o = ours.byUuid.get(uuid), t = theirs.byUuid.get(uuid);
            CatalogSide.Table any = o != null ? o : t != null ? t : b;
            String name = any.qualified();
            MergeOptions.MergeSide res = options.resolution(any.entry().schema(), any.entry().name());
            if (same(b, t)) {
                if (o != null) p.outcomes.add(new MergeResult.TableOutcome(name, MergeResult.Action.KEPT, same(b, o) ? "unchanged" : "changed on ours only"));
                continue;
            }
            if (same(b, o)) {
                if (b == null && t != null) {
                    CatalogSide.Table clash = ours.byUuid.values().stream()
                            .filter(x -> !x.uuid().equals(uuid) && Identifiers.same(x.qualified(), t.qualified())).findFirst().orElse(null);
                    if (clash != null) {
                        createdOnBoth(new Sides(duck, ours, theirs, w), clash, t, res, p);
                        continue;
                    }
                }
                p.take.add(uuid);
                p.outcomes.add(new MergeResult.TableOutcome(name, MergeResult.Action.TAKEN,
                        t == null ? "dropped on theirs" : b == null ? "created on theirs" : "changed on theirs only"));
                continue;
            }
            if (o != null && t != null && o.fingerprint().equals(t.fingerprint()) || o == null && t == null) {
                p.outcomes.add(new MergeResult.TableOutcome(name, MergeResult.Action.KEPT, "changed the same way on both sides"));
                continue;
            }
            if (o == null || t == null) {
                if (res == null) {
                    p.conflicts.add(new MergeResult.TableConflict(name, "table", 1, List.of(new MergeResult.KeyConflict(name, "table",
                            o == null ? "dropped" : "changed", t == null ? "dropped" : "changed"))));
                } else {
                    if (res == MergeOptions.MergeSide.THEIRS) p.take.add(uuid);
                    p.outcomes.add(new MergeResult.TableOutcome(name, MergeResult.Action.SETTLED, "dropped on one side, changed on the other: "
                            + res.name().toLowerCase(java.util.Locale.ROOT) + " taken"));
                }
                continue;
            }
            Naming naming = Naming.of(b.entry(), o.entry(), t.entry(), res);
            if (!naming.conflicts().isEmpty()) p.conflicts.add(naming.conflict(name));
            else p.both.add(new Both(b, o, t, naming));
        }
        ViewMerge.merge(ViewMerge.read(duck, base), ViewMerge.read(duck, ours), ViewMerge.read(duck, theirs), options,
                new ViewMerge.Into(p.take, p.outcomes, p.conflicts));
        return p;
    }

    /** Both sides created a table of one name: equal contents keep ours, else a conflict unless settled. */
    /** Our and their side, read through {@code duck}. */
    private record Sides(Connection duck, CatalogSide ours, CatalogSide theirs, MergeRequest.Writer w) {}

    private void createdOnBoth(Sides sides, CatalogSide.Table o, CatalogSide.Table t, MergeOptions.MergeSide res, Plan p) throws SQLException {
        String name = o.qualified();
        CatalogSide theirs = sides.theirs();
        if (sameContents(sides.duck(), sides.ours(), o, theirs, t, sides.w())) {
            p.outcomes.add(new MergeResult.TableOutcome(name, MergeResult.Action.KEPT, "created on both sides with the same contents"));
            return;
        }
        if (res == null) {
            p.conflicts.add(new MergeResult.TableConflict(name, "created", 1, List.of(new MergeResult.KeyConflict(name, null,
                    "created", "created with other contents"))));
            return;
        }
        if (res == MergeOptions.MergeSide.THEIRS) {
            p.take.add(t.uuid());
            if (!theirs.byUuid.containsKey(o.uuid())) p.take.add(o.uuid()); // ours' table ends: theirs does not show it
        }
        p.outcomes.add(new MergeResult.TableOutcome(name, MergeResult.Action.SETTLED, "created on both sides: "
                + res.name().toLowerCase(java.util.Locale.ROOT) + " taken"));
    }

    private boolean sameContents(Connection duck, CatalogSide ours, CatalogSide.Table o, CatalogSide theirs, CatalogSide.Table t,
                                 MergeRequest.Writer w) throws SQLException {
        List<String> oc = o.entry().columns().stream().map(c -> c.name() + " " + c.duckType()).toList();
        List<String> tc = t.entry().columns().stream().map(c -> c.name() + " " + c.duckType()).toList();
        if (!oc.equals(tc)) return false;
        SnapshotView.TableEntry oe = ours.readable(duck, w, o.uuid()), te = theirs.readable(duck, w, t.uuid());
        ours.fetchWhole(oe);
        theirs.fetchWhole(te);
        String a = rows(ours.view(), oe), b = rows(theirs.view(), te);
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM ((" + a + " EXCEPT ALL " + b + ") UNION ALL (" + b + " EXCEPT ALL " + a + "))")) {
            rs.next();
            return rs.getLong(1) == 0;
        }
    }

    private static String rows(SnapshotView view, SnapshotView.TableEntry e) {
        List<String> cols = e.columns().stream().map(c -> SqlQuote.ident(TableViewSql.idColumn(c.id()))).toList();
        return "SELECT " + String.join(", ", cols) + " FROM (" + new TableViewSql(view, e).selectWithRowIds() + ")";
    }

    private static boolean same(CatalogSide.Table a, CatalogSide.Table b) {
        if (a == null || b == null) return a == b;
        return a.fingerprint().equals(b.fingerprint());
    }

    /** A consistent copy of SQLite catalog {@code from} at {@code to} (which must not exist). */
    static void copy(Path from, Path to) throws SQLException {
        try (Connection c = Sql.sqlite(from, false)) {
            Sql.exec(c, "VACUUM INTO " + SqlQuote.literal(to.toAbsolutePath().toString()));
        }
    }

    /** The newest snapshot of SQLite catalog {@code file}. */
    static long newest(Path file) throws SQLException {
        try (WorkingCatalog c = WorkingCatalog.open(file)) {
            SnapshotRow s = c.newestSnapshot();
            return s.id();
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            if (p != null) Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // an absent output is what the caller expects; a leftover is never current
        }
    }

    private static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(ThreeWayMerge::deleteQuietly);
        } catch (IOException ignored) {
            // scratch files only
        }
    }
}
