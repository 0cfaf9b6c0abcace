package dev.fdl.ducklake.convert;

import dev.fdl.ducklake.format.DuckLakeSchema;
import dev.fdl.util.SqlQuote;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Copies one table of a DuckDB catalog (attached as {@code src}) into a SQLite catalog, the
 * DuckDB → SQLite half of conversion (checkout). Two cores share the work: a second thread reads
 * the DuckDB result into column arrays (no boxing) while the caller's thread binds rows into
 * batched multi-row SQLite inserts. Text is fetched as its UTF-8 bytes ({@code encode}, a BLOB:
 * several times cheaper through DuckDB's JDBC than a Java String) and stored as TEXT by SQLite's
 * own {@code CAST(? AS TEXT)}, which takes the bytes unchanged. Values take their SQLite storage
 * form (DUCKLAKE.md "The SQLite-backed catalog"): integers and booleans as INTEGER, floats as
 * REAL, blobs as BLOB, everything else as DuckDB's own text cast.
 */
final class SqliteTableCopy {
    /** Rows handed from the reading thread to the writing thread at a time. */
    private static final int BLOCK_ROWS = 4_096;

    /**
     * Bytes of text and blobs after which a block is handed over before it is full: ten blocks
     * are in flight at most, so a table of large values (inlined text, say) stays within a few MiB.
     */
    private static final int BLOCK_BYTES = 1 << 20;

    private static final int LONG = 0;
    private static final int DOUBLE = 1;
    private static final int BYTES = 2;

    private SqliteTableCopy() {}

    /** Rows of one table in column arrays; {@link #failure} set instead when reading failed. */
    private static final class Block {
        final long[][] longs;
        final double[][] doubles;
        final byte[][][] bytes;
        final boolean[][] nulls;
        int count;
        Exception failure;
        boolean end;

        Block(int[] kind, int rows) {
            int n = kind.length;
            longs = new long[n][];
            doubles = new double[n][];
            bytes = new byte[n][][];
            nulls = new boolean[n][rows];
            for (int i = 0; i < n; i++) {
                switch (kind[i]) {
                    case LONG -> longs[i] = new long[rows];
                    case DOUBLE -> doubles[i] = new double[rows];
                    default -> bytes[i] = new byte[rows][];
                }
            }
        }

        static Block marker(Exception failure) {
            Block b = new Block(new int[0], 0);
            b.failure = failure;
            b.end = failure == null;
            return b;
        }
    }

    /**
     * Copies every row of {@code src.main.<table>} into the SQLite table of the same name
     * (already created with {@code columns}), inside the caller's SQLite transaction.
     *
     * @param expectedRows the source's row count, only to size the INSERT statements (a small
     *     table gets a statement of its size rather than one of 256 rows that SQLite must compile);
     *     every row is copied whatever it says
     * @return the number of rows copied
     * @throws SQLException if reading or writing fails
     */
    static long copy(Connection duck, Connection lite, String table, List<DuckLakeSchema.ColumnDef> columns, long expectedRows) throws SQLException {
        Plan plan = new Plan(table, columns);
        int n = columns.size();
        int[] kind = plan.kind;
        // sqlite-jdbc pays a large fixed cost per statement execution: bind many rows into one
        // multi-row INSERT (at most 30,000 parameters, under SQLite's limit of 32,766)
        int batch = (int) Math.max(1, Math.min(expectedRows, Math.min(256, 30_000 / Math.max(1, n))));
        String one = "INSERT INTO " + SqlQuote.ident(table) + " VALUES " + plan.tuple;
        StringBuilder many = new StringBuilder(one);
        for (int i = 1; i < batch; i++) {
            many.append(", ").append(plan.tuple);
        }
        int blockRows = Math.max(batch, BLOCK_ROWS / batch * batch);
        try (PreparedStatement multi = lite.prepareStatement(many.toString());
             PreparedStatement single = lite.prepareStatement(one)) {
            return transfer(duck, plan, blockRows, block -> {
                int k = 0;
                for (; k + batch <= block.count; k += batch) {
                    for (int j = 0; j < batch; j++) {
                        bind(multi, j * n, block, k + j, kind);
                    }
                    multi.executeUpdate();
                }
                for (; k < block.count; k++) {
                    bind(single, 0, block, k, kind);
                    single.executeUpdate();
                }
            });
        }
    }

    /** What to read from DuckDB for one table, and how each column travels. */
    private static final class Plan {
        final int[] kind;
        final String select;
        /** One row's parameters for an INSERT: {@code (?, CAST(? AS TEXT), …)}. */
        final String tuple;

        Plan(String table, List<DuckLakeSchema.ColumnDef> columns) {
            int n = columns.size();
            kind = new int[n];
            StringBuilder select = new StringBuilder("SELECT ");
            StringBuilder tuple = new StringBuilder("(");
            for (int i = 0; i < n; i++) {
                DuckLakeSchema.ColumnDef c = columns.get(i);
                String ident = SqlQuote.ident(c.name());
                String duckUpper = c.duckType().toUpperCase(Locale.ROOT);
                select.append(i > 0 ? ", " : "");
                tuple.append(i > 0 ? ", " : "");
                switch (c.sqliteType()) {
                    case "BIGINT" -> {
                        kind[i] = LONG;
                        select.append(duckUpper.equals("BIGINT") ? ident : "CAST(" + ident + " AS BIGINT)");
                        tuple.append('?');
                    }
                    case "DOUBLE" -> {
                        kind[i] = DOUBLE;
                        select.append(duckUpper.equals("DOUBLE") ? ident : "CAST(" + ident + " AS DOUBLE)");
                        tuple.append('?');
                    }
                    case "BLOB" -> {
                        kind[i] = BYTES;
                        select.append(ident);
                        tuple.append('?');
                    }
                    default -> {
                        kind[i] = BYTES;
                        select.append("encode(").append(duckUpper.equals("VARCHAR") ? ident : "CAST(" + ident + " AS VARCHAR)").append(')');
                        tuple.append("CAST(? AS TEXT)");
                    }
                }
            }
            select.append(" FROM src.main.").append(SqlQuote.ident(table));
            this.select = select.toString();
            this.tuple = tuple.append(')').toString();
        }
    }

    /** Takes the rows of one block, on the caller's thread. */
    private interface BlockSink {
        void accept(Block block) throws SQLException;
    }

    /**
     * Runs {@code plan}'s query on a reading thread and hands each block of rows to {@code sink}
     * on this one.
     *
     * @return the number of rows handed over
     */
    private static long transfer(Connection duck, Plan plan, int blockRows, BlockSink sink) throws SQLException {
        BlockingQueue<Block> filled = new ArrayBlockingQueue<>(4);
        BlockingQueue<Block> free = new ArrayBlockingQueue<>(6);
        for (int i = 0; i < 6; i++) {
            free.add(new Block(plan.kind, blockRows));
        }
        ExecutorService reader = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "fdl-duckdb-reader");
            t.setDaemon(true);
            return t;
        });
        long rows = 0;
        try {
            reader.execute(() -> read(duck, plan.select, plan.kind, filled, free));
            while (true) {
                Block block = filled.take();
                if (block.failure instanceof SQLException e) {
                    throw e;
                } else if (block.failure instanceof RuntimeException e) {
                    throw e;
                } else if (block.end) {
                    break;
                }
                sink.accept(block);
                rows += block.count;
                free.put(block);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while copying a table", e);
        } finally {
            reader.shutdownNow();
            // the reader uses the DuckDB connection: it must be done before anyone else does (or
            // closes it), also when this thread was interrupted
            DuckDbTableLoad.awaitEnd(reader);
        }
        return rows;
    }

    /**
     * The reading half: runs {@code select} on DuckDB and hands over blocks (taken from
     * {@code free}), then an end marker, or the failure.
     */
    private static void read(Connection duck, String select, int[] kind, BlockingQueue<Block> filled, BlockingQueue<Block> free) {
        int n = kind.length;
        try (Statement s = duck.createStatement(); ResultSet r = s.executeQuery(select)) {
            Block block = free.take();
            int count = 0;
            long bytes = 0;
            while (r.next()) {
                for (int i = 0; i < n; i++) {
                    int col = i + 1;
                    switch (kind[i]) {
                        case LONG -> {
                            block.longs[i][count] = r.getLong(col);
                            block.nulls[i][count] = r.wasNull();
                        }
                        case DOUBLE -> {
                            block.doubles[i][count] = r.getDouble(col);
                            block.nulls[i][count] = r.wasNull();
                        }
                        default -> {
                            byte[] v = r.getBytes(col);
                            block.bytes[i][count] = v;
                            block.nulls[i][count] = v == null;
                            bytes += v == null ? 0 : v.length;
                        }
                    }
                }
                if (++count == block.nulls[0].length || bytes >= BLOCK_BYTES) {
                    block.count = count;
                    filled.put(block);
                    block = free.take();
                    count = 0;
                    bytes = 0;
                }
            }
            if (count > 0) {
                block.count = count;
                filled.put(block);
            }
            filled.put(Block.marker(null));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException | RuntimeException e) {
            filled.clear();
            filled.offer(Block.marker(e));
        }
    }

    private static void bind(PreparedStatement ps, int offset, Block block, int row, int[] kind) throws SQLException {
        for (int i = 0; i < kind.length; i++) {
            int param = offset + i + 1;
            if (block.nulls[i][row]) {
                ps.setNull(param, Types.NULL);
                continue;
            }
            switch (kind[i]) {
                case LONG -> ps.setLong(param, block.longs[i][row]);
                case DOUBLE -> ps.setDouble(param, block.doubles[i][row]);
                default -> ps.setBytes(param, block.bytes[i][row]);
            }
        }
    }
}
