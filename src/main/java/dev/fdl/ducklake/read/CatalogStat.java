package dev.fdl.ducklake.read;

import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.FdlException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import dev.fdl.ducklake.catalog.MetadataQueries;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.format.DuckLakePaths;

/**
 * Row counts of a DuckLake catalog's tables from the catalog alone, without opening any data file
 * ({@code fdl log --stat}): the rows a reader sees at the newest snapshot (record counts of the
 * visible data files minus their visible delete files' and inlined deletes' counts, plus visible
 * inlined rows; DUCKLAKE.md "Data"), and how many of them were added from a given snapshot on.
 */
public final class CatalogStat {
    private static final String ALIAS = "__fdl_stat";

    /** One table: rows at the newest snapshot, and rows added by data files and inlined rows that begin at or after {@code since}. */
    public record TableRows(String table, long rows, long added) {}

    private CatalogStat() {}

    /**
     * @param catalog a DuckDB-file catalog
     * @param since   the first snapshot whose additions count as added
     * @return per visible table ({@code schema.table}), in catalog order
     * @throws FdlException failure when the file is not a readable catalog
     */
    public static List<TableRows> of(Path catalog, long since) {
        if (!Files.isRegularFile(catalog)) throw FdlException.notFound("catalog file " + catalog + " does not exist");
        try (Connection duck = DuckDbPool.connect()) {
            Sql.attach(duck, catalog, ALIAS, true);
            return of(duck, ALIAS, catalog.toString(), since);
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot read catalog " + catalog + ": " + DuckDbErrors.firstLine(e), e);
        }
    }

    /**
     * {@link #of(Path, long)} for a catalog already attached as {@code alias} on {@code duck}
     * (a reader that has it open reads the counts without attaching it again).
     *
     * @param file the catalog file, for messages
     */
    public static List<TableRows> of(Connection duck, String alias, String file, long since) throws SQLException {
        return of(new MetadataQueries(duck, alias, file), since);
    }

    /** {@link #of(Connection, String, String, long)} through queries already made over the attached catalog. */
    static List<TableRows> of(MetadataQueries model, long since) throws SQLException {
        long s = model.snapshotRange()[1];
        List<TableRows> result = new ArrayList<>();
        for (MetadataQueries.Table t : model.tables(s, DuckLakePaths.of(model.metadata("data_path"), null))) {
            MetadataQueries.RowCount count = model.rowCount(t.id(), s, since);
            result.add(new TableRows(t.schema() + "." + t.name(), count.rows(), count.added()));
        }
        return result;
    }
}
