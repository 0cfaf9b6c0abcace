package dev.fdl.check;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.ducklake.CatalogKind;
import dev.fdl.ducklake.ImportMode;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.catalog.EmptyCatalog;
import dev.fdl.ducklake.convert.CatalogConverter;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.load.ImportRequest;
import dev.fdl.ducklake.load.sync.Syncer;
import dev.fdl.store.LocalStore;
import dev.fdl.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checks ask for the data files of the tables they read only (a remote repository's are
 * fetched into a mirror, {@link RepoChecks}): those of the row and key constraints and of the
 * tables an SQL check names; every table when an SQL check may read others; none without a check
 * that reads rows.
 */
class ChecksReadTablesTest {
    @TempDir Path dir;

    private static final PrintWriter NOWHERE = new PrintWriter(new StringWriter());

    @Test
    void checksAskForTheFilesOfTheTablesTheyRead() throws Exception {
        Path catalog = twoTables();
        assertThat(asked(catalog, """
                {"name": "d", "resources": [{"name": "a", "schema": {"fields": [{"name": "x", "constraints": {"minimum": 0}}]}}]}
                """)).containsExactly(Set.of("main.a"));
        assertThat(asked(catalog, """
                {"name": "d", "resources": [], "fdl:checks": [{"name": "b small", "sql": "SELECT * FROM B WHERE x > 100"}]}
                """)).containsExactly(Set.of("main.b"));
        assertThat(asked(catalog, """
                {"name": "d", "resources": [], "fdl:checks": [{"name": "any", "sql": "SELECT * FROM query_table('b') WHERE x > 100"}]}
                """)).as("a table function may read any table").containsExactly((Set<String>) null);
        assertThat(asked(catalog, """
                {"name": "d", "resources": []}
                """)).as("no check reads rows").isEmpty();
    }

    @Test
    void aCheckOnOneTableFindsItsViolationsWithOnlyThatTablesFilesAtHand() throws Exception {
        Path catalog = twoTables();
        Path onlyA = dir.resolve("only-a");
        // a data folder holding table a's files only: what a mirror holds after fetching them
        Path data = dir.resolve("repo/data");
        try (var files = Files.walk(data.resolve("main/a"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Path to = onlyA.resolve(data.relativize(f).toString());
                Files.createDirectories(to.getParent());
                Files.copy(f, to);
            }
        }
        ObjectNode d = (ObjectNode) Json.MAPPER.readTree("""
                {"name": "d", "resources": [{"name": "a", "schema": {"fields": [{"name": "x", "constraints": {"maximum": 1}}]}}]}
                """);
        CheckReport r = Checks.run(DuckDbPool.shared(), new Checks.Target(catalog, onlyA.toAbsolutePath() + "/", d, "dataset.json"),
                null, Checks.Options.DEFAULT, List.of(), NOWHERE);
        assertThat(r.failed()).singleElement().satisfies(c -> assertThat(c.count()).isEqualTo(1));
    }

    /** The tables asked for by each call of the target's data path, running every check of {@code descriptor}. */
    private List<Set<String>> asked(Path catalog, String descriptor) throws Exception {
        List<Set<String>> asked = new ArrayList<>();
        String local = dir.resolve("repo/data").toAbsolutePath() + "/";
        Checks.Target target = new Checks.Target(catalog, (Checks.DataPath) tables -> {
            asked.add(tables);
            return local;
        }, (ObjectNode) Json.MAPPER.readTree(descriptor), "dataset.json");
        CheckReport r = Checks.run(DuckDbPool.shared(), target, null, Checks.Options.DEFAULT, List.of(), NOWHERE);
        assertThat(r.failed()).isEmpty();
        return asked;
    }

    /** A DuckDB catalog of tables a (x: 0, 1, 2) and b (x: 10, 20), data files in {@code dir/repo/data}. */
    private Path twoTables() throws Exception {
        LocalStore store = new LocalStore(Files.createDirectories(dir.resolve("repo")));
        Path sqlite = dir.resolve("w.sqlite");
        EmptyCatalog.create(sqlite, CatalogKind.SQLITE, store.location("data/"));
        load(store, sqlite, "a", "x\n0\n1\n2\n");
        load(store, sqlite, "b", "x\n10\n20\n");
        Path duck = dir.resolve("w.duckdb");
        CatalogConverter.convert(sqlite, duck, CatalogKind.DUCKDB, ProgressListener.NONE);
        return duck;
    }

    private void load(LocalStore store, Path catalog, String table, String csv) throws Exception {
        Path file = Files.createTempFile(dir, "src-", ".csv");
        Files.writeString(file, csv);
        new Syncer(DuckDbPool.shared()).sync(ImportRequest.of(catalog, store, "data/", file, table, ImportMode.SYNC)
                .withAuthor("tester").withMessage("load " + table));
    }
}
