package dev.fdl.workingcopy;

import dev.fdl.FdlException;
import dev.fdl.ducklake.ProgressListener;
import dev.fdl.ducklake.catalog.CatalogInspector;
import dev.fdl.repo.RefName;
import dev.fdl.repo.RepoLayout;
import dev.fdl.repo.Repository;
import dev.fdl.repo.WorkingCatalogEdits;
import dev.fdl.store.FaultyStore;
import dev.fdl.store.ForwardingStore;
import dev.fdl.store.LocalStore;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Payload;
import dev.fdl.store.StoreException;
import dev.fdl.store.WriteResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The empty snapshot a description-only commit adds to the working catalog (SPEC.md section 4):
 * taken back when no ref can name the version (a failure before step 9, or step 9 refused), kept
 * when step 9 may have moved the ref (a lost reply), so that the working catalog always has the
 * snapshot its state's base names.
 */
class DescriptionOnlyCommitTest {
    @TempDir Path dir;
    ObjectStore store;
    Repository repo;
    WorkingCopy wc;
    long before;

    WorkingCopy checkout(String name, String ref) {
        WorkingCopy w = WorkingCopy.create(dir.resolve(name));
        Checkout.run(repo, CommitProtocolContract.CATALOGS, w, ref, null, false, ProgressListener.NONE);
        return w;
    }

    static Commit.CommitResult commit(Repository r, WorkingCopy w, String msg) {
        return CommitProtocolContract.commit(r, w, msg);
    }

    void addTable(WorkingCopy w, String table) throws Exception {
        WorkingCatalogEdits.addTable(w.catalog(), store, repo.dataDir(), table, 5);
    }

    @BeforeEach
    void aVersionAndAnEditedDescription() throws Exception {
        store = new LocalStore(dir.resolve("repo"));
        repo = Repository.init(store, new RefName("main"));
        wc = checkout("wc", null);
        addTable(wc, "a");
        commit(repo, wc, "one");
        before = lastSnapshot(wc);
        Files.writeString(wc.dir().resolve("dataset.json"), "{\"name\": \"a\", \"title\": \"Things\"}\n");
    }

    static long lastSnapshot(WorkingCopy wc) {
        try (CatalogInspector c = CatalogInspector.open(wc.catalog())) {
            return c.lastSnapshotId();
        }
    }

    @Test
    void aDescriptionOnlyCommitThatLosesTheRaceForTheRefTakesItsSnapshotBack() throws Exception {
        WorkingCopy other = checkout("other", "main");
        addTable(other, "b");
        ObjectStore racing = new ForwardingStore(store) {
            boolean raced;

            @Override
            protected void before(String op, String key) {
                if (!raced && op.equals("put") && key.endsWith("/" + RepoLayout.VERSION_JSON)) { // between steps 8 and 9
                    raced = true;
                    commit(repo, other, "the other one wins");
                }
            }
        };
        assertThatThrownBy(() -> commit(Repository.open(racing), wc, "describe"))
                .isInstanceOf(FdlException.class).satisfies(e -> assertThat(((FdlException) e).kind()).isEqualTo(FdlException.Kind.CONFLICT));
        assertThat(lastSnapshot(wc)).as("the snapshot of the refused commit is taken back").isEqualTo(before);
        assertThat(Commit.pending(repo, wc).commitAddsSnapshot()).isTrue();
    }

    @Test
    void aLostReplyAtStep9KeepsTheSnapshotTheMovedRefNames() throws Exception {
        ObjectStore lostReply = new ForwardingStore(store) {
            @Override
            public WriteResult putIfMatch(String key, Payload body, String etag) {
                WriteResult r = delegate.putIfMatch(key, body, etag);
                throw new StoreException(key, "connection reset after the write (" + r + ")");
            }
        };
        assertThatThrownBy(() -> commit(Repository.open(lostReply), wc, "describe")).isInstanceOf(StoreException.class);
        assertThat(Commit.reconcile(repo, wc)).as("the ref moved: the next command takes the version as the base").isTrue();
        assertThat(lastSnapshot(wc)).as("the working catalog has the snapshot the base names").isEqualTo(wc.state().baseSnapshot())
                .isEqualTo(before + 1);
        assertThat(Commit.pending(repo, wc).snapshots()).isZero();
        addTable(wc, "b");
        assertThat(commit(repo, wc, "two").version().ducklake().firstSnapshot()).isEqualTo(before + 2);
    }

    @Test
    void aCrashAtAnyStoreCallLeavesOneSnapshotAtMostAndARetryPublishesIt() {
        int k = 0;
        Commit.CommitResult done = null;
        while (done == null) {
            k++;
            assertThat(k).isLessThan(100);
            try {
                done = commit(Repository.open(FaultyStore.atCall(store, k)), wc, "attempt " + k);
            } catch (StoreException e) {
                assertThat(lastSnapshot(wc)).as("after a crash at call " + k).isBetween(before, before + 1);
            }
        }
        assertThat(done.version().ducklake().firstSnapshot()).isEqualTo(before + 1);
        assertThat(done.version().ducklake().lastSnapshot()).isEqualTo(before + 1);
        assertThat(lastSnapshot(wc)).isEqualTo(before + 1);
    }
}
