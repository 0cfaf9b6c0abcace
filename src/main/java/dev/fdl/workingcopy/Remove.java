package dev.fdl.workingcopy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fdl.FdlException;
import dev.fdl.dataset.DatasetDescriptor;
import dev.fdl.dataset.TableFacts;
import dev.fdl.ducklake.working.TableDrop;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.repo.VersionInfo;
import dev.fdl.util.Json;
import dev.fdl.util.JsonRead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code fdl rm <table>…}, as {@code git rm}: the tables leave the working copy now and the
 * published dataset at the next commit. The working catalog gets one snapshot dropping them as
 * DuckLake's {@code DROP TABLE} does ({@link TableDrop}; no data file is deleted), and the working
 * copy's dataset.json loses the resources describing them when nothing of the user's is lost
 * ({@link DatasetDescriptor#withoutTables}): otherwise the next commit would refuse a description
 * of a table that does not exist.
 */
public final class Remove {
    /**
     * What rm did.
     *
     * @param description the working copy's description file, or null when it has none
     * @param removed     resources removed from it
     * @param kept        resources describing a dropped table that were kept (they hold words no version has)
     * @param unreadable  why the description could not be read (it was left as it is), or null
     */
    public record RemoveResult(TableDrop.DropResult drop, Path description, List<String> removed, List<String> kept, String unreadable) {
        public RemoveResult {
            removed = List.copyOf(removed);
            kept = List.copyOf(kept);
        }
    }

    private Remove() {}

    /**
     * Drops {@code tables} from {@code wc}'s working catalog and their descriptions from its dataset.json.
     *
     * @param repo the working copy's repository, read for the base version's description (null: none is read)
     * @throws FdlException as {@link TableDrop#drop} (nothing changed); exit 1 when dataset.json
     *     cannot be written once the tables are dropped (the message says so)
     */
    public static RemoveResult run(Repository repo, WorkingCopy wc, List<String> tables, String message) {
        Path file = wc.datasetFile();
        ObjectNode descriptor = null;
        String unreadable = null;
        if (file != null) {
            try {
                descriptor = JsonRead.parseUserObject(Files.readAllBytes(file), file.toString());
            } catch (IOException | FdlException e) {
                unreadable = e.getMessage();
            }
        }
        ObjectNode base = descriptor == null || repo == null ? null : baseDescription(repo, wc);
        TableDrop.DropResult drop = TableDrop.drop(wc.catalog(), tables, null, message);
        if (descriptor == null) return new RemoveResult(drop, file, List.of(), List.of(), unreadable);
        List<String> names = new ArrayList<>();
        for (TableDrop.Dropped d : drop.tables()) names.add(TableFacts.resourceName(d.table().schema(), d.table().name()));
        DatasetDescriptor.Removal r = DatasetDescriptor.withoutTables(descriptor, names, base);
        if (!r.removed().isEmpty()) {
            try {
                Description.place(wc, Json.bytes(r.descriptor()));
            } catch (FdlException e) {
                throw new FdlException(e.kind(), "removed " + names + " from the working catalog (snapshot " + drop.snapshot()
                        + "), but " + e.getMessage() + "; remove resource(s) " + r.removed() + " from " + file + " yourself", e);
            }
        }
        return new RemoveResult(drop, file, r.removed(), r.kept(), null);
    }

    /**
     * The base version's description, or null when there is none or it cannot be read (then only
     * what fdl filled is removed: a damaged repository, which fdl verify reports, must not stop rm).
     */
    private static ObjectNode baseDescription(Repository repo, WorkingCopy wc) {
        try {
            VersionInfo v = Description.base(repo, wc).orElse(null);
            return v == null ? null : JsonRead.parseObject(Description.read(repo, v), RepoLayout.versionFile(v.id(), v.dataset().path()));
        } catch (FdlException e) {
            return null;
        }
    }
}
