package dev.fdl.repo;

import dev.fdl.store.ForwardingStore;
import dev.fdl.store.LocalStore;
import dev.fdl.store.ObjectStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Every change of a ref is a {@link RefUpdate} with an expected old value and an explicit result (SPEC.md section 4). */
class RefUpdateTest {
    @TempDir
    Path dir;
    ObjectStore store;
    Repository repo;
    String v1, v2;

    static final RefName MAIN = new RefName("main"), DEV = new RefName("dev");

    @BeforeEach
    void init() {
        store = new LocalStore(dir);
        repo = Repository.init(store, MAIN);
        v1 = TestVersions.addVersion(store, List.of(), 1, "first");
        v2 = TestVersions.addVersion(store, List.of(v1), 2, "second");
    }

    private RefValue branch(RefName name) {
        return repo.readBranch(name).orElse(null);
    }

    @Test
    void createIsCreatedOnceThenAConflictNamingWhatIsThere() {
        RefUpdate.Outcome first = repo.updateRef(RefValue.Kind.BRANCH, DEV).create(v1);
        RefUpdate.Outcome second = repo.updateRef(RefValue.Kind.BRANCH, DEV).create(v2);

        assertThat(first.result()).isEqualTo(RefUpdate.Result.CREATED);
        assertThat(first.ref()).isEqualTo(branch(DEV));
        assertThat(second.result()).isEqualTo(RefUpdate.Result.CONFLICT);
        assertThat(second.current().versionId()).isEqualTo(v1);
        assertThat(second.message()).contains("branch 'dev' already exists").contains(v1);
        assertThat(branch(DEV).versionId()).isEqualTo(v1);
    }

    @Test
    void moveNeedsTheEtagItWasReadAt() {
        RefValue read = repo.updateRef(RefValue.Kind.BRANCH, DEV).create(v1).ref();
        RefUpdate.Outcome moved = repo.updateRef(RefValue.Kind.BRANCH, DEV).move(read.etag(), v2);
        RefUpdate.Outcome stale = repo.updateRef(RefValue.Kind.BRANCH, DEV).move(read.etag(), v1);

        assertThat(moved.result()).isEqualTo(RefUpdate.Result.MOVED);
        assertThat(moved.ref().versionId()).isEqualTo(v2);
        assertThat(stale.result()).isEqualTo(RefUpdate.Result.CONFLICT);
        assertThat(stale.current().versionId()).isEqualTo(v2);
        assertThat(stale.message()).contains("now points at version " + v2);
        assertThat(branch(DEV).versionId()).isEqualTo(v2);
    }

    @Test
    void aMoveOfADeletedBranchIsNotFoundAndCreatesNothing() {
        RefValue read = repo.updateRef(RefValue.Kind.BRANCH, DEV).create(v1).ref();
        assertThat(repo.deleteRef(RefValue.Kind.BRANCH, DEV).result()).isEqualTo(RefUpdate.Result.DELETED);

        RefUpdate.Outcome o = repo.updateRef(RefValue.Kind.BRANCH, DEV).move(read.etag(), v2);

        assertThat(o.result()).isEqualTo(RefUpdate.Result.NOT_FOUND);
        assertThat(branch(DEV)).isNull();
    }

    @Test
    void tagsAreNeverMoved() {
        RefValue tag = created(repo.createTag(new RefName("v1"), v1));
        Map<String, String> before = TestVersions.snapshot(store);

        RefUpdate.Outcome o = repo.updateRef(RefValue.Kind.TAG, new RefName("v1")).move(tag.etag(), v2);

        assertThat(o.result()).isEqualTo(RefUpdate.Result.REJECTED);
        assertThat(o.message()).contains("tags are never moved");
        assertThat(TestVersions.snapshot(store)).isEqualTo(before);
    }

    @Test
    void aDeleteNeverDropsACommitThatMovedTheBranchAfterItWasRead() {
        RefValue read = repo.updateRef(RefValue.Kind.BRANCH, DEV).create(v1).ref();
        repo.updateRef(RefValue.Kind.BRANCH, DEV).move(read.etag(), v2); // a commit lands

        RefUpdate.Outcome o = repo.updateRef(RefValue.Kind.BRANCH, DEV).delete(read);

        assertThat(o.result()).isEqualTo(RefUpdate.Result.CONFLICT);
        assertThat(o.current().versionId()).isEqualTo(v2);
        assertThat(o.message()).contains("now points at version " + v2).contains("nothing was deleted");
        assertThat(branch(DEV).versionId()).isEqualTo(v2);
    }

    @Test
    void deleteRefReadsThenDeletesAtWhatItReadSoACommitInBetweenSurvives() {
        repo.updateRef(RefValue.Kind.BRANCH, DEV).create(v1);
        ObjectStore racing = new ForwardingStore(store) {
            boolean moved;

            @Override
            protected void before(String op, String key) {
                if (op.equals("deleteIfMatch") && !moved) {
                    moved = true; // a commit moves the branch between deleteRef's read and its delete
                    store.putIfMatch(key, Repository.refBytes(v2), store.head(key).orElseThrow().etag());
                }
            }
        };

        RefUpdate.Outcome o = Repository.open(racing).deleteRef(RefValue.Kind.BRANCH, DEV);

        assertThat(o.result()).isEqualTo(RefUpdate.Result.CONFLICT);
        assertThat(branch(DEV).versionId()).isEqualTo(v2);
    }

    @Test
    void headsBranchIsNotDeletedAndAnAbsentRefIsNotFound() {
        repo.updateRef(RefValue.Kind.BRANCH, MAIN).create(v1);
        Map<String, String> before = TestVersions.snapshot(store);

        RefUpdate.Outcome head = repo.deleteRef(RefValue.Kind.BRANCH, MAIN);
        RefUpdate.Outcome absent = repo.deleteRef(RefValue.Kind.TAG, new RefName("nope"));

        assertThat(head.result()).isEqualTo(RefUpdate.Result.REJECTED);
        assertThat(head.message()).contains("HEAD names it");
        assertThat(absent.result()).isEqualTo(RefUpdate.Result.NOT_FOUND);
        assertThat(absent.message()).contains("tag 'nope' not found");
        assertThat(TestVersions.snapshot(store)).isEqualTo(before);
    }

    @Test
    void aRefCannotAlsoBeAFolderOfRefs() {
        repo.updateRef(RefValue.Kind.BRANCH, new RefName("a/b")).create(v1);

        RefUpdate.Outcome parent = repo.updateRef(RefValue.Kind.BRANCH, new RefName("a")).create(v1);
        RefUpdate.Outcome child = repo.updateRef(RefValue.Kind.BRANCH, new RefName("a/b/c")).create(v1);
        RefUpdate.Outcome otherKind = repo.updateRef(RefValue.Kind.TAG, new RefName("a")).create(v1);

        assertThat(parent.result()).isEqualTo(RefUpdate.Result.CONFLICT);
        assertThat(parent.message()).contains("'a/b' exists under that name");
        assertThat(child.result()).isEqualTo(RefUpdate.Result.CONFLICT);
        assertThat(child.message()).contains("branch 'a/b' exists");
        assertThat(otherKind.result()).isEqualTo(RefUpdate.Result.CREATED);
    }

    /** The ref of an outcome that must have created it. */
    private static RefValue created(RefUpdate.Outcome o) {
        assertThat(o.result()).as(o.message()).isEqualTo(RefUpdate.Result.CREATED);
        return o.ref();
    }
}
