package dev.fdl.ducklake.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A command's scope: the static {@link DuckDbPool#connect()} lends under the scope's budget, on the
 * thread that entered it and on threads it starts; outside a scope it lends DuckDB's defaults, and
 * with {@link RunScope#refuseUnbudgeted()} not at all.
 */
@Isolated("refuses DuckDB without a budget on every thread it starts, which would fail other tests running beside it")
class RunScopeTest {
    @TempDir Path tmp;

    private static String memoryLimit() throws SQLException {
        try (Connection c = DuckDbPool.connect(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT current_setting('memory_limit')")) {
            r.next();
            return r.getString(1);
        }
    }

    @Test
    void connectInsideAScopeIsUnderItsBudgetAlsoOnThreadsItStarts() throws Exception {
        MemoryBudget budget = MemoryBudget.of(77L << 20, tmp.resolve("spill"));
        String outside = memoryLimit();
        int[] asked = new int[1];
        try (RunScope.Scope s = RunScope.enter(() -> {
            asked[0]++;
            return DuckDbPool.shared().within(budget);
        })) {
            assertThat(asked[0]).as("the pool is made on first use").isZero();
            assertThat(memoryLimit()).isEqualTo("77.0 MiB");
            AtomicReference<Object> onThread = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    onThread.set(memoryLimit());
                } catch (SQLException e) {
                    onThread.set(e);
                }
            });
            t.start();
            t.join();
            assertThat(onThread.get()).isEqualTo("77.0 MiB");
            assertThat(asked[0]).as("made once").isEqualTo(1);
        }
        assertThat(memoryLimit()).isEqualTo(outside);
    }

    @Test
    void refusingUnbudgetedFailsALendingOutsideAScopeOnly() throws Exception {
        try (RunScope.Scope refuse = RunScope.refuseUnbudgeted()) {
            assertThatThrownBy(RunScopeTest::memoryLimit).isInstanceOf(SQLException.class).hasMessageContaining("without a memory budget");
            assertThatThrownBy(() -> DuckDbPool.shared().connection().close()).isInstanceOf(SQLException.class);
            try (RunScope.Scope s = RunScope.enter(() -> DuckDbPool.shared().within(MemoryBudget.of(64L << 20, null)))) {
                assertThat(memoryLimit()).isEqualTo("64.0 MiB");
            }
        }
    }
}
