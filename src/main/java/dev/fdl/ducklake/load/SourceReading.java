package dev.fdl.ducklake.load;

import dev.fdl.FdlException;

import java.util.List;
import java.util.Map;

/**
 * How an import or sync reads its source files: their format, the {@code --schema} types
 * ({@link SchemaOverride}) and, for CSV, the fields read as NULL ({@code --null-string}; an empty
 * field always is). Every sniff and read of a CSV file takes its null strings from here, so the
 * types detected and the values read agree.
 *
 * @param format      the sources' format
 * @param overrides   column name → DuckDB type, in the order given (empty: none)
 * @param nullStrings the texts read as NULL besides the empty field, as given (empty: none); CSV only
 */
public record SourceReading(ImportFormat format, Map<String, String> overrides, List<String> nullStrings) {
    public SourceReading {
        overrides = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(overrides));
        nullStrings = List.copyOf(nullStrings);
    }

    /**
     * The reading {@code request} asks for, of sources in {@code format}.
     *
     * @throws FdlException usage error for a bad {@code --schema}, or null strings given for a format other than CSV
     */
    public static SourceReading of(ImportRequest request, ImportFormat format) {
        if (!request.nullStrings().isEmpty() && format != ImportFormat.CSV)
            throw FdlException.usage("--null-string is for CSV files; " + request.source() + " is read as " + format.name()
                    + ", whose NULLs are its own");
        return new SourceReading(format, SchemaOverride.parse(request.schemaOverride()), request.nullStrings());
    }
}
