package dev.fdl.store;

import java.nio.file.Path;

/**
 * Child JVM of {@link ObjectStoreContract#largeObjectsStreamThroughASmallHeap}: writes a large
 * file plainly and conditionally through {@code Stores.open(root)} and downloads both copies,
 * under a heap smaller than the file. Prints one {@code name=STATUS} line per conditional write.
 * Arguments: root, file, download folder.
 */
public final class LargeObjectWorker {
    public static void main(String[] args) {
        try (ObjectStore store = Stores.open(args[0])) {
            Path file = Path.of(args[1]);
            Path back = Path.of(args[2]);
            store.put("large/plain.bin", Payload.of(file));
            store.download("large/plain.bin", back.resolve("plain.bin")).orElseThrow();
            WriteResult created = store.putIfAbsent("large/conditional.bin", Payload.of(file));
            System.out.println("conditional-create=" + created.status());
            System.out.println("second-create=" + store.putIfAbsent("large/conditional.bin", Payload.of(file)).status());
            System.out.println("conditional-replace=" + store.putIfMatch("large/conditional.bin", Payload.of(file), created.etag()).status());
            System.out.println("stale-replace=" + store.putIfMatch("large/conditional.bin", Payload.of(file),
                    "0123456789abcdef0123456789abcdef").status());
            store.download("large/conditional.bin", back.resolve("conditional.bin")).orElseThrow();
            System.out.println("heap-max=" + Runtime.getRuntime().maxMemory());
        } catch (RuntimeException | Error e) {
            System.out.println("failed: " + e);
            e.printStackTrace(System.out);
            System.exit(1);
        }
    }
}
