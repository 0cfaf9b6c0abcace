package dev.fdl.iceberg;

import dev.fdl.FdlException;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectMeta;

import dev.fdl.ducklake.TableInfo;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.repo.VersionInfo;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * What a reader runs to read a version's Iceberg tables ({@code fdl attach --iceberg}; docs/iceberg.md):
 * Spark SQL, Trino's {@code register_table}, DuckDB's {@code iceberg_scan}, pyiceberg's
 * {@code StaticTable.from_metadata} and Snowflake's {@code CREATE ICEBERG TABLE}, each naming the
 * table's metadata file by its URL under the Iceberg root ({@link IcebergLocation}).
 */
public final class IcebergReaders {
    private IcebergReaders() {}

    /** A table of the version: {@code schema}, {@code table}, and its metadata file's key under the Iceberg root {@code root}. */
    public record Table(String schema, String table, String root, String metadataKey) {
        /** The metadata file's URL: the root followed by its key. */
        public String metadataUrl() {
            return root + metadataKey;
        }
    }

    /**
     * The Iceberg tables version {@code version} has: those whose metadata file exists. A store that
     * lists (a folder, S3) is listed under the version's {@code iceberg/}; one that cannot (an HTTP(S)
     * root: {@code fdl serve}, a published site) is asked for each table of the version's catalog at
     * its key ({@link IcebergMetadataWriter#metadataKey}), so no listing is needed.
     *
     * @param root    the Iceberg root URL ({@link IcebergLocation#of}), ending in {@code /}
     * @param catalog the version's catalog file, local (read only when the store cannot list)
     * @param pasted  the words the {@code fdl} commands in messages name the repository with, so they run
     *                as pasted ({@code --repo <root> }, or empty inside its working copy)
     * @throws FdlException not found (exit 4) when the version has no Iceberg metadata, naming the command that writes it
     */
    public static List<Table> tables(Repository repo, VersionInfo version, String root, Supplier<Path> catalog, String pasted) {
        String prefix = RepoLayout.versionFolder(version.id()) + RepoLayout.ICEBERG;
        List<Table> tables = repo.store().canList() ? listed(repo, prefix, root) : asked(repo, version, root, catalog.get());
        if (tables.isEmpty() && repo.store().canList()) {
            throw FdlException.notFound("version " + version.id() + " has no Iceberg metadata (" + prefix + "): write it with fdl iceberg " + pasted
                    + version.id() + ", and have every commit write it with fdl iceberg " + pasted + "--enable");
        }
        if (tables.isEmpty()) {
            throw FdlException.notFound("version " + version.id() + " has no Iceberg metadata at " + repo.store().location(prefix)
                    + ": it is written where the repository is written: there, run fdl iceberg " + version.id()
                    + " (fdl iceberg --enable: every commit writes it), then publish the repository again");
        }
        return tables;
    }

    private static List<Table> listed(Repository repo, String prefix, String root) {
        String suffix = "/metadata/" + IcebergTableWriter.METADATA_FILE;
        List<Table> tables = new ArrayList<>();
        try (Stream<ObjectMeta> s = repo.store().list(prefix)) {
            s.map(ObjectMeta::key).filter(k -> k.endsWith(suffix)).sorted().forEach(k -> {
                String[] parts = k.substring(prefix.length(), k.length() - suffix.length()).split("/", 2);
                if (parts.length == 2) tables.add(new Table(parts[0], parts[1], root, k));
            });
        }
        return tables;
    }

    /** The catalog's tables at the version's snapshot whose metadata file the store has (one HEAD each). */
    private static List<Table> asked(Repository repo, VersionInfo version, String root, Path catalog) {
        List<Table> tables = new ArrayList<>();
        try (CatalogInspector c = CatalogInspector.open(catalog)) {
            for (TableInfo t : c.tables(version.ducklake().snapshotId())) {
                String key;
                try {
                    key = IcebergMetadataWriter.metadataKey(version.id(), t.schema(), t.name());
                } catch (IllegalArgumentException e) {
                    continue; // a name that is no key segment: the writer refuses such a table, so it has no metadata
                }
                if (repo.store().stat(key).isPresent()) tables.add(new Table(t.schema(), t.name(), root, key));
            }
        }
        return tables;
    }

