package dev.fdl.ducklake.engine;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The DuckDB pool of the command running on this thread, so that the static utilities that open
 * DuckDB without being handed a pool (catalog conversion on checkout and commit, catalog
 * inspection, the site's previews: {@link DuckDbPool#connect()}) still run under the command's
 * {@link MemoryBudget}. The CLI enters a scope around each command it executes, with its
 * {@code CommandContext}'s pool as a supplier, asked for only when DuckDB is first needed (the
 * light commands never load DuckDB). Threads the command starts inherit the scope.
 *
 * <p>Kept apart from {@link DuckDbPool} so that entering a scope loads no DuckDB class.
 */
public final class RunScope {
    private static final InheritableThreadLocal<Supplier<DuckDbPool>> POOL = new InheritableThreadLocal<>();
    private static final InheritableThreadLocal<AtomicBoolean> REFUSE_UNBUDGETED = new InheritableThreadLocal<>();

    private RunScope() {}

    /** An entered scope; closing it restores the one before. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Until the returned scope is closed, {@link DuckDbPool#connect()} on this thread (and on
     * threads it starts) lends from {@code pool.get()}, asked once on first use.
     */
    public static Scope enter(Supplier<DuckDbPool> pool) {
        Supplier<DuckDbPool> before = POOL.get();
        DuckDbPool[] made = new DuckDbPool[1];
        boolean[] closed = new boolean[1];
        // a thread started inside the scope keeps this supplier after the scope closes (worker
        // pools outlive commands): once closed it answers null, as outside any scope
        POOL.set(() -> {
            synchronized (made) {
                if (closed[0]) return null;
                if (made[0] == null) made[0] = java.util.Objects.requireNonNull(pool.get(), "pool");
                return made[0];
            }
        });
        return () -> {
            synchronized (made) {
                closed[0] = true;
            }
            POOL.set(before);
        };
    }

    /**
     * For tests proving that every DuckDB a command opens is under its budget: until the returned
     * scope is closed, a lending on this thread (and threads it starts) that no budget applies to
     * fails with an {@link java.sql.SQLException} naming this rule. It also leaves any scope this
     * thread inherited (a worker thread started inside another test's scope keeps it), so only
     * scopes entered inside it count.
     */
    public static Scope refuseUnbudgeted() {
        AtomicBoolean before = REFUSE_UNBUDGETED.get();
        AtomicBoolean refusing = new AtomicBoolean(true);
        Supplier<DuckDbPool> pool = POOL.get();
        REFUSE_UNBUDGETED.set(refusing);
        POOL.remove();
        return () -> {
            refusing.set(false); // threads started inside keep the flag: it must end for them too
            REFUSE_UNBUDGETED.set(before);
            POOL.set(pool);
        };
    }

    /** The pool of the scope this thread is in, or null outside any. */
    static DuckDbPool pool() {
        Supplier<DuckDbPool> p = POOL.get();
        return p == null ? null : p.get();
    }

    /** Whether a lending without a budget must fail ({@link #refuseUnbudgeted()}). */
    static boolean refusingUnbudgeted() {
        AtomicBoolean r = REFUSE_UNBUDGETED.get();
        return r != null && r.get();
    }
}
