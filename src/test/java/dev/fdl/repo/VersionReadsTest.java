package dev.fdl.repo;

import dev.fdl.FdlException;
import dev.fdl.store.LocalStore;
import dev.fdl.store.ObjectBytes;
import dev.fdl.store.ObjectMeta;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Payload;
import dev.fdl.store.WriteResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A log's reads of version.json ahead of its walk: bounded by the walk's progress, and a cache
 * only (the same entries and the same failures as a store that cannot name its versions cheaply).
 */
class VersionReadsTest {
    static final int VERSIONS = 60;
    @TempDir Path dir;
    LocalStore local;
    /** Newest first: a line of history, with a side branch merged near the top. */
    final List<String> ids = new ArrayList<>();

    @BeforeEach
    void history() {
        local = new LocalStore(dir);
        Repository.init(local, new RefName("main"));
        for (int seq = 1; seq <= VERSIONS; seq++)
            ids.add(0, TestVersions.addVersion(local, ids.isEmpty() ? List.of() : List.of(ids.get(0)), seq, "v" + seq));
        String side = TestVersions.addVersion(local, List.of(ids.get(30)), 31, "side");
        ids.add(0, TestVersions.addVersion(local, List.of(ids.get(0), side), VERSIONS + 1, "merge"));
        for (int i = 0; i < ids.size(); i += 7) TestVersions.expire(local, ids.get(i));
    }

    @Test
    void readsAheadNoFurtherThanTheWindowPastTheWalk() {
        Counting store = new Counting(true);
        try (VersionReads reads = new VersionReads(Repository.open(store).versions())) {
            assertThat(reads.apply(ids.get(0))).isPresent();
            reads.awaitReadsAhead();
            // the walk's own read, then the window past it but for the id right after, left to the walk
            assertThat(store.versionJsonReads.get()).isEqualTo(1 + VersionReads.AHEAD - 1);
            assertThat(reads.apply(ids.get(2)).orElseThrow().id()).isEqualTo(ids.get(2)); // read ahead: no read of its own
            reads.awaitReadsAhead(); // two more ids allowed: too few to wake the thread
            assertThat(store.versionJsonReads.get()).isEqualTo(VersionReads.AHEAD);
        }
    }

    @Test
    void aShortLogReadsFewVersionFiles() {
        Counting store = new Counting(true);
        assertThat(Repository.open(store).log(ids.get(0), 2)).hasSize(2);
        assertThat(store.versionJsonReads.get()).isLessThanOrEqualTo(4 + VersionReads.AHEAD).isLessThan(VERSIONS / 2);
    }

    @Test
    void theSameEntriesWithAndWithoutReadingAhead() {
        Repository ahead = Repository.open(new Counting(true));
        Repository plain = Repository.open(new Counting(false));
        assertThat(ahead.log(ids.get(0), -1)).isEqualTo(plain.log(ids.get(0), -1)).hasSize(VERSIONS + 2);
        assertThat(ahead.log(ids.get(0), 5)).isEqualTo(plain.log(ids.get(0), 5));
        assertThat(ahead.log(ids.get(0), ids.get(20), -1)).isEqualTo(plain.log(ids.get(0), ids.get(20), -1)).hasSize(21);
        assertThat(ahead.log(ids.get(0), null, -1, HistoryWalk.Parents.FIRST))
                .isEqualTo(plain.log(ids.get(0), null, -1, HistoryWalk.Parents.FIRST)).hasSize(VERSIONS + 1);
    }

    @Test
    void aDamagedVersionFailsTheSameWithAndWithoutReadingAhead() {
        String damaged = RepoLayout.versionJson(ids.get(5));
        local.put(damaged, "{".getBytes(StandardCharsets.UTF_8));
        String plain = failure(new Counting(false));
        assertThat(plain).contains(damaged);
        assertThat(failure(new Counting(true))).isEqualTo(plain);
        try (VersionReads reads = new VersionReads(Repository.open(new Counting(true)).versions())) {
            reads.apply(ids.get(0));
            reads.awaitReadsAhead(); // the damaged one was read ahead, and failed there
            assertThat(catchThrowable(() -> reads.apply(ids.get(5)))).isInstanceOf(FdlException.class).hasMessage(plain);
        }
    }

    private String failure(ObjectStore store) {
        Throwable t = catchThrowable(() -> Repository.open(store).log(ids.get(0), -1));
        assertThat(t).isInstanceOf(FdlException.class);
        return t.getMessage();
    }

    /** The local store, counting reads of version.json; names its versions cheaply only when {@code names}. */
    private final class Counting implements ObjectStore {
        final boolean names;
        final AtomicInteger versionJsonReads = new AtomicInteger();

        Counting(boolean names) {
            this.names = names;
        }

        @Override public Optional<ObjectBytes> get(String key) {
            if (key.endsWith("/" + RepoLayout.VERSION_JSON)) versionJsonReads.incrementAndGet();
            return local.get(key);
        }
        @Override public Optional<List<String>> namesUnder(String prefix) { return names ? local.namesUnder(prefix) : Optional.empty(); }
        @Override public String root() { return local.root(); }
        @Override public Optional<ObjectMeta> download(String key, Path target) { return local.download(key, target); }
        @Override public Optional<ObjectMeta> head(String key) { return local.head(key); }
        @Override public WriteResult putIfAbsent(String key, Payload body) { return local.putIfAbsent(key, body); }
        @Override public WriteResult putIfMatch(String key, Payload body, String etag) { return local.putIfMatch(key, body, etag); }
        @Override public WriteResult put(String key, Payload body) { return local.put(key, body); }
        @Override public Stream<ObjectMeta> list(String prefix) { return local.list(prefix); }
        @Override public void delete(String key) { local.delete(key); }
        @Override public String location(String key) { return local.location(key); }
    }
}
