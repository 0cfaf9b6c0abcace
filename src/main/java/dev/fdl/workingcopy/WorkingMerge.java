package dev.fdl.workingcopy;

import dev.fdl.FdlException;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.merge.MergeOptions;
import dev.fdl.ducklake.load.DataFileDigests;
import dev.fdl.ducklake.merge.MergeRequest;
import dev.fdl.ducklake.merge.MergeResult;
import dev.fdl.ducklake.merge.ThreeWayMerge;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.util.AtomicFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One three-way merge into the working catalog, shared by {@link Merge}, {@link Pull} and
 * {@link Revert}: the checks before it (the working copy's state, {@code --ours T}/{@code --theirs T}
 * naming a table that exists) and the merged catalog written under a new file name and forced to disk.
 */
final class WorkingMerge {
    private WorkingMerge() {}

    /** A catalog file (SQLite or DuckDB) at a snapshot (null: its newest). */
    record At(Path catalog, Long snapshot) {}

    /**
     * Refuses {@code --ours T} / {@code --theirs T} naming a table or view that none of the merge's
     * catalogs shows (at the snapshots the merge reads), before anything is merged: a misspelt name
     * would otherwise settle nothing.
     *
     * @throws FdlException usage (exit 2) naming the table and listing those there are
     */
    static void requireSettledTablesExist(MergeOptions options, List<At> sides) {
        if (options.perTable().isEmpty()) return;
        java.util.Set<String> known = new java.util.TreeSet<>();
        for (At at : sides) {
            try (dev.fdl.ducklake.catalog.CatalogInspector c = dev.fdl.ducklake.catalog.CatalogInspector.open(at.catalog())) {
                for (dev.fdl.ducklake.TableInfo t : c.tables(at.snapshot() != null ? at.snapshot() : c.lastSnapshotId()))
                    known.add(t.schema().equals("main") ? t.name() : t.schema() + "." + t.name());
                known.addAll(c.names().views().values().stream().map(v -> v.startsWith("main.") ? v.substring(5) : v).toList());
            }
        }
        java.util.Set<String> folded = new java.util.HashSet<>();
        for (String k : known) {
            folded.add(k.toLowerCase(java.util.Locale.ROOT));
            if (!k.contains(".")) folded.add("main." + k.toLowerCase(java.util.Locale.ROOT));
        }
        for (String t : new java.util.TreeSet<>(options.perTable().keySet())) {
            if (!folded.contains(t))
                throw FdlException.usage("--ours/--theirs " + t + ": there is no table " + t + " on either side of the merge or in its base "
                        + "(tables: " + (known.isEmpty() ? "none" : String.join(", ", known)) + "); nothing was merged");
        }
    }

    static WorkingCopy.State checked(Repository repo, WorkingCopy wc, String what) {
        Commit.reconcile(repo, wc);
        WorkingCopy.State st = wc.state();
        st.requireBelongsTo(repo);
        if (st.branch() == null && !what.equals("revert"))
            throw new FdlException("the working copy is not on a branch (checked out from version " + st.baseVersion()
                    + "); create one first: fdl checkout -b <new-branch>");
        if (st.merging() != null)
            throw new FdlException("a merge of version " + st.merging().version() + " is pending in the working copy; commit it "
                    + "(fdl commit) or abort it (fdl merge --abort) before the " + what);
        return st;
    }

    /** Ours (a SQLite catalog at its newest snapshot), theirs and the base. */
    record Sides(Path ours, VersionInfo theirs, VersionInfo base) {}

    /** The engine's result and, when it wrote one, the new working catalog's file name. */
    record Written(MergeResult result, String catalog) {}

    /** What one merge writes: its sides, how conflicts are settled, and the snapshot's author and message. */
    record Job(Sides sides, MergeOptions options, VersionInfo.Author author, String message) {}

    static Written write(Repository repo, WorkingCopy wc, Job job, Merge.Services s, WorkingCopy.Steps steps) {
        Sides sides = job.sides();
        MergeOptions options = job.options();
        VersionInfo.Author author = job.author();
        String message = job.message();
        List<Path> scratch = new ArrayList<>();
        String name = WorkingCopy.newCatalogName();
        Path output = wc.catalogFile(name);
        try {
            Path base = sqlite(repo, wc, sides.base(), s, scratch);
            Path theirs = sqlite(repo, wc, sides.theirs(), s, scratch);
            long theirsSnapshot = sides.theirs().ducklake().lastSnapshot();
            steps.reached("catalogs-converted");
            MergeResult r = new ThreeWayMerge(s.pool()).merge(new MergeRequest(sides.ours(), new MergeRequest.CatalogSnapshot(theirs, theirsSnapshot),
                    new MergeRequest.CatalogSnapshot(base, sides.base().ducklake().lastSnapshot()), options, output,
                    new MergeRequest.Writer(repo.store(), repo.dataDir(), wc.tmp(), s.dataCache(), author.toString(), message,
                            DataFileDigests.beside(wc.catalog()))));
            if (r.conflicted()) return new Written(r, null);
            steps.reached("catalog-written");
            AtomicFile.sync(output);
            AtomicFile.syncDirectory(output.getParent());
            steps.reached("catalog-synced");
            return new Written(r, name);
        } catch (IOException e) {
            AtomicFile.deleteQuietly(output);
            throw new FdlException("cannot write the merged working catalog " + output + ": " + e.getMessage());
        } catch (RuntimeException e) {
            AtomicFile.deleteQuietly(output); // never current: the state still names the catalog as it was
            throw e;
        } finally {
            scratch.forEach(AtomicFile::deleteQuietly);
        }
    }

    static Path sqlite(Repository repo, WorkingCopy wc, VersionInfo v, Merge.Services s, List<Path> scratch) {
        Path p = wc.tmp().resolve("merge-" + v.id() + "-" + java.util.UUID.randomUUID() + ".sqlite");
        scratch.add(p);
        CatalogConverter.convert(s.catalogs().versionCatalog(repo, v), p, CatalogKind.SQLITE, s.progress()); // size and sha256 checked
        return p;
    }
}
