package dev.fdl.iceberg;

import dev.fdl.repo.RepoLayout;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;

import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code fdl verify}'s check of a version's Iceberg metadata (docs/iceberg.md): every table's
 * metadata file parses (Iceberg's own parser) and the manifest lists its snapshots name are in the
 * version's folder. Manifest lists are not opened: verify reads metadata, never data.
 */
public final class IcebergCheck {
    private IcebergCheck() {}

    /** A problem found: the key and what is wrong. */
    public record Problem(String key, String message) {}

    /**
     * The problems of the Iceberg metadata among {@code objects} (a version folder's listing);
     * none when the version has no Iceberg metadata.
     */
    public static List<Problem> problems(ObjectStore store, String versionId, List<ObjectMeta> objects) {
        String prefix = RepoLayout.versionFolder(versionId) + RepoLayout.ICEBERG;
        Set<String> keys = new HashSet<>();
        for (ObjectMeta m : objects) if (m.key().startsWith(prefix)) keys.add(m.key());
        List<Problem> problems = new ArrayList<>();
        for (String key : keys) {
            if (!key.endsWith("/metadata/" + IcebergTableWriter.METADATA_FILE)) continue;
            String tableFolder = key.substring(0, key.length() - ("metadata/" + IcebergTableWriter.METADATA_FILE).length());
            try {
                String json = new String(store.get(key).orElseThrow().bytes(), StandardCharsets.UTF_8);
                TableMetadata metadata = TableMetadataParser.fromJson(json);
                String base = metadata.location() + "/";
                for (Snapshot s : metadata.snapshots()) {
                    String list = s.manifestListLocation();
                    if (!list.startsWith(base) || !keys.contains(tableFolder + list.substring(base.length())))
                        problems.add(new Problem(key, "names manifest list " + list + ", which is not in " + tableFolder));
                }
            } catch (RuntimeException e) {
                problems.add(new Problem(key, "is not Iceberg table metadata: " + e.getMessage()));
            }
        }
        return problems;
    }
}
