package dev.fdl.ducklake.engine;

import dev.fdl.util.SqlQuote;
import org.duckdb.DuckDBConnection;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * A process-wide pool of exclusive in-memory DuckDB instances (opening one is costly,
 * DuckDB registering its whole function catalog, and a commit opens several: README, Development).
 * {@link #connect} lends one instance, as a fresh connection of it, to one user at a time; closing
 * that connection gives the instance back. Before an instance is lent again it is made to look
 * exactly like a new one: everything the user attached is detached, what it created in the
 * in-memory database dropped, global settings it changed reset; an instance whose user saw any
 * {@link SQLException}, loaded an extension, created a secret or macro, or that cannot be verified
 * clean is closed, never lent again. Exclusive lending keeps every user's ATTACH aliases free.
 * Instances are created lazily: a command that needs no DuckDB never loads it.
 */
public final class DuckDbPool {
    /**
     * Eight idle instances: an idle one holds about 1.5 MB; with four, the parallel test suite
     * (up to eight users at once, a reader open while a conversion runs) discarded every sixth.
     */
    private static final DuckDbPool SHARED = new DuckDbPool(8);

    static {
        // idle instances hold native threads; close them before the process ends
        Runtime.getRuntime().addShutdownHook(new Thread(SHARED::closeIdle, "fdl-duckdb-pool-close"));
    }

    /** The settings a {@link MemoryBudget} sets ({@link MemoryBudget#statements()}). */
    private static final List<String> BUDGET_SETTINGS = List.of("memory_limit", "threads", "temp_directory");

    /**
     * SQL that may create a macro: the one object the checks cannot see cheaply ({@code
     * duckdb_functions()} costs as much CPU as a new instance), so its instance is not reused.
     */
    private static final Pattern UNCHECKED = Pattern.compile("(?is)\\bcreate\\b.*\\b(macro|function)\\b");

    private final int maxIdle;
    private final Map<String, ArrayDeque<Instance>> idle = new HashMap<>();
    private int idleCount; // guarded by idle
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong lent = new AtomicLong();
    private final AtomicLong discarded = new AtomicLong();
    private final AtomicLong inDoubt = new AtomicLong();
    private final AtomicLong unclean = new AtomicLong();

    /** The pool whose instances this one lends (itself when null), and the budget applied to each lending. */
    private final DuckDbPool base;
    private final MemoryBudget budget;

    /** A pool keeping at most {@code maxIdle} idle instances, all configurations together (0: never reuse). */
    DuckDbPool(int maxIdle) {
        this.maxIdle = maxIdle;
        this.base = null;
        this.budget = null;
    }

    private DuckDbPool(DuckDbPool base, MemoryBudget budget) {
        this.maxIdle = 0;
        this.base = base;
        this.budget = budget;
    }

    /**
     * This pool's instances, each lent with {@code budget} applied ({@link MemoryBudget#statements()}:
     * memory limit, threads, spill folder). The instances are shared with lendings under other
     * budgets or none: an idle instance keeps the budget it was last lent under, is preferred by
     * lendings under the same one (no statement to run), and is given the settings of another
     * budget, or DuckDB's defaults, when lent under those.
     */
    public DuckDbPool within(MemoryBudget budget) {
        return new DuckDbPool(base != null ? base : this, java.util.Objects.requireNonNull(budget, "budget"));
    }

    /** The budget each lending gets, or null: DuckDB's defaults. */
    public MemoryBudget budget() {
        return budget;
    }

    /**
     * A connection to an in-memory DuckDB of its own, as {@code DriverManager.getConnection("jdbc:duckdb:")}
     * would give, lent by {@link #current()}: the pool of the command running on this thread (so
     * under its memory budget), else the process-wide pool. Close it when done (try-with-resources); it must
     * not be used after. Only for the few static utilities not handed a pool yet (their list is
     * OneHomePerRuleTest's); everything else borrows through {@link #connection()} of the pool it
     * was given.
     *
     * @throws SQLException when DuckDB cannot start
     */
    public static Connection connect() throws SQLException {
        return current().lend(new Properties());
    }

    /**
     * As {@link #connect()}, with DuckDB configuration options given at startup (for example
     * {@code jdbc_stream_results}, {@code autoload_known_extensions}); instances are pooled per
     * distinct configuration.
     *
     * @throws SQLException when DuckDB cannot start with {@code config}
     */
    public static Connection connect(Properties config) throws SQLException {
        return current().lend(config);
    }

    /**
     * The pool of the command running on this thread ({@link RunScope#enter}: the process-wide
     * pool under the command's {@link MemoryBudget}), else the process-wide pool itself.
     */
    public static DuckDbPool current() {
        DuckDbPool p = RunScope.pool();
        return p != null ? p : SHARED;
    }

    /**
     * The process-wide pool, for the one place that makes the services of a run (the CLI's command
     * context) and for tests; everything below the CLI is handed a pool instead of reaching for it.
     */
    public static DuckDbPool shared() {
        return SHARED;
    }

    /**
     * A connection to an in-memory DuckDB instance lent by this pool, as {@link #connect()}
     * describes. Close it when done.
     *
     * @throws SQLException when DuckDB cannot start
     */
    public Connection connection() throws SQLException {
        return lend(new Properties());
    }

    /**
     * As {@link #connection()}, with DuckDB configuration options given at startup; instances are
     * pooled per distinct configuration.
     *
     * @throws SQLException when DuckDB cannot start with {@code config}
     */
    public Connection connection(Properties config) throws SQLException {
        return lend(config);
    }

    /**
     * Confines the instance behind {@code lent} (a connection this pool lent) to reading the files
     * under {@code directories} and the files {@code paths}, for SQL fdl did not write (a
     * dataset's {@code fdl:checks}): DuckDB's {@code allowed_directories} and {@code allowed_paths}
     * set, then {@code enable_external_access}, {@code autoinstall_known_extensions} and
     * {@code autoload_known_extensions} off, then {@code lock_configuration} on, so that nothing
     * run on it afterwards reads another file or URL, loads or installs an extension, or changes a
     * setting (a DuckDB "Permission Error" or "the configuration has been locked" instead).
     * Databases already attached and views already created keep working as long as their files lie
     * within. The instance is never lent again: closing {@code lent} closes it, since DuckDB turns
     * external access back on only at startup and a locked configuration refuses every {@code
     * RESET}, so it could not be made to look new (the cost is one instance opened by the next
     * user).
     *
     * @param directories local folders (absolute), read with everything under them
     * @param paths       single local files (absolute)
     * @throws SQLException when DuckDB refuses a setting; the instance is then closed at give-back all the same
     * @throws IllegalArgumentException when {@code lent} is not a connection lent by a pool
     */
    public static void confine(Connection lent, List<String> directories, List<String> paths) throws SQLException {
        if (!Proxy.isProxyClass(lent.getClass()) || !(Proxy.getInvocationHandler(lent) instanceof Tracked t)) {
            throw new IllegalArgumentException("not a connection lent by a DuckDbPool: " + lent);
        }
        t.lease().retired = true;
        try (Statement s = t.lease().connection.createStatement()) {
            s.execute("SET GLOBAL allowed_directories = " + list(directories));
            s.execute("SET GLOBAL allowed_paths = " + list(paths));
            s.execute("SET GLOBAL autoinstall_known_extensions = false");
            s.execute("SET GLOBAL autoload_known_extensions = false");
            s.execute("SET GLOBAL enable_external_access = false");
            s.execute("SET GLOBAL lock_configuration = true");
        }
    }

    private static String list(List<String> values) {
        return "[" + String.join(", ", values.stream().map(SqlQuote::literal).toList()) + "]";
    }

    /** Instances created so far. */
    long created() {
        return created.get();
    }

    /** Connections lent so far. */
    long lent() {
        return lent.get();
    }

    /** Instances closed so far because they could not be given to another user as new. */
    long discarded() {
        return discarded.get();
    }

    /** Closes every idle instance (lent ones are closed when given back). */
    void closeIdle() {
        List<Instance> all = new ArrayList<>();
        synchronized (idle) {
            for (ArrayDeque<Instance> q : idle.values()) {
                all.addAll(q);
                q.clear();
            }
            idleCount = 0;
        }
        for (Instance in : all) in.close();
    }

    Connection lend(Properties config) throws SQLException {
        if (base == null && RunScope.refusingUnbudgeted()) {
            throw new SQLException("DuckDB lent without a memory budget: take the command's pool (CommandContext.duckDb, DuckDbPool.current)");
        }
        return base != null ? base.lendInstance(config, budget.statements()) : lendInstance(config, null);
    }

    /**
     * Lends an instance of configuration {@code config} with the budget {@code statements} in
     * effect (null: DuckDB's defaults). An idle instance already under the same budget is
     * preferred: its settings stay as they are between lendings under one budget (a command's
     * lendings all share one), so only a change of budget runs statements.
     */
    private Connection lendInstance(Properties config, List<String> statements) throws SQLException {
        String key = new TreeMap<>(config).toString();
        Instance in = null;
        synchronized (idle) {
            ArrayDeque<Instance> q = idle.get(key);
            if (q != null) {
                for (java.util.Iterator<Instance> it = q.descendingIterator(); it.hasNext(); ) {
                    Instance i = it.next();
                    if (java.util.Objects.equals(i.applied, statements)) {
                        in = i;
                        it.remove();
                        break;
                    }
                }
                if (in == null) in = q.pollLast();
            }
            if (in != null) idleCount--;
        }
        if (in == null) {
            in = Instance.open(config);
            created.incrementAndGet();
        }
        DuckDBConnection c;
        try {
            in.apply(statements);
            c = in.root.duplicate();
        } catch (SQLException | RuntimeException e) {
            in.close();
            discarded.incrementAndGet();
            throw e;
        }
        lent.incrementAndGet();
        Lease lease = new Lease(this, key, in, c);
        lease.proxy = (Connection) Proxy.newProxyInstance(DuckDbPool.class.getClassLoader(), new Class<?>[]{Connection.class},
                new Tracked(lease, c));
        return lease.proxy;
    }

    private void giveBack(Lease lease) {
        boolean clean = !lease.doubt && !lease.retired;
        try {
            lease.connection.close();
        } catch (SQLException e) {
            clean = false;
        }
        if (!clean) inDoubt.incrementAndGet();
        if (clean && maxIdle > 0 && !lease.instance.reset()) {
            clean = false;
            unclean.incrementAndGet();
        }
        if (clean) {
            synchronized (idle) {
                if (idleCount < maxIdle) {
                    idle.computeIfAbsent(lease.key, k -> new ArrayDeque<>()).addLast(lease.instance);
                    idleCount++;
                    return;
                }
            }
        }
        lease.instance.close();
        discarded.incrementAndGet();
    }

    /** One DuckDB instance, kept alive by a root connection that runs only the pool's own checks. */
    private static final class Instance {
        final DuckDBConnection root;
        final Map<String, String> settings;
        final Set<String> extensions;
        /** The budget statements in effect (null: none), and the settings they left (what a clean give-back shows). */
        List<String> applied;
        Map<String, String> appliedSettings;

        private Instance(DuckDBConnection root) throws SQLException {
            this.root = root;
            this.settings = settings(root);
            this.extensions = new HashSet<>(Sql.strings(root, "SELECT extension_name FROM duckdb_extensions() WHERE loaded"));
        }

        static Instance open(Properties config) throws SQLException {
            Properties copy = new Properties();
            copy.putAll(config); // the driver removes the options it consumes
            DuckDBConnection root = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:", copy);
            try {
                return new Instance(root);
            } catch (SQLException | RuntimeException e) {
                root.close();
                throw e;
            }
        }

        /** Puts budget {@code statements} in effect (null: DuckDB's defaults), unless they already are. */
        void apply(List<String> statements) throws SQLException {
            if (java.util.Objects.equals(applied, statements)) return;
            if (applied != null) {
                for (String name : BUDGET_SETTINGS) exec("RESET GLOBAL " + name);
                applied = null;
                appliedSettings = null;
            }
            if (statements == null) return;
            for (String sql : statements) exec(sql);
            applied = List.copyOf(statements);
            appliedSettings = settings(root);
        }

        /** Undoes what a user left behind; false when the instance cannot be shown to be as new. */
        boolean reset() {
            try {
                for (String db : Sql.strings(root, "SELECT database_name FROM duckdb_databases() WHERE NOT internal AND database_name <> 'memory'")) {
                    exec("DETACH " + SqlQuote.ident(db));
                }
                for (String s : Sql.strings(root, "SELECT schema_name FROM duckdb_schemas() WHERE database_name = 'memory' AND NOT internal")) {
                    exec("DROP SCHEMA memory." + SqlQuote.ident(s) + " CASCADE");
                }
                for (String v : Sql.strings(root, "SELECT view_name FROM duckdb_views() WHERE database_name = 'memory' AND NOT internal")) {
                    exec("DROP VIEW memory.main." + SqlQuote.ident(v));
                }
                for (String t : Sql.strings(root, "SELECT table_name FROM duckdb_tables() WHERE database_name = 'memory'")) {
                    exec("DROP TABLE memory.main." + SqlQuote.ident(t) + " CASCADE");
                }
                Map<String, String> now = settings(root);
                if (applied != null && !now.equals(appliedSettings)) {
                    // changed beyond its budget: back to DuckDB's defaults, checked below like any other change
                    applied = null;
                    appliedSettings = null;
                }
                if (applied == null && !now.equals(settings)) {
                    for (Map.Entry<String, String> e : now.entrySet()) {
                        if (!java.util.Objects.equals(e.getValue(), settings.get(e.getKey()))) exec("RESET GLOBAL " + SqlQuote.ident(e.getKey()));
                    }
                    if (!settings(root).equals(settings)) return false;
                }
                List<String> left = Sql.strings(root, "SELECT 'database ' || database_name FROM duckdb_databases() WHERE NOT internal AND database_name <> 'memory' "
                        + "UNION ALL SELECT 'object ' || schema_name FROM duckdb_schemas() WHERE database_name = 'memory' AND NOT internal "
                        + "UNION ALL SELECT 'table ' || table_name FROM duckdb_tables() WHERE database_name = 'memory' "
                        + "UNION ALL SELECT 'view ' || view_name FROM duckdb_views() WHERE database_name = 'memory' AND NOT internal "
                        + "UNION ALL SELECT 'sequence ' || sequence_name FROM duckdb_sequences() "
                        + "UNION ALL SELECT 'type ' || type_name FROM duckdb_types() WHERE NOT internal "
                        + "UNION ALL SELECT 'index ' || index_name FROM duckdb_indexes() "
                        + "UNION ALL SELECT 'secret ' || name FROM duckdb_secrets() "
                        + "UNION ALL SELECT 'cached ' || path FROM duckdb_external_file_cache()");
                return left.isEmpty()
                        && new HashSet<>(Sql.strings(root, "SELECT extension_name FROM duckdb_extensions() WHERE loaded")).equals(extensions);
            } catch (SQLException | RuntimeException e) {
                return false;
            }
        }

        private void exec(String sql) throws SQLException {
            Sql.exec(root, sql);
        }

        void close() {
            try {
                root.close();
            } catch (SQLException ignored) {
                // an instance being thrown away; nothing of the user's depends on it
            }
        }

        private static Map<String, String> settings(Connection c) throws SQLException {
            Map<String, String> m = new HashMap<>();
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT name, value FROM duckdb_settings()")) {
                while (r.next()) m.put(r.getString(1), r.getString(2));
            }
            return m;
        }
    }

    /** One lending: the instance, its lent connection, and whether anything cast doubt on it. */
    private static final class Lease {
        final DuckDbPool pool;
        final String key;
        final Instance instance;
        final DuckDBConnection connection;
        Connection proxy;
        volatile boolean doubt;
        /** Set by {@link #confine}: the instance is closed at give-back, whatever it shows. */
        volatile boolean retired;
        private boolean returned;

        Lease(DuckDbPool pool, String key, Instance instance, DuckDBConnection connection) {
            this.pool = pool;
            this.key = key;
            this.instance = instance;
            this.connection = connection;
        }

        synchronized void giveBack() {
            if (returned) return;
            returned = true;
            pool.giveBack(this);
        }

        void sql(Object arg) {
            if (arg instanceof String s && UNCHECKED.matcher(s).find()) doubt = true;
        }
    }

    /**
     * Forwards calls to the lent connection and the statements and results it makes, noting
     * failures and unchecked SQL; {@code close} of the connection gives the instance back.
     */
    private record Tracked(Lease lease, Object target) implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (target instanceof Connection) {
                if (name.equals("close") && method.getParameterCount() == 0) {
                    lease.giveBack();
                    return null;
                }
                if (name.equals("unwrap") || name.equals("abort")) lease.doubt = true; // used outside our sight
            }
            if (args != null && args.length > 0 && !(target instanceof ResultSet)) lease.sql(args[0]);
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                lease.doubt = true;
                throw e.getCause();
            }
            Class<?> type = method.getReturnType();
            if (result == null || !type.isInterface()) return result;
            if (type == Connection.class) return lease.proxy; // Statement.getConnection: closing it gives the instance back
            // Results are not wrapped: catalogs are read value by value (a million rows of file column
            // stats on checkout), and a proxied getter would add a large share to the reading CPU. A failure while
            // reading leaves nothing in the instance: the connection is closed at give-back and the
            // instance must still show itself clean before it is lent again.
            if (type == Statement.class || type == PreparedStatement.class) {
                return Proxy.newProxyInstance(DuckDbPool.class.getClassLoader(), new Class<?>[]{type}, new Tracked(lease, result));
            }
            return result;
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "DuckDbPool[created=%d, lent=%d, discarded=%d (in doubt %d, not shown clean %d)]",
                created(), lent(), discarded(), inDoubt.get(), unclean.get());
    }
}
