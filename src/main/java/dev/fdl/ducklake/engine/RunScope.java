package dev.fdl.ducklake.engine;

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
    private static final InheritableThreadLocal<Boolean> REFUSE_UNBUDGETED = new InheritableThreadLocal<>();

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
        POOL.set(() -> {
            synchronized (made) {
                if (made[0] == null) made[0] = java.util.Objects.requireNonNull(pool.get(), "pool");
                return made[0];
            }
        });
        return () -> POOL.set(before);
    }

    /**
     * For tests proving that every DuckDB a command opens is under its budget: until the returned
     * scope is closed, a lending on this thread (and threads it starts) that no budget applies to
     * fails with an {@link java.sql.SQLException} naming this rule.
     */
    public static Scope refuseUnbudgeted() {
        Boolean before = REFUSE_UNBUDGETED.get();
        REFUSE_UNBUDGETED.set(Boolean.TRUE);
        return () -> REFUSE_UNBUDGETED.set(before);
    }

    /** The pool of the scope this thread is in, or null outside any. */
    static DuckDbPool pool() {
        Supplier<DuckDbPool> p = POOL.get();
        return p == null ? null : p.get();
    }

    /** Whether a lending without a budget must fail ({@link #refuseUnbudgeted()}). */
    static boolean refusingUnbudgeted() {
        return Boolean.TRUE.equals(REFUSE_UNBUDGETED.get());
    }
}
