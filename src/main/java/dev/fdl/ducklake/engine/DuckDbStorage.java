package dev.fdl.ducklake.engine;

import dev.fdl.FdlException;
import dev.fdl.util.SqlQuote;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How fdl writes a new DuckDB catalog file: the DuckDB storage version (SPEC.md section 3,
 * {@code catalog.storage} = {@code duckdb-} + this version) and the block size in bytes.
 *
 * <p>The default, {@code v1.5.0} with 16,384-byte blocks, is read by DuckDB 1.5 and 2.0 alike:
 * DuckDB 2.0 writes storage version 69 unless told otherwise, which DuckDB 1.5 cannot open, and
 * its default 262,144-byte blocks made a one-table catalog 3.4–4.5 MB (about 30 tables, each
 * taking whole blocks). 16,384 is the smallest block size DuckDB accepts (checked with DuckDB 1.5.6
 * and 2.0.0: both open such files).
 *
 * <p>A large catalog is written with {@link #LARGE_BLOCK_SIZE} instead ({@link #forCatalog}): with
 * 16 KiB blocks DuckDB spends about twice the CPU writing a table of a million rows and makes a
 * file three to four times larger (docs/catalog.md "Decisions"). DuckDB 1.5 reads those too
 * ({@code OlderDuckDbReadsCatalogsTest}).
 *
 * @param version   a DuckDB storage version, {@code vX.Y.Z}, at least {@code v1.5.0}
 * @param blockSize block size in bytes: a power of two, at least {@link #SMALLEST_BLOCK_SIZE}
 */
public record DuckDbStorage(String version, int blockSize) {
    /** Initialised before {@link #DEFAULT}, whose construction checks its version. */
    private static final Pattern VERSION = Pattern.compile("v(\\d{1,4})\\.(\\d{1,4})\\.(\\d{1,4})");
    /** The smallest block size DuckDB 1.5 and 2.0 accept, in bytes. */
    public static final int SMALLEST_BLOCK_SIZE = 16_384;
    /** The block size of catalogs whose largest table has at least {@link #LARGE_TABLE_ROWS} rows, in bytes. */
    public static final int LARGE_BLOCK_SIZE = 65_536;
    /**
     * Rows of a catalog's largest table from which 64 KiB blocks make a smaller file than 16 KiB
     * blocks (measured on generated catalogs: equal at 30,000 rows, 1.7 against 2.2 MB at 50,000,
     * 2.2 against 4.1 MB at 100,000; 1.4 against 0.7 MB at 10,000) and DuckDB writes it with less CPU.
     */
    public static final long LARGE_TABLE_ROWS = 32_768;
    /** What fdl writes unless a repository opts into a newer storage version: readable by DuckDB 1.5 and 2.0. */
    public static final DuckDbStorage DEFAULT = new DuckDbStorage("v1.5.0", SMALLEST_BLOCK_SIZE);
    /** The prefix of the storage string of SPEC.md {@code catalog.storage}. */
    public static final String PREFIX = "duckdb-";

    public DuckDbStorage {
        String why = versionProblem(version);
        if (why != null) throw new IllegalArgumentException(why);
        if (blockSize < SMALLEST_BLOCK_SIZE || Integer.bitCount(blockSize) != 1)
            throw new IllegalArgumentException("block size must be a power of two of at least " + SMALLEST_BLOCK_SIZE + ": " + blockSize);
    }

    /**
     * The storage a storage string names ({@code duckdb-v2.0.0}, the form version.json records),
     * with the smallest block size, once the DuckDB fdl runs on has accepted it (it is asked, by
     * attaching an in-memory database with that {@code STORAGE_VERSION}: DuckDB keeps the list of
     * the versions it can write, fdl keeps none). SPEC.md section 3, {@code catalog_storage}.
     *
     * @param where  names the option, or the file and key, the value came from, for the error
     * @param kind   the kind of the error: usage for a command-line option, failure for a file
     * @param remedy what the user does about a refused value (after the list of accepted values)
     * @throws FdlException of {@code kind} naming {@code where}, the value, the accepted form and
     *     {@code remedy} when it is not {@code duckdb-vX.Y.Z} of at least {@code v1.5.0} that
     *     DuckDB knows
     */
    public static DuckDbStorage parse(String storageString, String where, FdlException.Kind kind, String remedy) {
        String version = storageString != null && storageString.startsWith(PREFIX) ? storageString.substring(PREFIX.length()) : null;
        String why = version == null ? "not of the form \"" + PREFIX + "vX.Y.Z\"" : versionProblem(version);
        if (why == null) why = unknownToDuckDb(version);
        if (why != null)
            throw new FdlException(kind, where + " is \"" + storageString + "\": " + why + "; " + remedy);
        return new DuckDbStorage(version, SMALLEST_BLOCK_SIZE);
    }

    /**
     * The values {@link #parse} accepts, in words, for a remedy: every DuckDB release from v1.5.0
     * up to the DuckDB fdl runs on.
     */
    public static String acceptedValues() {
        return "\"" + PREFIX + "vX.Y.Z\" naming a DuckDB release from v1.5.0 to "
                + duckDbVersion().map(v -> v + " (the DuckDB fdl runs on)").orElse("the DuckDB fdl runs on")
                + ", e.g. \"" + PREFIX + "v2.0.0\" (DuckDB 2.0 readers only)";
    }

    /** Null when DuckDB can write storage {@code version}, else why not (in fdl's words, not DuckDB's). */
    private static String unknownToDuckDb(String version) {
        try (Connection duck = DuckDbPool.connect(); Statement s = duck.createStatement()) {
            s.execute("ATTACH ':memory:' AS fdl_storage_check (STORAGE_VERSION " + SqlQuote.literal(version) + ")");
            s.execute("DETACH fdl_storage_check");
            return null;
        } catch (SQLException e) {
            return "DuckDB knows no such storage version";
        }
    }

    /** The version of the DuckDB fdl runs on ({@code v2.0.0}), if DuckDB answers. */
    private static java.util.Optional<String> duckDbVersion() {
        try (Connection duck = DuckDbPool.connect(); Statement s = duck.createStatement();
             java.sql.ResultSet r = s.executeQuery("SELECT library_version FROM pragma_version()")) {
            return r.next() ? java.util.Optional.ofNullable(r.getString(1)) : java.util.Optional.empty();
        } catch (SQLException e) {
            return java.util.Optional.empty();
        }
    }

    /**
     * This storage version with the block size for a catalog whose largest table has
     * {@code largestTableRows} rows: {@link #LARGE_BLOCK_SIZE} from {@link #LARGE_TABLE_ROWS} rows
     * on, else this storage's own block size. The one place where the block size of a catalog is
     * chosen; every conversion into DuckDB asks it.
     */
    public DuckDbStorage forCatalog(long largestTableRows) {
        return largestTableRows >= LARGE_TABLE_ROWS && blockSize < LARGE_BLOCK_SIZE ? new DuckDbStorage(version, LARGE_BLOCK_SIZE) : this;
    }

    private static String versionProblem(String version) {
        Matcher m = version == null ? null : VERSION.matcher(version);
        if (m == null || !m.matches()) return "not a DuckDB storage version (vX.Y.Z)";
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        if (major < 1 || (major == 1 && minor < 5)) return "older than v1.5.0, which fdl's readers need";
        return null;
    }

    /** {@code duckdb-} + the version, as SPEC.md {@code catalog.storage} records it. */
    public String storageString() {
        return PREFIX + version;
    }

    /**
     * ATTACHes a new (not yet existing) DuckDB file under {@code alias} with this storage version
     * and block size; every DuckDB catalog fdl creates is opened here. Attaching the file again
     * later without options keeps both (DuckDB does not upgrade an existing file).
     *
     * @throws SQLException when DuckDB refuses (e.g. a storage version it does not know)
     */
    public void attachNew(Connection duck, Path file, String alias) throws SQLException {
        String sql = "ATTACH " + SqlQuote.literal(file.toAbsolutePath().toString()) + " AS " + SqlQuote.ident(alias)
                + " (STORAGE_VERSION " + SqlQuote.literal(version) + ", BLOCK_SIZE " + blockSize + ")";
        try (Statement s = duck.createStatement()) {
            s.execute(sql);
        }
    }
}