    /** The Spark configuration key of the catalog the Spark statements name ({@code fdl}). */
    public static final String SPARK_CATALOG = "spark.sql.catalog.fdl";
    /** The Iceberg Spark runtime the {@code spark-sql} line starts with: Spark 4.1, Scala 2.13, the Iceberg release fdl writes with. */
    public static final String SPARK_RUNTIME = "org.apache.iceberg:iceberg-spark-runtime-4.1_2.13:1.12.0";

    /**
     * The lines, grouped by reader, each group headed by a comment in the language of the lines
     * after it, so that each group runs as pasted: Spark (the shell line that starts {@code spark-sql},
     * then SQL in it), Trino, DuckDB, pyiceberg (Python) and Snowflake (SQL). Every comment, whole
     * line or trailing, is in the syntax of its line's language ({@code #} in the shell and Python,
     * {@code --} in SQL), and an empty line ends each group, so no group runs into the next.
     */
    public static List<String> statements(List<Table> tables) {
        List<String> out = new ArrayList<>();
        String tableSuffix = "/metadata/" + IcebergTableWriter.METADATA_FILE;
        // the version's iceberg/ folder is laid out as a Hadoop catalog's warehouse: <schema>/<table>/metadata/version-hint.text
        Table first = tables.get(0);
        String warehouse = first.metadataUrl().substring(0, first.metadataUrl().length() - tableSuffix.length()
                - (first.schema() + "/" + first.table()).length());
        out.add("# Spark SQL: start spark-sql with the version as catalog fdl (shell), then run the SELECT in it");
        out.add("spark-sql --packages " + SPARK_RUNTIME + " --conf " + SPARK_CATALOG + "=org.apache.iceberg.spark.SparkCatalog"
                + " --conf " + SPARK_CATALOG + ".type=hadoop --conf " + SPARK_CATALOG + ".warehouse=" + warehouse);
        for (Table t : tables) out.add("SELECT * FROM fdl.`" + t.schema() + "`.`" + t.table() + "`;  -- or, in any Spark session: spark.read.format(\"iceberg\").load(\""
                + t.metadataUrl() + "\")");
        out.add("");
        out.add("-- Trino (an Iceberg connector catalog named iceberg, with iceberg.register-table-procedure.enabled=true):");
        for (Table t : tables) out.add("CALL iceberg.system.register_table(schema_name => '" + t.schema() + "', table_name => '" + t.table()
                + "', table_location => '" + t.metadataUrl().substring(0, t.metadataUrl().length() - tableSuffix.length())
                + "', metadata_file_name => '" + IcebergTableWriter.METADATA_FILE + "');");
        out.add("");
        out.add("-- DuckDB (iceberg extension):");
        out.add("INSTALL iceberg;");
        out.add("LOAD iceberg;");
        String scheme = first.root().toLowerCase(java.util.Locale.ROOT);
        if (scheme.startsWith("s3://") || scheme.startsWith("http://") || scheme.startsWith("https://")) {
            out.add("INSTALL httpfs;");
            out.add("LOAD httpfs;");
        }
        for (Table t : tables) out.add("SELECT * FROM iceberg_scan('" + t.metadataUrl() + "');");
        out.add("");
        out.add("# pyiceberg (Python):");
        out.add("from pyiceberg.table import StaticTable");
        for (Table t : tables) out.add("StaticTable.from_metadata(\"" + t.metadataUrl() + "\").scan().to_arrow()  # " + t.schema() + "." + t.table());
        out.add("");
        out.add("-- Snowflake (an external volume whose storage location is the repository's root " + first.root()
                + ", a catalog integration with CATALOG_SOURCE = OBJECT_STORE):");
        for (Table t : tables) out.add("CREATE ICEBERG TABLE " + t.schema() + "_" + t.table() + " EXTERNAL_VOLUME = '<volume>' CATALOG = '<integration>' METADATA_FILE_PATH = '"
                + t.metadataKey() + "';");
        return out;
    }
}
