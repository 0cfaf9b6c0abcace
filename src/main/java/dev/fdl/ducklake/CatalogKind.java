package dev.fdl.ducklake;

import dev.fdl.FdlException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/** The two encodings of a DuckLake catalog fdl handles: a SQLite file or a DuckDB file. */
public enum CatalogKind {
    /** A SQLite database (the working catalog of a working copy, SPEC.md section 4). */
    SQLITE,
    /** A DuckDB database file (the catalog of a published version, SPEC.md section 1). */
    DUCKDB;

    private static final byte[] SQLITE_MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DUCKDB_MAGIC = "DUCK".getBytes(StandardCharsets.US_ASCII);

    /**
     * The kind of a catalog file, by its header: SQLite's 16-byte "SQLite format 3" magic, or
     * DuckDB's "DUCK" magic at byte 8 of its main header.
     *
     * @throws FdlException (exit 1) naming the file if it is missing, unreadable or neither kind
     */
    public static CatalogKind detect(Path file) {
        byte[] header = new byte[16];
        int n = 0;
        try (InputStream in = Files.newInputStream(file)) {
            while (n < header.length) {
                int r = in.read(header, n, header.length - n);
                if (r < 0) {
                    break;
                }
                n += r;
            }
        } catch (NoSuchFileException e) {
            throw new FdlException("catalog file " + file + " does not exist");
        } catch (IOException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot read catalog file " + file + ": " + e.getMessage(), e);
        }
        if (n == 16 && Arrays.equals(header, SQLITE_MAGIC)) {
            return SQLITE;
        }
        if (n >= 12 && Arrays.equals(Arrays.copyOfRange(header, 8, 12), DUCKDB_MAGIC)) {
            return DUCKDB;
        }
        throw new FdlException("not a DuckLake catalog: " + file
                + " is neither a SQLite nor a DuckDB database file");
    }
}
