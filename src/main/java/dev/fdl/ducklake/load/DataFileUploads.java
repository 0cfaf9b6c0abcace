package dev.fdl.ducklake.load;

import dev.fdl.ducklake.DataProgress;
import dev.fdl.store.ObjectStore;
import dev.fdl.store.Payload;
import dev.fdl.util.VersionIds;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Uploads the data files {@link DataFileWriter} writes into a local folder while DuckDB goes on
 * writing the next ones, for import and sync alike: each finished file is put under the table's
 * folder as {@code ducklake-<uuidv7>.parquet} (names given in the files' row order), at most
 * {@link #IN_FLIGHT} uploads at a time, each streamed from disk by the store
 * ({@link ObjectStore#put}; S3 in parts above its multipart threshold).
 *
 * <p>A file is finished when DuckDB has closed it: DuckDB writes each file once, front to back,
 * and never opens it again, so a file that exists in the folder and that no descriptor of this
 * process holds open ({@code /proc/self/fd}, Linux) is complete. The folder is watched every
 * {@value #POLL_MILLIS} ms while the statement runs; where {@code /proc/self/fd} does not exist,
 * files are uploaded once the statement has ended. Whatever the signal said, a file is uploaded
 * again when its size after the statement differs from the size it was uploaded at, so what the
 * store holds is always the finished file.
 *
 * <p>On any failure (the statement's, an upload's) the uploads under way are waited for and every
 * key put is deleted again before the error is passed on; on success the caller owns the keys
 * (and deletes them when its snapshot is not written). The local files stay in place (the
 * caller reads their statistics, then removes its scratch folder).
 */
public final class DataFileUploads {
    /** Uploads under way at most at one time. */
    public static final int IN_FLIGHT = 3;
    /** How often the folder is looked at while DuckDB writes, in milliseconds. */
    static final long POLL_MILLIS = 50;
    private static final Path OPEN_FILES = Path.of("/proc/self/fd");

    /**
     * When files are uploaded: while DuckDB writes, {@link #IN_FLIGHT} at a time (what fdl does), or
     * only after the statement, one after another (to measure the difference: {@code bench.UploadBench}).
     */
    public enum Schedule { WHILE_WRITING, AFTER_WRITING }

    /** The statement that writes the files: returns them in row order ({@link DataFileWriter.Written#files()}). */
    @FunctionalInterface
    public interface Write {
        List<Path> write() throws SQLException;
    }

    /**
     * One uploaded data file: the local file (as written), its name in the table's folder, its key
     * and its size in bytes.
     */
    public record Uploaded(Path file, String fileName, String key, long bytes) {}

    private final ObjectStore store;
    private final String folderKey;
    private final Path localFolder;
    private final DataProgress progress;
    private final DataFileDigests digests;
    private final ExecutorService pool;
    private final Map<Path, Job> jobs = new LinkedHashMap<>();
    private final List<String> names = new ArrayList<>();
    /** Bytes the store has read of the files to send them, counted as it goes (a retried request counts again). */
    private final AtomicLong sentBytes = new AtomicLong();

    private DataFileUploads(ObjectStore store, String folderKey, Path localFolder, DataProgress progress, DataFileDigests digests,
                            int threads) {
        this.store = store;
        this.digests = digests;
        this.folderKey = folderKey;
        this.localFolder = localFolder;
        this.progress = progress;
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "fdl-upload");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Runs {@code write}, which writes data files into {@code localFolder}, uploading each file as
     * soon as it is finished, and the rest once {@code write} returns.
     *
     * @param folderKey the table's folder key, ending in {@code /} (the file names are appended)
     * @param progress  told the bytes uploaded ({@code uploading}), counted as the store sends them, from
     *                  when the statement has ended until the last upload returns
     * @return the files {@code write} returned, in its order, each with its key; keys of files it
     *         did not return are deleted again
     * @throws SQLException what {@code write} threw; nothing stays uploaded then
     * @throws dev.fdl.store.StoreException when an upload fails; nothing stays uploaded then
     */
    public static List<Uploaded> run(ObjectStore store, String folderKey, Path localFolder, DataProgress progress, Write write)
            throws SQLException {
        return run(Schedule.WHILE_WRITING, store, folderKey, localFolder, progress, DataFileDigests.NONE, write);
    }

    /**
     * {@link #run(ObjectStore, String, Path, DataProgress, Write)}, recording each uploaded file's
     * SHA-256 in {@code digests}, hashed by the upload's own thread once the put is done.
     */
    public static List<Uploaded> run(ObjectStore store, String folderKey, Path localFolder, DataProgress progress,
                                     DataFileDigests digests, Write write) throws SQLException {
        return run(Schedule.WHILE_WRITING, store, folderKey, localFolder, progress, digests, write);
    }

    /**
     * {@link #run(ObjectStore, String, Path, DataProgress, DataFileDigests, Write)} with the uploads
     * scheduled as {@code schedule} says.
     */
    public static List<Uploaded> run(Schedule schedule, ObjectStore store, String folderKey, Path localFolder, DataProgress progress,
                                     DataFileDigests digests, Write write) throws SQLException {
        boolean overlapped = schedule == Schedule.WHILE_WRITING;
        DataFileUploads u = new DataFileUploads(store, folderKey, localFolder, progress, digests, overlapped ? IN_FLIGHT : 1);
        boolean done = false;
        try {
            List<Path> files;
            Thread watcher = overlapped && Files.isDirectory(OPEN_FILES) ? u.watch() : null;
            try {
                files = write.write();
            } finally {
                if (watcher != null) {
                    watcher.interrupt();
                    dev.fdl.util.BatchedWorker.joinUninterruptibly(watcher);
                }
            }
            List<Uploaded> result = u.finish(files);
            done = true;
            return result;
        } finally {
            if (!done) u.abort();
            u.pool.shutdownNow();
        }
    }

    /** One upload: its file, key, the size it was started at, and its outcome. */
    private record Job(Path file, String fileName, long size, Future<?> future) {}

    private Thread watch() {
        Thread t = new Thread(() -> {
            Set<Path> previous = Set.of();
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    previous = offerFinished(previous);
                    Thread.sleep(POLL_MILLIS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException | RuntimeException e) {
                // the signal is only a head start: whatever is not uploaded yet is uploaded when the statement ends
            }
        }, "fdl-upload-watch");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Starts the upload of each {@code .parquet} file of the folder that the listing before this
     * one ({@code previous}) already showed and that no descriptor holds open now: a file seen
     * once is past its creation, so being closed now means DuckDB is done with it.
     *
     * @return this look's listing, for the next
     */
    private Set<Path> offerFinished(Set<Path> previous) throws IOException {
        if (!Files.isDirectory(localFolder)) return Set.of();
        Set<Path> listed = new HashSet<>();
        try (DirectoryStream<Path> d = Files.newDirectoryStream(localFolder, "*.parquet")) {
            for (Path p : d) listed.add(p);
        }
        Set<Path> open = openFiles(localFolder.toRealPath());
        for (Path p : previous) {
            if (listed.contains(p) && !open.contains(p.getFileName())) submit(p);
        }
        return listed;
    }

    /** The names of the files of {@code folder} that a descriptor of this process holds open. */
    static Set<Path> openFiles(Path folder) throws IOException {
        Set<Path> open = new HashSet<>();
        try (DirectoryStream<Path> d = Files.newDirectoryStream(OPEN_FILES)) {
            for (Path fd : d) {
                Path target;
                try {
                    target = Files.readSymbolicLink(fd);
                } catch (IOException | UnsupportedOperationException e) {
                    continue; // closed meanwhile
                }
                if (folder.equals(target.getParent())) open.add(target.getFileName());
            }
        }
        return open;
    }

    /** Starts the upload of {@code file} unless it is under way or done at its present size. */
    private synchronized void submit(Path file) {
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        Job job = jobs.get(file);
        if (job != null && job.size() == size) return;
        String fileName = job != null ? job.fileName() : name(file);
        if (job != null) await(job); // an earlier upload of this key must not land after the new one
        String key = folderKey + fileName;
        Future<?> f = pool.submit(() -> {
            store.put(key, Payload.of(file).counting(sentBytes::addAndGet));
            digests.hashAndRecord(key, file, size);
        });
        jobs.put(file, new Job(file, fileName, size, f));
    }

    /** The file name of the data file DuckDB numbered as {@code file}: UUIDv7s handed out in that numbering's order. */
    private String name(Path file) {
        int index = (int) DataFileWriter.index(file);
        while (names.size() <= index) names.add("ducklake-" + VersionIds.next() + ".parquet");
        return names.get(index);
    }

    /** Uploads what is left of {@code files}, waits for every upload, and deletes the keys of files not among them. */
    private List<Uploaded> finish(List<Path> files) {
        long total = 0;
        for (Path f : files) {
            submit(f);
            total += jobs.get(f).size();
        }
        List<Job> all;
        synchronized (this) {
            all = new ArrayList<>(jobs.values());
        }
        for (Job j : all) {
            while (!j.future().isDone()) {
                // below the total until every upload has returned: the line ends with the last one
                if (progress.shown()) progress.update("uploading", Math.min(sentBytes.get(), total - 1), total, "bytes");
                try {
                    j.future().get(250, TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    // report progress and go on waiting
                } catch (InterruptedException | ExecutionException e) {
                    break; // await below reports it
                }
            }
            await(j);
        }
        if (progress.shown()) progress.update("uploading", total, total, "bytes");
        Set<Path> wanted = new HashSet<>(files);
        List<Uploaded> result = new ArrayList<>();
        Map<Path, Job> byFile = new HashMap<>(jobs);
        for (Path f : files) {
            Job j = byFile.get(f);
            result.add(new Uploaded(f, j.fileName(), folderKey + j.fileName(), j.size()));
        }
        for (Job j : all) {
            if (!wanted.contains(j.file())) deleteQuietly(folderKey + j.fileName());
        }
        return result;
    }

    /** Waits for every upload under way, then deletes every key put (failed uploads included: a delete of nothing is harmless). */
    private void abort() {
        List<Job> all;
        synchronized (this) {
            all = new ArrayList<>(jobs.values());
        }
        for (Job j : all) {
            try {
                j.future().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | RuntimeException e) {
                // this upload failed; the key is deleted below all the same
            }
        }
        Set<String> keys = new HashSet<>();
        for (Job j : all) keys.add(folderKey + j.fileName());
        for (String key : keys) deleteQuietly(key);
    }

    private void deleteQuietly(String key) {
        try {
            store.delete(key);
        } catch (RuntimeException ignored) {
            // nothing names the file: gc removes it later
        }
    }

    /** Waits for {@code job}, passing on its failure as it was thrown. */
    private static void await(Job job) {
        try {
            job.future().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while uploading " + job.file(), e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) throw r;
            if (c instanceof Error err) throw err;
            throw new IllegalStateException("cannot upload " + job.file() + ": " + c.getMessage(), c);
        }
    }
}
