package dev.fdl.store;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One racing process of the cross-process race test ({@link RaceCheck}). Opens the root with
 * {@code Stores.open}, prints {@code READY}, waits for a line on stdin, then:
 * <ol>
 *   <li>for each round r: {@code putIfAbsent("race/create-r")}, prints {@code create r WON|LOST};</li>
 *   <li>for each round r: {@code putIfMatch("race/match-r", etag r)}, prints {@code match r WON|LOST};</li>
 *   <li>appends its line {@code w:i} to {@code race/counter} {@code increments} times by
 *       read-compare-and-replace, retrying when refused.</li>
 * </ol>
 * Arguments: root, worker id, rounds, increments, file of the initial ETags of the match keys.
 */
public final class RaceWorker {
    public static void main(String[] args) throws Exception {
        String root = args[0];
        int worker = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        int increments = Integer.parseInt(args[3]);
        List<String> etags = Files.readAllLines(Path.of(args[4]));
        try (ObjectStore store = Stores.open(root)) {
            store.head("race/none"); // connect before the start line
            System.out.println("READY");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            for (int r = 0; r < rounds; r++) {
                WriteResult w = store.putIfAbsent("race/create-" + r, RaceCheck.content(worker, r));
                System.out.println("create " + r + " " + (w.isWritten() ? "WON" : "LOST"));
            }
            for (int r = 0; r < rounds; r++) {
                WriteResult w = store.putIfMatch("race/match-" + r, RaceCheck.content(worker, r), etags.get(r));
                System.out.println("match " + r + " " + (w.isWritten() ? "WON" : "LOST"));
            }
            for (int i = 0; i < increments; i++) {
                while (true) {
                    ObjectBytes now = store.get("race/counter").orElseThrow();
                    byte[] next = (new String(now.bytes(), StandardCharsets.UTF_8) + worker + ":" + i + "\n")
                            .getBytes(StandardCharsets.UTF_8);
                    if (store.putIfMatch("race/counter", next, now.etag()).isWritten()) break;
                }
            }
            System.out.println("DONE");
        } catch (RuntimeException e) {
            System.out.println("failed: " + e);
            e.printStackTrace(System.out);
            System.exit(1);
        }
    }
}
