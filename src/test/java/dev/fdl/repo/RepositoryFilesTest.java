package dev.fdl.repo;

import dev.fdl.FdlException;
import dev.fdl.workingcopy.Authors;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** SPEC.md section 3: strict parsing naming file and key; unknown keys kept on read-modify-write. */
class RepositoryFilesTest {
    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static final String VERSION = """
            { "fdl": "0.1", "id": "019a3c4e-7b21-7f3a-9c55-2f0d8e1a4b6c", "seq": 2, "parents": ["019a2f10-0c4d-7e88-a1b2-55c0d9e3f7aa"],
              "created_at": "2026-10-15T09:00:00Z", "author": {"name": "bob", "email": "bob@example.org"},
              "message": "Add a note column",
              "catalog": {"path": "ducklake.duckdb", "storage": "duckdb-v1.5.0", "bytes": 4194304, "sha256": "ab"},
              "dataset": {"path": "dataset.json", "bytes": 2048, "sha256": "cd"},
              "ducklake": {"format": "1.0", "snapshot_id": 12, "snapshots": [8, 12]},
              "x_publisher": {"team": "geo"} }
            """;

    @Test
    void versionJsonOfTheSpecParsesAndKeepsUnknownKeys() {
        VersionInfo v = VersionInfo.parse(utf8(VERSION), "versions/x/version.json");
        assertThat(v.seq()).isEqualTo(2);
        assertThat(v.author().email()).isEqualTo("bob@example.org");
        assertThat(v.ducklake().firstSnapshot()).isEqualTo(8);
        VersionInfo again = VersionInfo.parse(v.toBytes(), "again");
        assertThat(again).isEqualTo(v);
        assertThat(new String(v.toBytes(), StandardCharsets.UTF_8)).contains("\"x_publisher\"").contains("\"team\" : \"geo\"");
    }

    @Test
    void theChecksKeyIsKeptAsAnyUnknownKeyAndItsWarningsRead() {
        String withChecks = VERSION.replaceFirst("\\{", "{\"checks\": {\"checked\": 3, \"warned\": 1, \"mode\": \"full\", "
                + "\"warnings\": [{\"check\": \"guard: t keeps its rows\", \"count\": 1, \"detail\": \"10 rows -> 1\"}, "
                + "{\"check\": \"check 'w'\", \"count\": 4}], \"held\": []}, ");
        VersionInfo v = VersionInfo.parse(utf8(withChecks), "versions/x/version.json");
        assertThat(v.checkWarnings()).containsExactly("guard: t keeps its rows: 10 rows -> 1", "check 'w' (4 rows)");
        assertThat(VersionInfo.parse(v.toBytes(), "again")).isEqualTo(v);
        // an older fdl's view: the key is one of the extras, kept on rewrite
        assertThat(v.extra()).containsKey(VersionInfo.CHECKS);
        // a value of another shape is not ours to refuse: no warnings, still readable
        VersionInfo odd = VersionInfo.parse(utf8(VERSION.replaceFirst("\\{", "{\"checks\": [1], ")), "f");
        assertThat(odd.checkWarnings()).isEmpty();
        assertThat(VersionInfo.parse(utf8(VERSION), "f").checks()).isEmpty();
    }

    @Test
    void missingOrIllTypedKeysAreNamedWithTheFile() {
        assertThatThrownBy(() -> VersionInfo.parse(utf8(VERSION.replace("\"seq\": 2,", "")), "versions/x/version.json"))
                .isInstanceOf(FdlException.class).hasMessageContaining("versions/x/version.json").hasMessageContaining("missing key 'seq'");
        assertThatThrownBy(() -> VersionInfo.parse(utf8(VERSION.replace("\"bytes\": 2048", "\"bytes\": \"2k\"")), "f"))
                .hasMessageContaining("'bytes' must be an integer");
        assertThatThrownBy(() -> VersionInfo.parse(utf8(VERSION.replace("[8, 12]", "[8]")), "f"))
                .hasMessageContaining("ducklake.snapshots");
        assertThatThrownBy(() -> VersionInfo.parse(utf8(VERSION.replace("2026-10-15T09:00:00Z", "yesterday")), "f"))
                .hasMessageContaining("created_at");
        assertThatThrownBy(() -> VersionInfo.parse(utf8("[1]"), "f")).hasMessageContaining("expected a JSON object");
    }

    @Test
    void fdlJsonIsStrictAboutFormatAndDataDir() {
        RepoConfig c = RepoConfig.parse(utf8("{\"fdl\": \"0.1\", \"id\": \"x\", \"data_dir\": \"data/\", \"owner\": \"geo\"}"));
        assertThat(new String(c.toBytes(), StandardCharsets.UTF_8)).contains("\"owner\" : \"geo\"");
        assertThat(RepoConfig.parse(utf8("{\"fdl\": \"0.1.7\", \"id\": \"x\", \"data_dir\": \"lake/files/\"}")).dataDir()).isEqualTo("lake/files/");
        for (String bad : new String[]{"/abs/", "data", "../data/", "s3://b/data/", "a//b/", "./data/"})
            assertThatThrownBy(() -> RepoConfig.parse(utf8("{\"fdl\": \"0.1\", \"id\": \"x\", \"data_dir\": \"" + bad + "\"}")))
                    .as(bad).hasMessageContaining("fdl.json").hasMessageContaining("data_dir");
        assertThatThrownBy(() -> RepoConfig.parse(utf8("{\"fdl\": \"1.0\", \"id\": \"x\", \"data_dir\": \"data/\"}")))
                .hasMessageContaining("not supported");
    }

    @Test
    void expiredJsonRoundTrips() {
        ExpiredInfo e = ExpiredInfo.parse(utf8("{\"expired_at\": \"2026-12-01T01:00:00+01:00\", \"reason\": \"retention\", \"by\": \"cron\"}"), "f");
        assertThat(e.expiredAt()).hasToString("2026-12-01T00:00:00Z");
        assertThat(ExpiredInfo.parse(e.toBytes(), "g")).isEqualTo(e);
        assertThatThrownBy(() -> ExpiredInfo.parse(utf8("{\"reason\": \"retention\"}"), "versions/y/expired.json"))
                .hasMessageContaining("versions/y/expired.json").hasMessageContaining("'expired_at'");
    }

    @Test
    void authorsAreParsedGitStyle() {
        assertThat(Authors.parse("Ann Lee <ann@example.org>")).isEqualTo(new VersionInfo.Author("Ann Lee", "ann@example.org"));
        assertThat(Authors.parse("bot")).isEqualTo(new VersionInfo.Author("bot", null));
        assertThatThrownBy(() -> Authors.parse("<only@mail>")).isInstanceOf(FdlException.class);
        assertThat(Authors.resolve("x <y@z>").name()).isEqualTo("x");
        assertThat(Authors.resolve(null).name()).isNotBlank();
    }
}
