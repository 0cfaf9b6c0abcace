package dev.fdl.ducklake.load;

import dev.fdl.FdlException;

import java.nio.file.Path;
import java.util.Locale;

/**
 * The formats {@code fdl import} reads, and the one place that decides a file's format: named by
 * {@code --format}, else by the file's extension (see docs/data.md); a file whose extension says
 * nothing fdl knows is refused rather than guessed.
 */
public enum ImportFormat {
    /** CSV and its kin: {@code .csv}, {@code .tsv}, {@code .txt}; dialect and types detected over the whole file. */
    CSV,
    /** {@code .parquet}, {@code .parq}. */
    PARQUET,
    /** {@code .json}, {@code .jsonl}, {@code .ndjson}: an array of objects or one object per line. */
    JSON;

    /**
     * The format of {@code source}: {@code given} when not null, else by its extension (after a
     * {@code .gz}, which any format may add).
     *
     * @throws FdlException usage error naming the file and {@code --format} when the extension is not one fdl knows,
     *                      or saying it is a folder
     */
    public static ImportFormat of(Path source, ImportFormat given) {
        if (java.nio.file.Files.isDirectory(source))
            throw FdlException.usage("cannot import " + source + ": it is a folder; give one file (csv, parquet or json) per import");
        if (given != null) return given;
        String n = source.getFileName().toString().toLowerCase(Locale.ROOT);
        if (n.endsWith(".gz")) n = n.substring(0, n.length() - 3);
        if (n.endsWith(".csv") || n.endsWith(".tsv") || n.endsWith(".txt")) return CSV;
        if (n.endsWith(".parquet") || n.endsWith(".parq")) return PARQUET;
        if (n.endsWith(".json") || n.endsWith(".jsonl") || n.endsWith(".ndjson")) return JSON;
        throw FdlException.usage("cannot import " + source + ": unknown format, its name says none fdl knows (.csv, .tsv, .txt, "
                + ".parquet, .parq, .json, .jsonl, .ndjson, optionally gzipped); name it with --format csv|parquet|json");
    }

    /**
     * The format named {@code name} ({@code csv}, {@code parquet}, {@code json}; any case).
     *
     * @throws FdlException usage error naming the value and the formats
     */
    public static ImportFormat named(String name) {
        for (ImportFormat f : values()) if (f.name().equalsIgnoreCase(name.trim())) return f;
        throw FdlException.usage("invalid --format '" + name + "': use csv, parquet or json");
    }
}
