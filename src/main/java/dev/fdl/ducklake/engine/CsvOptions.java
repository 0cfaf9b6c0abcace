package dev.fdl.ducklake.engine;

/** read_csv options shared by the CSV reader and the table loads. */
public final class CsvOptions {
    private CsvOptions() {}

    /** read_csv's options for lines up to {@code size} bytes: its buffers must hold two of them. */
    public static String lineSizeOptions(long size) {
        return ", max_line_size = " + size + ", buffer_size = " + 2 * size;
    }
}
