package dev.fdl.store;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cross-process race (SPEC.md section 2: conditional writes are atomic against other
 * processes): {@value #WORKERS} JVMs run {@link RaceWorker} on one root, released together; a
 * reader in this JVM reads the raced keys all along. Exactly one process wins each round, the
 * stored object is the winner's, no increment of the shared counter is lost, and the reader
 * never sees anything but a whole object.
 */
final class RaceCheck {
    static final int WORKERS = 4;
    static final int ROUNDS = 15;
    static final int INCREMENTS = 8;
    /** Objects are 64 KiB so that a torn (partial) read would show. */
    static final int SIZE = 64 * 1024;

    private RaceCheck() {}

    /** The body worker {@code worker} writes in round {@code round}; -1 is the initial body. */
    static byte[] content(int worker, int round) {
        byte[] unit = ("w" + worker + "r" + round + ";").getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[SIZE];
        for (int i = 0; i < SIZE; i++) out[i] = unit[i % unit.length];
        return out;
    }

    static void run(ObjectStore store, Map<String, String> env, Path tmp) throws Exception {
        List<String> etags = new ArrayList<>();
        for (int r = 0; r < ROUNDS; r++) etags.add(store.put("race/match-" + r, content(-1, r)).etag());
        store.put("race/counter", new byte[0]);
        Path etagFile = tmp.resolve("etags.txt");
        Files.write(etagFile, etags);

        List<Process> procs = new ArrayList<>();
        List<BufferedReader> outs = new ArrayList<>();
        try {
            for (int w = 0; w < WORKERS; w++) {
                Process p = ChildJvm.start(RaceWorker.class, "-Xmx96m", env, store.root(), Integer.toString(w),
                        Integer.toString(ROUNDS), Integer.toString(INCREMENTS), etagFile.toString());
                procs.add(p);
                outs.add(new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
            }
            for (int w = 0; w < WORKERS; w++) {
                String line;
                do line = outs.get(w).readLine(); while (line != null && !line.equals("READY"));
                assertThat(line).as("worker " + w + " start").isEqualTo("READY");
            }
            AtomicBoolean racing = new AtomicBoolean(true);
            ConcurrentLinkedQueue<String> torn = new ConcurrentLinkedQueue<>();
            AtomicInteger reads = new AtomicInteger();
            Thread reader = new Thread(() -> {
                while (racing.get()) {
                    int r = ThreadLocalRandom.current().nextInt(ROUNDS);
                    checkWhole(store.get("race/create-" + r), r, false, torn);
                    checkWhole(store.get("race/match-" + r), r, true, torn);
                    reads.addAndGet(2);
                }
            }, "race-reader");
            reader.start();
            for (Process p : procs) {
                OutputStream in = p.getOutputStream();
                in.write("GO\n".getBytes(StandardCharsets.US_ASCII));
                in.flush();
            }
            List<List<String>> lines = new ArrayList<>();
            for (int w = 0; w < WORKERS; w++) {
                List<String> l = new ArrayList<>();
                String line;
                while ((line = outs.get(w).readLine()) != null) l.add(line);
                lines.add(l);
            }
            for (Process p : procs) p.waitFor();
            racing.set(false);
            reader.join();

            for (int w = 0; w < WORKERS; w++) assertThat(lines.get(w)).as("worker " + w).contains("DONE");
            for (String phase : List.of("create", "match")) {
                for (int r = 0; r < ROUNDS; r++) {
                    List<Integer> winners = new ArrayList<>();
                    for (int w = 0; w < WORKERS; w++) if (lines.get(w).contains(phase + " " + r + " WON")) winners.add(w);
                    assertThat(winners).as(phase + " round " + r + " winners").hasSize(1);
                    byte[] stored = store.get("race/" + phase + "-" + r).orElseThrow().bytes();
                    assertThat(stored).as(phase + " round " + r + " holds the winner's write").isEqualTo(content(winners.get(0), r));
                }
            }
            List<String> counter = Arrays.asList(new String(store.get("race/counter").orElseThrow().bytes(),
                    StandardCharsets.UTF_8).split("\n"));
            Set<String> expected = new HashSet<>();
            for (int w = 0; w < WORKERS; w++) for (int i = 0; i < INCREMENTS; i++) expected.add(w + ":" + i);
            assertThat(counter).as("every increment exactly once").hasSize(WORKERS * INCREMENTS).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(torn).as("partial objects seen by the reader").isEmpty();
            assertThat(reads.get()).isPositive();
        } finally {
            for (Process p : procs) p.destroyForcibly();
        }
    }

    private static void checkWhole(Optional<ObjectBytes> got, int round, boolean initialAllowed, ConcurrentLinkedQueue<String> torn) {
        if (got.isEmpty()) {
            if (initialAllowed) torn.add("match-" + round + " missing");
            return;
        }
        byte[] b = got.get().bytes();
        if (initialAllowed && Arrays.equals(b, content(-1, round))) return;
        for (int w = 0; w < WORKERS; w++) if (Arrays.equals(b, content(w, round))) return;
        torn.add((initialAllowed ? "match-" : "create-") + round + ": " + b.length + " bytes");
    }
}
