package dev.fdl.iceberg;

import dev.fdl.FdlException;
import dev.fdl.ducklake.catalog.MetadataQueries;
import dev.fdl.ducklake.engine.DuckDbErrors;
import dev.fdl.ducklake.engine.DuckDbPool;
import dev.fdl.ducklake.engine.Sql;
import dev.fdl.ducklake.read.ReadableCatalog;
import dev.fdl.ducklake.read.TableSummary;
import dev.fdl.ducklake.read.SnapshotView;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.ParallelCalls;
import dev.fdl.store.Payload;
import dev.fdl.util.Sha256;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Writes the Iceberg metadata of one version (docs/iceberg.md): for each table of the catalog's
 * newest snapshot, an Iceberg table under {@code versions/<id>/iceberg/<schema>/<table>/}
 * ({@link RepoLayout#icebergTable}) whose files are named by URLs under the Iceberg root
 * ({@link IcebergLocation}). Every table is checked before anything is written, so a table Iceberg
 * cannot describe writes nothing. Within a table the metadata JSON is stored last: a table whose
 * {@code metadata/v1.metadata.json} exists is complete. A version's existing files are never
 * replaced: a table already described is left as it is.
 */
public final class IcebergMetadataWriter {
    /**
     * Where the metadata goes: {@code store} under {@code keyPrefix} (empty: the repository itself;
     * a folder's prefix for a mirror's copy), its files named under the root URL {@code location}
     * (ending in {@code /}).
     */
    public record Target(ObjectStore store, String keyPrefix, String location) {}

    /**
     * One table written ({@code skipped}: it was there already): its metadata key, the bytes of its
     * delete and inlined-row files, and each file stored, its key to its hex SHA-256 taken from the
     * bytes stored (empty when skipped).
     */
    public record TableWritten(String table, String metadataKey, long extraBytes, boolean skipped, Map<String, String> digests) {
        public TableWritten {
            digests = Map.copyOf(digests);
        }
    }

    private final DuckDbPool pool;
    private final Repository repo;

    public IcebergMetadataWriter(DuckDbPool pool, Repository repo) {
        this.pool = pool;
        this.repo = repo;
    }

    /**
     * Commit's step 5a ({@link dev.fdl.workingcopy.Commit.VersionFiles}): the new version's Iceberg
     * metadata, into the repository, when fdl.json asks for it ({@code "iceberg": true}); nothing
     * otherwise. Returns each file's digest, for the version's manifest (docs/signing.md).
     *
     * @param scratch a local folder for the files DuckDB writes (the working copy's temporary folder)
     */
    public static dev.fdl.workingcopy.Commit.VersionFiles atCommit(DuckDbPool pool, Path scratch) {
        return (repo, version, catalog) -> {
            if (!repo.config().iceberg()) return Map.of();
            Target target = new Target(repo.store(), "", IcebergLocation.of(repo.store(), repo.config(), null));
            Map<String, String> digests = new java.util.HashMap<>();
            for (TableWritten t : new IcebergMetadataWriter(pool, repo).write(version.id(), catalog, target, scratch))
                digests.putAll(t.digests());
            return digests;
        };
    }

    /** The key of a table's metadata file in a version, relative to the root. */
    public static String metadataKey(String versionId, String schema, String table) {
        return RepoLayout.icebergTable(versionId, schema, table) + "metadata/" + IcebergTableWriter.METADATA_FILE;
    }

    /**
     * Describes every table of {@code catalog} (version {@code versionId}'s DuckDB catalog, local)
     * at its newest snapshot.
     *
     * @param scratch an existing local folder for the files DuckDB writes (emptied again)
     * @throws FdlException (exit 1) naming the table when one cannot be described (nothing written then)
     */
    public List<TableWritten> write(String versionId, Path catalog, Target target, Path scratch) {
        Path work = scratch.resolve("iceberg-" + versionId);
        try (Connection duck = pool.connection()) {
            Files.createDirectories(work);
            try (Statement st = duck.createStatement()) {
                st.execute(Sql.SET_UTC);
            }
            Sql.attach(duck, catalog, MetadataQueries.CATALOG_ALIAS, true);
            SnapshotView view = SnapshotView.loadRelative(duck, MetadataQueries.CATALOG_ALIAS, catalog.toString(), null);
            MetadataQueries model = new MetadataQueries(duck, MetadataQueries.CATALOG_ALIAS, catalog.toString());
            IcebergTableWriter writer = new IcebergTableWriter(duck, model, view, work);
            // every table's schema first: a table Iceberg cannot hold stops the write before anything is stored
            List<org.apache.iceberg.Schema> schemas = new ArrayList<>();
            for (SnapshotView.TableEntry t : view.tables()) {
                schemas.add(writer.schema(t));
                RepoLayout.icebergTable(versionId, t.schema(), t.name());
            }
            List<TableWritten> result = new ArrayList<>();
            for (int i = 0; i < view.tables().size(); i++)
                result.add(table(writer, new IcebergTableWriter.Described(view.tables().get(i), schemas.get(i)), versionId, target, work));
            // detached here, by its alias, rather than found and detached by the pool's check when the connection goes back
            try (Statement st = duck.createStatement()) {
                st.execute("DETACH " + MetadataQueries.CATALOG_ALIAS);
            }
            return result;
        } catch (SQLException e) {
            throw new FdlException(FdlException.Kind.FAILURE, "cannot write the Iceberg metadata of version " + versionId + ": "
                    + DuckDbErrors.firstLine(e), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteTree(work);
        }
    }

    private TableWritten table(IcebergTableWriter writer, IcebergTableWriter.Described described, String versionId, Target target, Path work)
            throws SQLException {
        SnapshotView.TableEntry t = described.table();
        String name = t.schema() + "." + t.name();
        String metadataKey = target.keyPrefix() + metadataKey(versionId, t.schema(), t.name());
        if (target.store().stat(metadataKey).isPresent()) return new TableWritten(name, metadataKey, 0, true, Map.of());
        String tableRel = RepoLayout.icebergTable(versionId, t.schema(), t.name());
        IcebergTableWriter.Place place = new IcebergTableWriter.Place(target.location() + tableRel.substring(0, tableRel.length() - 1),
                target.location() + repo.dataDir());
        IcebergTableWriter.TableFiles r = writer.write(described, place, readableDeletes(t, work), this::sizeOf, versionId);
        Map<String, Payload> byKey = new java.util.LinkedHashMap<>();
        Map<String, String> digests = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, Payload> f : r.files().entrySet()) {
            String url = f.getKey();
            if (!url.startsWith(target.location())) throw new IllegalStateException("Iceberg wrote outside its root: " + url);
            String key = target.keyPrefix() + url.substring(target.location().length());
            Payload p = f.getValue();
            digests.put(key, p.bytes() != null ? Sha256.of(p.bytes()) : Sha256.of(p.file())); // the bytes in hand, before they are stored
            byKey.put(key, p);
        }
        // the metadata JSON last, once every file it names is stored: a table that has it is complete
        List<String> first = byKey.keySet().stream().filter(k -> !k.equals(metadataKey)).toList();
        ParallelCalls.forEach(first, k -> target.store().put(k, byKey.get(k)));
        target.store().put(metadataKey, byKey.get(metadataKey));
        return new TableWritten(name, metadataKey, r.extraBytes(), false, digests);
    }

    /** Each visible delete file of {@code t} where DuckDB reads it: in the repository's folder, or mirrored into {@code work}. */
    private List<String> readableDeletes(SnapshotView.TableEntry t, Path work) {
        List<String> names = new ArrayList<>();
        for (SnapshotView.DeleteFileEntry d : t.deleteFiles()) names.add(d.location());
        ReadableCatalog.DataFiles data = new ReadableCatalog.DataFiles(repo.store(), repo.dataDir(), work.resolve("mirror"));
        TableSummary.Fetcher fetch = data.fetcher("table " + t.schema() + "." + t.name());
        if (fetch != null) fetch.fetch(names);
        List<String> result = new ArrayList<>();
        for (String n : names) result.add(data.readPath() + n);
        return result;
    }

    private long sizeOf(String name) {
        String key = repo.dataDir() + name;
        return repo.store().stat(key).orElseThrow(() -> new FdlException("data file " + key + " is missing from the repository "
                + repo.root())).size();
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // scratch files only
        }
    }
}
