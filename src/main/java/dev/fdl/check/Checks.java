package dev.fdl.check;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.read.BuiltInReader;
import dev.fdl.ducklake.read.CatalogRenames;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Runs every check of docs/checks.md over one catalog, in this order: change guards against the
 * parent's description, row constraints (incrementally where the parent held them, see
 * {@link RowRule#key}), key constraints, SQL checks, then hooks. Reads with fdl's built-in reader
 * (DuckDB core only), the catalog attached read-only.
 */
public final class Checks {
    private Checks() {}

    /**
     * @param full        check every row even where the parent's checks allow checking added rows only ({@code --full})
     * @param allow       the guarded changes that are meant
     * @param hookTimeout how long each hook may run
     */
    public record Options(boolean full, ChangeGuards.Allow allow, Duration hookTimeout) {
        /** Incremental, nothing allowed, the default timeout. */
        public static final Options DEFAULT = new Options(false, ChangeGuards.Allow.NONE, Hook.DEFAULT_TIMEOUT);

        public Options {
            Objects.requireNonNull(allow, "allow");
            Objects.requireNonNull(hookTimeout, "hookTimeout");
        }
    }

    /**
     * Where a catalog's data files are for a reader of some of its tables: a remote repository's
     * are fetched into a local mirror first, only those of the tables the checks read.
     */
    @FunctionalInterface
    public interface DataPath {
        /**
         * A local data path holding at least the data and delete files of {@code tables}
         * (lower-case {@code schema.table}, {@link dev.fdl.ducklake.engine.QueryTables#named}'s
         * form; null: every table), overriding the catalog's data_path.
         */
        String forTables(Set<String> tables);

        /**
         * Fetches the files at {@code locations} (as a reader attached at {@link #forTables}'s path
         * names them) when that path is a mirror of a remote data folder; nothing for a local one.
         */
        default void fetch(java.util.Collection<String> locations) {}
    }

    /**
     * What is checked.
     *
     * @param catalog    a DuckDB-file catalog, read at its newest snapshot
     * @param data       where its data files are (local), overriding its data_path; asked only when a check reads rows
     * @param descriptor its dataset.json, filled (SPEC.md section 3)
     * @param file       names the description in messages
     */
    public record Target(Path catalog, DataPath data, ObjectNode descriptor, String file) {
        /** A target whose data files are all at {@code dataPath} (local). */
        public Target(Path catalog, String dataPath, ObjectNode descriptor, String file) {
            this(catalog, tables -> dataPath, descriptor, file);
        }
    }

    /**
     * The parent version, when there is one.
     *
     * @param descriptor its dataset.json (filled)
     * @param since      the first snapshot the checked catalog adds over it (its last + 1)
     * @param held       the row-constraint keys it recorded as held ({@link CheckReport#held()}); empty when it recorded none
     * @param otherParent the other description a guard must also fire against (a merge's second parent, a
     *                    revert's reverted version's parent), or null
     * @param merge      whether the checked version is a merge's ({@code otherParent} its second parent): guards
     *                    that fire then say the merge did it ({@link ChangeGuards#check(ObjectNode, ObjectNode, Rules, ChangeGuards.Allow, ChangeGuards.Renames, boolean)})
     */
    public record Parent(ObjectNode descriptor, long since, Set<String> held, ObjectNode otherParent, boolean merge) {
        public Parent {
            held = Set.copyOf(held);
        }

        /** The parent of a version with one parent. */
        public Parent(ObjectNode descriptor, long since, Set<String> held) {
            this(descriptor, since, held, null, false);
        }
    }

    /**
     * The change guards against the parent; for a merge, only the guards that fire against both
     * parents (a change neither parent had: what one side already published is not refused again);
     * for a revert, against the parent and the reverted version's parent (a change returning a
     * table to what that parent had is what the revert asked for).
     */
    private static List<CheckResult> guards(DuckDbPool pool, Parent parent, Target target, Rules rules, ChangeGuards.Allow allow) {
        if (parent == null) return List.of();
        // renames by table and column id: the catalog holds the parent's snapshots (its last is since - 1)
        ChangeGuards.Renames renames = ChangeGuards.Renames.of(CatalogRenames.since(pool, target.catalog(), parent.since() - 1));
        List<CheckResult> first = ChangeGuards.check(parent.descriptor(), target.descriptor(), rules, allow, renames, parent.merge());
        if (parent.otherParent() == null) return first;
        java.util.Map<String, CheckResult> second = new java.util.HashMap<>();
        for (CheckResult r : ChangeGuards.check(parent.otherParent(), target.descriptor(), rules, allow)) second.put(r.name(), r);
        List<CheckResult> out = new ArrayList<>();
        for (CheckResult r : first) {
            CheckResult other = second.get(r.name());
            out.add(r.status() == CheckResult.Status.PASSED || other == null || other.status() != CheckResult.Status.PASSED ? r : other);
        }
        return out;
    }

    /**
     * Runs every check.
     *
     * @param parent null for a version without parent (every row checked, nothing guarded)
     * @param hooks  run last, in order, their output printed to {@code out}
     * @throws dev.fdl.FdlException exit 1 naming what is malformed or cannot run (a constraint, an SQL check that
     *                              fails or writes, a hook not executable or too slow); a check that finds violations is a result, not an error
     */
    public static CheckReport run(DuckDbPool pool, Target target, Parent parent, Options options, List<Hook> hooks, PrintWriter out) {
        Rules rules = Rules.of(target.descriptor(), target.file());
        List<CheckResult> results = new ArrayList<>(guards(pool, parent, target, rules, options.allow()));
        List<String> held;
        boolean incremental;
        if (!rules.rows().isEmpty() || !rules.keys().isEmpty() || !rules.sql().isEmpty()) {
            long since = parent == null || options.full() ? 0 : parent.since();
            ReadPlan plan = ReadPlan.of(pool, target, rules, tablesRead(pool, rules), since, parent == null ? Set.of() : parent.held());
            String dataPath = plan.dataPath();
            try (BuiltInReader reader = BuiltInReader.open(pool, target.catalog(), dataPath, null, plan.viewed())) {
                confine(reader, target, dataPath);
                CatalogChecks c = new CatalogChecks(reader);
                results.addAll(c.rows(rules.rows(), since, parent == null ? Set.of() : parent.held()));
                results.addAll(c.keys(rules.keys()));
                results.addAll(c.sql(rules.sql()));
                held = c.held();
                incremental = c.incremental();
            }
        } else {
            held = List.of();
            incremental = false;
        }
        for (Hook h : hooks) results.add(h.run(options.hookTimeout(), out));
        return new CheckReport(results, Set.copyOf(held), incremental);
    }

    /**
     * The tables the checks read, as {@link dev.fdl.ducklake.engine.QueryTables#named} gives them: the
     * tables of the row and key constraints (a foreign key's referenced one too) and those each SQL
     * check names; null (every table) when an SQL check may read tables it does not name. A
     * resource name that is not a table makes the reader open every table, which the checks need
     * to name it in their error.
     */
    static Set<String> tablesRead(DuckDbPool pool, Rules rules) {
        Set<String> sql = sqlTablesRead(pool, rules);
        if (sql == null) return null;
        Set<String> out = new java.util.HashSet<>(sql);
        for (RowRule r : rules.rows()) out.add(qualified(r.table()));
        for (KeyRule k : rules.keys()) {
            out.add(qualified(k.table()));
            if (k.refTable() != null) out.add(qualified(k.refTable()));
        }
        return out;
    }

    /** The tables the SQL checks name ({@link #tablesRead}'s rule), null when one may read tables it does not name. */
    static Set<String> sqlTablesRead(DuckDbPool pool, Rules rules) {
        Set<String> out = new java.util.HashSet<>();
        if (rules.sql().isEmpty()) return out;
        try (java.sql.Connection duck = pool.connection()) {
            for (SqlCheck c : rules.sql()) {
                Set<String> named = dev.fdl.ducklake.engine.QueryTables.named(duck, c.sql());
                if (named == null) return null;
                out.addAll(named);
            }
        } catch (java.sql.SQLException e) {
            return null; // every table: always right, only slower
        }
        return out;
    }

    /** A resource name ({@link dev.fdl.dataset.TableFacts#resourceName}) as lower-case {@code schema.table}. */
    static String qualified(String resource) {
        String q = resource.contains(".") ? resource : "main." + resource;
        return dev.fdl.ducklake.engine.Identifiers.fold(q);
    }

    /**
     * Everything a check runs (the SQL of {@code fdl:checks} travels with the dataset and runs with
     * the rights of whoever checks it) reads the version's catalog and data files and nothing else:
     * no other file or URL, no extension, no setting ({@link DuckDbPool#confine}). The data path is
     * local (a remote repository's files are mirrored first, {@link RepoChecks}).
     */
    private static void confine(BuiltInReader reader, Target target, String dataPath) {
        String data = dev.fdl.ducklake.format.DuckLakePaths.dataPath(dataPath);
        try {
            DuckDbPool.confine(reader.connection(), List.of(data), List.of(target.catalog().toAbsolutePath().toString()));
        } catch (java.sql.SQLException e) {
            throw new dev.fdl.FdlException(dev.fdl.FdlException.Kind.FAILURE, "cannot confine the checks' DuckDB to the version's files ("
                    + dev.fdl.ducklake.engine.DuckDbErrors.firstLine(e) + "); nothing was checked", e);
        }
    }
}
