package dev.fdl.repo;

import dev.fdl.FdlException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The token reader of version.json reads what the tree reader reads (SPEC.md section 3): the same
 * version for every file of fdl's shape, and for any other file nothing, so that the tree reader's
 * error is the one shown.
 */
class VersionJsonTokensTest {
    private static final String SPEC = RepositoryFilesTest.VERSION;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Files of fdl's shape, written in other ways: the token reader takes each, and reads what the tree reader reads. */
    @Test
    void readsWhatTheTreeReaderReads() {
        List<String> files = List.of(
                SPEC,
                new String(VersionInfo.parseTree(utf8(SPEC), "f").toBytes(), StandardCharsets.UTF_8),
                SPEC.replace(", \"email\": \"bob@example.org\"", ""),
                SPEC.replace("\"email\": \"bob@example.org\"", "\"email\": null"),
                SPEC.replace("\"message\": \"Add a note column\"", "\"message\": \"a\\nb \\\"c\\\" \\u00e9t\\u00e9 \\ud83d\\ude00\""),
                SPEC.replace("{\"name\": \"bob\",", "{\"uid\": [1, {\"x\": 2}], \"name\": \"bob\","),
                SPEC.replace("\"sha256\": \"ab\"}", "\"sha256\": \"ab\", \"extra\": {\"a\": [1]}}"),
                SPEC.replace("\"dataset\": {\"path\"", "\"dataset\": {\"storage\": 7, \"path\""),
                SPEC.replace("\"snapshots\": [8, 12]", "\"snapshots\": [8, 12], \"tables\": 3"),
                SPEC.replace("\"seq\": 2,", "\"seq\": 9, \"seq\": 2,"),
                SPEC.replace("\"seq\": 2,", "\"seq\": 9007199254740993,"),
                SPEC.replace("\"parents\": [\"019a2f10-0c4d-7e88-a1b2-55c0d9e3f7aa\"]", "\"parents\": []"),
                SPEC.replace("\"parents\": [\"019a2f10-0c4d-7e88-a1b2-55c0d9e3f7aa\"]",
                        "\"parents\": [\"019a2f10-0c4d-7e88-a1b2-55c0d9e3f7aa\", \"019a2f10-0c4d-7e88-a1b2-55c0d9e3f7ab\"]"),
                SPEC.replace("2026-10-15T09:00:00Z", "2026-10-15T09:00:00.123456Z"),
                SPEC.replace("2026-10-15T09:00:00Z", "2026-10-15T09:00:00+01:00"),
                SPEC.replaceFirst("\\{", "{\"checks\": {\"warnings\": [{\"check\": \"c\", \"count\": 2}], \"ratio\": 0.5, \"ok\": true, \"n\": null}, "),
                // keys in another order: ducklake first, fdl last
                "{" + SPEC.substring(SPEC.indexOf("\"ducklake\""), SPEC.indexOf("\"x_publisher\"")) + SPEC.substring(SPEC.indexOf("{") + 1, SPEC.indexOf("\"ducklake\""))
                        + SPEC.substring(SPEC.indexOf("\"x_publisher\"")).replace("} }", "}, \"fdl\": \"0.1.3\" }"));
        for (String file : files) {
            VersionInfo tokens = VersionJsonTokens.read(utf8(file), "f");
            assertThat(tokens).as(file).isNotNull().isEqualTo(VersionInfo.parseTree(utf8(file), "f"));
            assertThat(VersionInfo.parse(utf8(file), "f")).isEqualTo(tokens);
        }
        VersionInfo v = VersionJsonTokens.read(utf8(SPEC), "f");
        assertThat(v.parents()).containsExactly("019a2f10-0c4d-7e88-a1b2-55c0d9e3f7aa");
        assertThat(v.catalog()).isEqualTo(new VersionInfo.FileRef("ducklake.duckdb", "duckdb-v1.5.0", 4194304, "ab"));
        assertThat(v.dataset()).isEqualTo(new VersionInfo.FileRef("dataset.json", null, 2048, "cd"));
        assertThat(v.ducklake()).isEqualTo(new VersionInfo.DuckLakeInfo("1.0", 12, 8, 12));
        assertThat(v.createdAt()).hasToString("2026-10-15T09:00:00Z");
        assertThat(v.extra()).containsOnlyKeys("x_publisher");
    }

