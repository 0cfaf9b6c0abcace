package dev.fdl.ducklake.engine;

import dev.fdl.FdlException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemoryBudgetTest {
    @TempDir Path dir;

    @Test
    void sizesReadAsDuckDbReadsThem() {
        assertThat(MemoryBudget.parse("512MB", "--memory")).isEqualTo(512_000_000L);
        assertThat(MemoryBudget.parse("2gb", "--memory")).isEqualTo(2_000_000_000L);
        assertThat(MemoryBudget.parse("1.5GiB", "--memory")).isEqualTo(1_610_612_736L);
        assertThat(MemoryBudget.parse(" 100000000 ", "--memory")).isEqualTo(100_000_000L);
        assertThatThrownBy(() -> MemoryBudget.parse("2 lots", "FDL_MEMORY")).isInstanceOf(FdlException.class)
                .hasMessageContaining("FDL_MEMORY '2 lots' is not a size");
        assertThatThrownBy(() -> MemoryBudget.parse("1MB", "--memory")).hasMessageContaining("below");
    }

    @Test
    void threadsFollowTheBudgetAndTheOptionWinsOverTheEnvironment() {
        assertThat(MemoryBudget.of(64_000_000L, null).threads()).isEqualTo(1);
        assertThat(MemoryBudget.of(100L << 30, null).threads()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(MemoryBudget.resolve("100MB", "2GB", null).bytes()).isEqualTo(100_000_000L);
        assertThat(MemoryBudget.resolve(null, "2GB", null).bytes()).isEqualTo(2_000_000_000L);
        assertThat(MemoryBudget.resolve(null, null, null).bytes()).isEqualTo((long) (MemoryBudget.available() * MemoryBudget.DEFAULT_SHARE));
    }

    @Test
    void cgroupLimitsReadV1AndV2Spellings() throws Exception {
        Path f = dir.resolve("memory.max");
        Files.writeString(f, "max\n");
        assertThat(MemoryBudget.cgroupLimit(f)).isEqualTo(Long.MAX_VALUE);
        Files.writeString(f, "2147483648\n");
        assertThat(MemoryBudget.cgroupLimit(f)).isEqualTo(2147483648L);
        Files.writeString(f, "9223372036854771712\n"); // v1's "unlimited"
        assertThat(MemoryBudget.cgroupLimit(f)).isEqualTo(Long.MAX_VALUE);
        assertThat(MemoryBudget.cgroupLimit(dir.resolve("absent"))).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theProcessesOwnCgroupAndItsParentsLimitItV1AndV2() throws Exception {
        Path root = dir.resolve("cgroup");
        Path v1 = Files.createDirectories(root.resolve("memory/jobs/bench"));
        Files.writeString(root.resolve("memory/memory.limit_in_bytes"), "9223372036854771712\n");
        Files.writeString(root.resolve("memory/jobs/memory.limit_in_bytes"), "4294967296\n");
        Files.writeString(v1.resolve("memory.limit_in_bytes"), "2147483648\n");
        String v1Self = "9:pids:/\n4:memory:/jobs/bench\n1:cpu:/\n0::/\n";
        assertThat(MemoryBudget.cgroupLimit(root, v1Self)).isEqualTo(2147483648L);
        assertThat(MemoryBudget.cgroupLimit(root, v1Self.replace("/jobs/bench", "/jobs"))).isEqualTo(4294967296L);
        assertThat(MemoryBudget.cgroupLimit(root, v1Self.replace("/jobs/bench", "/elsewhere"))).isEqualTo(Long.MAX_VALUE);
        Path v2 = Files.createDirectories(dir.resolve("unified/user.slice/job"));
        Files.writeString(v2.resolve("memory.max"), "1073741824\n");
        Files.writeString(v2.getParent().resolve("memory.max"), "max\n");
        assertThat(MemoryBudget.cgroupLimit(dir.resolve("unified"), "0::/user.slice/job\n")).isEqualTo(1073741824L);
        assertThat(MemoryBudget.cgroupLimit(dir.resolve("unified"), "0::/user.slice\n")).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aBudgetedLendingGetsTheSettingsAndTheNextLendingIsAsNew() throws Exception {
        DuckDbPool pool = new DuckDbPool(2);
        MemoryBudget b = MemoryBudget.of(100_000_000L, dir.resolve("spill"));
        try (Connection c = pool.within(b).connection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT current_setting('memory_limit'), current_setting('threads'), current_setting('temp_directory')")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("95.3 MiB");
            assertThat(rs.getInt(2)).isEqualTo(1);
            assertThat(rs.getString(3)).isEqualTo(dir.resolve("spill").toString());
        }
        try (Connection c = pool.connection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT current_setting('temp_directory')")) {
            rs.next();
            assertThat(rs.getString(1)).doesNotContain("spill");
        }
        assertThat(pool.created()).isEqualTo(1);
    }
}
