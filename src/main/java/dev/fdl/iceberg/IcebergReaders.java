package dev.fdl.iceberg;

import dev.fdl.FdlException;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectMeta;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a reader runs to read a version's Iceberg tables ({@code fdl attach --iceberg}; docs/iceberg.md):
 * Spark SQL, Trino's {@code register_table}, DuckDB's {@code iceberg_scan}, pyiceberg's
 * {@code StaticTable.from_metadata} and Snowflake's {@code CREATE ICEBERG TABLE}, each naming the
 * table's metadata file by its URL under the Iceberg root ({@link IcebergLocation}).
 */
public final class IcebergReaders {
    private IcebergReaders() {}

    /** A table of the version: {@code schema}, {@code table} and its metadata file's URL. */
    public record Table(String schema, String table, String metadataUrl) {}

    /**
     * The Iceberg tables version {@code versionId} has, found by listing its folder.
     *
     * @param root the Iceberg root URL ({@link IcebergLocation#of}), ending in {@code /}
     * @throws FdlException not found (exit 4) when the version has no Iceberg metadata, naming the command that writes it
     */
    public static List<Table> tables(Repository repo, String versionId, String root) {
        String prefix = RepoLayout.versionFolder(versionId) + RepoLayout.ICEBERG;
        String suffix = "/metadata/" + IcebergTableWriter.METADATA_FILE;
        List<Table> tables = new ArrayList<>();
        try (Stream<ObjectMeta> s = repo.store().list(prefix)) {
            s.map(ObjectMeta::key).filter(k -> k.endsWith(suffix)).sorted().forEach(k -> {
                String[] parts = k.substring(prefix.length(), k.length() - suffix.length()).split("/", 2);
                if (parts.length == 2) tables.add(new Table(parts[0], parts[1], root + k));
            });
        }
        if (tables.isEmpty()) {
            throw FdlException.notFound("version " + versionId + " has no Iceberg metadata (" + prefix + "): write it with fdl iceberg "
                    + versionId + ", and have every commit write it with fdl iceberg --enable");
        }
        return tables;
    }

    /** The Spark configuration key of the catalog the Spark statements name ({@code fdl}). */
    static final String SPARK_CATALOG = "spark.sql.catalog.fdl";

    /** The statements, grouped by reader, each group headed by a {@code --} comment line. */
    public static List<String> statements(List<Table> tables) {
        List<String> out = new ArrayList<>();
        // the version's iceberg/ folder is laid out as a Hadoop catalog's warehouse: <schema>/<table>/metadata/version-hint.text
        String tableSuffix = "/metadata/" + IcebergTableWriter.METADATA_FILE;
        Table first = tables.get(0);
        String warehouse = first.metadataUrl().substring(0, first.metadataUrl().length() - tableSuffix.length()
                - (first.schema() + "/" + first.table()).length());
        out.add("-- Spark SQL (iceberg-spark-runtime), the version as a catalog: --conf " + SPARK_CATALOG + "=org.apache.iceberg.spark.SparkCatalog"
                + " --conf " + SPARK_CATALOG + ".type=hadoop --conf " + SPARK_CATALOG + ".warehouse=" + warehouse);
        for (Table t : tables) out.add("SELECT * FROM fdl.`" + t.schema() + "`.`" + t.table() + "`;  -- or spark.read.format(\"iceberg\").load(\""
                + t.metadataUrl() + "\")");
        out.add("-- Trino (Iceberg connector with iceberg.register-table-procedure.enabled=true):");
        for (Table t : tables) out.add("CALL iceberg.system.register_table(schema_name => '" + t.schema() + "', table_name => '" + t.table()
                + "', table_location => '" + t.metadataUrl().substring(0, t.metadataUrl().length() - ("/metadata/" + IcebergTableWriter.METADATA_FILE).length())
                + "', metadata_file_name => '" + IcebergTableWriter.METADATA_FILE + "');");
        out.add("-- DuckDB (iceberg extension):");
        for (Table t : tables) out.add("SELECT * FROM iceberg_scan('" + t.metadataUrl() + "');");
        out.add("-- pyiceberg:");
        for (Table t : tables) out.add("StaticTable.from_metadata(\"" + t.metadataUrl() + "\").scan().to_arrow()  # " + t.schema() + "." + t.table());
        out.add("-- Snowflake (an external volume over the repository's root, a catalog integration with CATALOG_SOURCE = OBJECT_STORE):");
        for (Table t : tables) out.add("CREATE ICEBERG TABLE " + t.schema() + "_" + t.table() + " EXTERNAL_VOLUME = '<volume>' CATALOG = '<integration>' METADATA_FILE_PATH = '"
                + t.metadataUrl().replaceFirst("^[a-z0-9+.-]+://[^/]*/", "") + "';");
        return out;
    }
}