    /** Files the tree reader refuses, or reads through a path of its own: the token reader leaves them to it, so its error is shown. */
    @Test
    void leavesEveryOtherFileToTheTreeReader() {
        List<String> files = List.of(
                "", "[1]", "{", SPEC + " {}", SPEC.replace("\"seq\": 2,", ""), SPEC.replace("\"seq\": 2,", "\"seq\": \"2\","),
                SPEC.replace("\"seq\": 2,", "\"seq\": 2.0,"), SPEC.replace("\"seq\": 2,", "\"seq\": 99999999999999999999,"),
                SPEC.replace("\"seq\": 2,", "\"seq\": 2, \"seq\": null,"), SPEC.replace("\"id\": ", "\"id\": 1, \"x\": "),
                SPEC.replace("\"bytes\": 2048", "\"bytes\": \"2k\""), SPEC.replace("[8, 12]", "[8]"), SPEC.replace("[8, 12]", "[8, 12, 13]"),
                SPEC.replace("[8, 12]", "[8, 1e3]"), SPEC.replace("2026-10-15T09:00:00Z", "yesterday"),
                SPEC.replace("\"name\": \"bob\", ", ""),
                SPEC.replace("\"bob@example.org\"", "7"), SPEC.replace("\"storage\": \"duckdb-v1.5.0\", ", ""),
                SPEC.replace("[\"019a2f10-0c4d-7e88-a1b2-55c0d9e3f7aa\"]", "[1]"), SPEC.replace("[\"019a2f10-0c4d-7e88-a1b2-55c0d9e3f7aa\"]", "\"x\""),
                SPEC.replace("\"format\": \"1.0\", ", ""), SPEC.replace("\"message\": \"Add a note column\"", "\"message\": null"),
                SPEC.replace("\"author\": {", "\"author\": [{").replace("\"bob@example.org\"}", "\"bob@example.org\"}]"));
        for (String file : files) {
            assertThat(VersionJsonTokens.read(utf8(file), "f")).as(file).isNull();
            Throwable tree = catchThrowable(() -> VersionInfo.parseTree(utf8(file), "f"));
            Throwable both = catchThrowable(() -> VersionInfo.parse(utf8(file), "f"));
            if (tree == null) assertThat(VersionInfo.parse(utf8(file), "f")).as(file).isEqualTo(VersionInfo.parseTree(utf8(file), "f"));
            else assertThat(both).as(file).isInstanceOf(FdlException.class).hasMessage(tree.getMessage());
        }
    }

    /** Values refused in a file of fdl's shape: the same errors as the tree reader's, in its order. */
    @Test
    void refusesWhatTheTreeReaderRefuses() {
        for (String file : List.of(SPEC.replace("\"0.1\"", "\"0.2\""), SPEC.replace("\"ducklake.duckdb\"", "\"../x\""),
                SPEC.replace("\"dataset.json\"", "\"/etc/passwd\""), SPEC.replace("\"0.1\"", "\"9.9\"").replace("\"ducklake.duckdb\"", "\"../x\""))) {
            Throwable tree = catchThrowable(() -> VersionInfo.parseTree(utf8(file), "versions/x/version.json"));
            assertThat(tree).as(file).isInstanceOf(FdlException.class);
            assertThat(catchThrowable(() -> VersionJsonTokens.read(utf8(file), "versions/x/version.json"))).as(file)
                    .isInstanceOf(FdlException.class).hasMessage(tree.getMessage());
        }
    }
}
