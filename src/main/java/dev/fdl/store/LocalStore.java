package dev.fdl.store;

import dev.fdl.util.AtomicFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.security.DigestInputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A repository root on a local file system (SPEC.md section 2).
 *
 * <ul>
 *   <li>Every write goes to a temporary file in the target's folder, is flushed to disk, then
 *       appears at once: {@code link(2)} for create-only writes (fails if the key exists),
 *       {@code rename(2)} otherwise. Readers never see a partial object.</li>
 *   <li>Compare-and-replace ({@link #putIfMatch}), compare-and-delete ({@link #deleteIfMatch}),
 *       create-only writes and deletes hold a lock
 *       across check and write: an exclusive {@code fcntl} lock on {@code <root>/.fdl-lock}
 *       (between processes) and a {@link ReentrantLock} (between threads of this process,
 *       which share one fcntl lock).</li>
 *   <li>ETags are strong (they change whenever the content changes) without reading large files:
 *       an object of up to {@value #CONTENT_ETAG_LIMIT} bytes (refs, JSON files: everything
 *       conditional writes touch) gets the hex MD5 of its content, as S3 gives for single-part
 *       objects, stable for unchanged content; a larger one gets a hash of its size, last-modified
 *       time (nanoseconds) and file key (device and inode). Every write makes a new file (a new
 *       inode) whose last-modified time fdl sets strictly after the one it replaces, so such an
 *       ETag changes with every write through fdl; a program rewriting a large file in place
 *       changes its last-modified time. {@link #stat} and listings read no content and give no
 *       ETag. docs/stores.md, "ETags of a local folder".</li>
 *   <li>Names starting with {@code .fdl-} are this class's own (lock, temporary files) and are
 *       never listed.</li>
 * </ul>
 */
public final class LocalStore implements ObjectStore, LocalFiles {
    /** Objects up to this size get a content ETag (MD5); larger ones one from their metadata. */
    static final long CONTENT_ETAG_LIMIT = 1 << 20;
    /** A large file is copied by the kernel this many bytes at a time, each told to a counting payload ({@link Payload#counting}). */
    static final long COPY_CHUNK = 8L << 20;
    private static final ReentrantLock JVM_LOCK = new ReentrantLock();

    private final Path root;
    /**
     * The root's real path, resolved once it exists: the root is the publisher's choice, not a
     * request's, and resolving it for every request cost as much as resolving the key (fdl serve).
     */
    private volatile Path realRoot;

    /** A store rooted at {@code root} (created on first write). */
    public LocalStore(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** The root folder. */
    public Path rootPath() {
        return root;
    }

    @Override
    public String root() {
        return root + "/";
    }

    @Override
    public String location(String key) {
        if (key.isEmpty()) return root();
        String loc = root.resolve(key).toString();
        return key.endsWith("/") ? loc + "/" : loc;
    }

    private Path file(String key) {
        return root.resolve(Keys.check(key));
    }

    /**
     * The file a read of {@code key} looks at, or null when no file can hold that object: a key
     * ending in {@code /} (the folder's path would name the file without it; on S3 it is another
     * key, and absent).
     */
    private Path fileToRead(String key) {
        Path f = file(key);
        return key.endsWith("/") ? null : f;
    }

    /**
     * Whether a read of {@code f} that failed with an I/O error other than "no such file" still
     * means the object is absent: a folder on its path is a file ({@code fdl.json/x}: ENOTDIR), or
     * {@code f} is a folder. An object store answers both with "not found".
     */
    private boolean absentAfterError(Path f) {
        if (Files.isDirectory(f)) return true;
        for (Path p = f.getParent(); p != null && p.startsWith(root) && !p.equals(root); p = p.getParent()) {
            if (Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return true;
        }
        return false;
    }

    @Override
    public Optional<ObjectBytes> get(String key) {
        Path f = fileToRead(key);
        if (f == null) return Optional.empty();
        return readConsistently(key, f, "read", "cannot read " + f, before -> {
            byte[] bytes = dev.fdl.util.SmallFiles.readAll(f);
            BasicFileAttributes after = Files.readAttributes(f, BasicFileAttributes.class);
            if (!sameFile(before, after) || after.size() != bytes.length) return null;
            if (after.size() > CONTENT_ETAG_LIMIT) return new ObjectBytes(bytes, LocalEtags.ofMetadata(after));
            return ObjectBytes.lazy(bytes, () -> LocalEtags.md5(bytes));
        });
    }

    @Override
    public Optional<ObjectMeta> download(String key, Path target) {
        Path f = fileToRead(key);
        if (f == null) return Optional.empty();
        Path tmp = AtomicFile.tempBeside(target, INTERNAL_PREFIX + "dl-");
        try {
            return readConsistently(key, f, "downloaded", "cannot download " + f + " to " + target, before -> {
                Files.createDirectories(target.toAbsolutePath().getParent());
                MessageDigest md = LocalEtags.md5Digest();
                try (InputStream in = new DigestInputStream(Files.newInputStream(f), md)) {
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                }
                BasicFileAttributes after = Files.readAttributes(f, BasicFileAttributes.class);
                if (!sameFile(before, after) || Files.size(tmp) != after.size()) return null;
                AtomicFile.moveCopy(tmp, target);
                String etag = after.size() <= CONTENT_ETAG_LIMIT ? HexFormat.of().formatHex(md.digest()) : LocalEtags.ofMetadata(after);
                return new ObjectMeta(key, after.size(), etag, after.lastModifiedTime().toInstant());
            });
        } finally {
            deleteQuietly(tmp); // moved to target on success; left by a failure or a changing file
        }
    }

    /** Reads the content only of objects up to {@value #CONTENT_ETAG_LIMIT} bytes (their ETag is its MD5). */
    @Override
    public Optional<ObjectMeta> head(String key) {
        Path f = fileToRead(key);
        if (f == null) return Optional.empty();
        return readConsistently(key, f, "read", "cannot read " + f, attrs -> {
            if (attrs.size() > CONTENT_ETAG_LIMIT)
                return new ObjectMeta(key, attrs.size(), LocalEtags.ofMetadata(attrs), attrs.lastModifiedTime().toInstant());
            String md5 = LocalEtags.md5(f);
            if (!sameFile(attrs, Files.readAttributes(f, BasicFileAttributes.class))) return null;
            return new ObjectMeta(key, attrs.size(), md5, attrs.lastModifiedTime().toInstant());
        });
    }

    /** One attempt of {@link #readConsistently}: reads the file whose metadata were {@code before}; null when it changed meanwhile. */
    private interface ReadAttempt<T> {
        T read(BasicFileAttributes before) throws IOException;
    }

    /**
     * The consistent read of get, head, download and open: the file's metadata, then {@code attempt}
     * (which compares them with the metadata after its read), up to 5 times while the file changes
     * under it. Empty when the object is absent: no file, not a regular file, or a path an object
     * store would not find ({@link #absentAfterError}).
     *
     * @param doing   what was done, for "kept changing while it was {@code doing}"
     * @param failure what could not be done, before ": " and the I/O error
     * @throws StoreException on an I/O error, or when the file changed at each of the 5 attempts
     */
    private <T> Optional<T> readConsistently(String key, Path f, String doing, String failure, ReadAttempt<T> attempt) {
        try {
            for (int n = 1; ; n++) {
                BasicFileAttributes before = Files.readAttributes(f, BasicFileAttributes.class);
                if (!before.isRegularFile()) return Optional.empty();
                T result = attempt.read(before);
                if (result != null) return Optional.of(result);
                if (n == 5) throw new StoreException(key, f + " kept changing while it was " + doing + "; try again", null);
            }
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            if (absentAfterError(f)) return Optional.empty();
            throw new StoreException(key, failure + ": " + e.getMessage(), e);
        }
    }

    /** Size and last-modified time from the file system's metadata alone; never reads the file. */
    @Override
    public Optional<ObjectMeta> stat(String key) {
        Path f = fileToRead(key);
        if (f == null) return Optional.empty();
        try {
            BasicFileAttributes attrs = Files.readAttributes(f, BasicFileAttributes.class);
            if (!attrs.isRegularFile()) return Optional.empty();
            return Optional.of(new ObjectMeta(key, attrs.size(), null, attrs.lastModifiedTime().toInstant()));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            if (absentAfterError(f)) return Optional.empty();
            throw new StoreException(key, "cannot read " + f + ": " + e.getMessage(), e);
        }
    }

    @Override
    public WriteResult putIfAbsent(String key, Payload body) {
        Path f = file(key);
        return locked(key, () -> {
            Staged staged = stage(key, f, body, true);
            try {
                Files.createLink(f, staged.path);
                return WriteResult.written(staged.etag);
            } catch (FileAlreadyExistsException e) {
                return WriteResult.preconditionFailed();
            } finally {
                deleteQuietly(staged.path);
            }
        });
    }

    @Override
    public WriteResult putIfMatch(String key, Payload body, String etag) {
        Path f = file(key);
        return locked(key, () -> {
            if (!Files.isRegularFile(f)) return WriteResult.preconditionFailed();
            if (!ETags.same(LocalEtags.of(f), etag)) return WriteResult.preconditionFailed();
            return stageAndReplace(key, f, body, true);
        });
    }

    /** Stages {@code body} beside {@code f} and renames it over {@code f} in one step (the staged file is removed on failure). */
    private WriteResult stageAndReplace(String key, Path f, Payload body, boolean durable) throws IOException {
        Staged staged = stage(key, f, body, durable);
        try {
            Files.move(staged.path, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return WriteResult.written(staged.etag);
        } finally {
            deleteQuietly(staged.path);
        }
    }

    @Override
    public WriteResult put(String key, Payload body) {
        return put(key, body, true);
    }

    /**
     * {@link #put} without the flush to disk: see {@link ObjectStore#putDerived}. An object of up
     * to {@value #CONTENT_ETAG_LIMIT} bytes (a site page) takes four system calls: create the
     * temporary file, write, close, rename; its folder is made only when the create finds none,
     * and its last-modified time is left as written (its ETag is its content's MD5, which needs no
     * later time than the object it replaces). Larger ones take {@link #put}'s way, unflushed.
     */
    @Override
    public void putDerived(String key, byte[] body) {
        if (body.length > CONTENT_ETAG_LIMIT) {
            put(key, Payload.of(body), false);
            return;
        }
        Path f = file(key);
        Path tmp = f.resolveSibling(INTERNAL_PREFIX + "tmp-" + UUID.randomUUID());
        try {
            try {
                Files.write(tmp, body, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (NoSuchFileException noFolder) {
                Files.createDirectories(f.getParent());
                Files.write(tmp, body, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            }
            Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            deleteQuietly(tmp);
            throw new StoreException(key, "cannot write " + f + ": " + e.getMessage(), e);
        }
    }

    private WriteResult put(String key, Payload body, boolean durable) {
        Path f = file(key);
        try {
            return stageAndReplace(key, f, body, durable);
        } catch (IOException e) {
            throw new StoreException(key, "cannot write " + f + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void delete(String key) {
        Path f = file(key);
        locked(key, () -> {
            if (Files.deleteIfExists(f)) pruneEmptyParents(f);
            return null;
        });
    }

    /** Compare and delete under the lock, as {@link #putIfMatch} compares and replaces. */
    @Override
    public boolean deleteIfMatch(String key, String etag) {
        Path f = file(key);
        return locked(key, () -> {
            if (!Files.isRegularFile(f) || !ETags.same(LocalEtags.md5(f), etag)) return false;
            Files.delete(f);
            pruneEmptyParents(f);
            return true;
        });
    }

    /** One lock for the whole batch; each key as in {@link #delete}. */
    @Override
    public void deleteAll(java.util.Collection<String> keys) {
        java.util.List<Path> files = keys.stream().map(this::file).toList();
        if (files.isEmpty()) return;
        locked(keys.iterator().next(), () -> {
            for (Path f : files) if (Files.deleteIfExists(f)) pruneEmptyParents(f);
            return null;
        });
    }

    /**
     * Deletes this class's temporary files ({@code .fdl-tmp-*} of writes, {@code .fdl-dl-*} of
     * downloads) anywhere under the root whose last-modified time is before {@code olderThan}: a
     * process killed mid-write leaves them, and listings never show them. Never the lock file.
     */
    @Override
    public int cleanupIncompleteUploads(java.time.Instant olderThan) {
        if (!Files.isDirectory(root)) return 0;
        int[] removed = {0};
        try {
            Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
                @Override
                public java.nio.file.FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                    String name = f.getFileName().toString();
                    if (a.isRegularFile() && (name.startsWith(INTERNAL_PREFIX + "tmp-") || name.startsWith(INTERNAL_PREFIX + "dl-"))
                            && a.lastModifiedTime().toInstant().isBefore(olderThan) && Files.deleteIfExists(f))
                        removed[0]++;
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult visitFileFailed(Path f, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) return java.nio.file.FileVisitResult.CONTINUE; // removed meanwhile
                    throw e;
                }
            });
        } catch (IOException e) {
            throw new StoreException("", "cannot clean up temporary files under " + root + ": " + e.getMessage(), e);
        }
        return removed[0];
    }

    @Override
    public Stream<ObjectMeta> list(String prefix) {
        String p = Keys.checkPrefix(prefix);
        int slash = p.lastIndexOf('/');
        String dirKey = slash < 0 ? "" : p.substring(0, slash);
        Path start = dirKey.isEmpty() ? root : root.resolve(dirKey);
        Walker it = new Walker(start, p);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(it, Spliterator.NONNULL), false)
                .onClose(it::close);
    }

    private record Staged(Path path, String etag) {}

    /**
     * Removes the folders a deletion left empty, up to the root, so that a deleted ref
     * ({@code refs/tags/a/b}) leaves no folder that would block a ref named like it ({@code refs/tags/a}).
     */
    private void pruneEmptyParents(Path deleted) {
        for (Path p = deleted.getParent(); p != null && p.startsWith(root) && !p.equals(root); p = p.getParent()) {
            try {
                Files.delete(p);
            } catch (IOException notEmptyOrGone) {
                return;
            }
        }
    }

    /** Writes the body to a temporary file beside {@code target}, flushed to disk when {@code durable}; returns it with its MD5. */
    private Staged stage(String key, Path target, Payload body, boolean durable) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return stageOnce(target, body, durable);
            } catch (NoSuchFileException e) {
                // a concurrent delete pruned the folder between createDirectories and the write
                if (attempt == 3) throw e;
            }
        }
    }

    private Staged stageOnce(Path target, Payload body, boolean durable) throws IOException {
        Files.createDirectories(target.getParent());
        Path tmp = target.resolveSibling(INTERNAL_PREFIX + "tmp-" + UUID.randomUUID());
        MessageDigest md = LocalEtags.md5Digest();
        // a file larger than CONTENT_ETAG_LIMIT gets a metadata ETag: its bytes are copied by the
        // kernel (FileChannel.transferFrom), neither through the heap nor through MD5
        boolean digested = body.file() == null || Files.size(body.file()) <= CONTENT_ETAG_LIMIT;
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            if (digested) {
                OutputStream out = new DigestOutputStream(Channels.newOutputStream(ch), md);
                try (InputStream in = body.open()) {
                    in.transferTo(out);
                }
                out.flush();
            } else {
                try (FileChannel in = FileChannel.open(body.file(), StandardOpenOption.READ)) {
                    for (long at = 0, n; (n = ch.transferFrom(in, at, COPY_CHUNK)) > 0; at += n) body.sent(n);
                }
            }
            if (durable) ch.force(true);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(tmp);
            throw e;
        }
        try {
            BasicFileAttributes attrs = modifiedAfter(tmp, target);
            if (!digested && attrs.size() <= CONTENT_ETAG_LIMIT) { // the file shrank while it was copied
                try (InputStream in = new DigestInputStream(Files.newInputStream(tmp), md)) {
                    in.transferTo(OutputStream.nullOutputStream());
                }
            }
            String etag = attrs.size() <= CONTENT_ETAG_LIMIT ? HexFormat.of().formatHex(md.digest()) : LocalEtags.ofMetadata(attrs);
            return new Staged(tmp, etag);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(tmp);
            throw e;
        }
    }

    /**
     * Sets the staged file's last-modified time to now, or later than the object it replaces where
     * that is not already later, so that a metadata ETag of the key never repeats even when the
     * file system hands out the replaced file's inode again. Steps grow until the file system's
     * timestamp granularity keeps the difference (nanoseconds on ext4, xfs, btrfs, APFS; 2 s on FAT).
     */
    private static BasicFileAttributes modifiedAfter(Path staged, Path target) throws IOException {
        Instant now = Instant.now();
        Instant previous;
        try {
            previous = Files.getLastModifiedTime(target).toInstant();
        } catch (NoSuchFileException absent) {
            previous = null;
        }
        Instant at = previous == null || now.isAfter(previous) ? now : previous.plusNanos(1);
        for (long step : new long[]{1, 1_000, 1_000_000, 1_000_000_000L, 2_000_000_000L}) {
            Files.setLastModifiedTime(staged, FileTime.from(at));
            BasicFileAttributes attrs = Files.readAttributes(staged, BasicFileAttributes.class);
            if (previous == null || attrs.lastModifiedTime().toInstant().isAfter(previous)) return attrs;
            at = previous.plusNanos(step);
        }
        throw new IOException("cannot give " + staged + " a last-modified time after " + previous);
    }

    /** Whether two reads of a key's metadata describe the same, unchanged file. */
    private static boolean sameFile(BasicFileAttributes a, BasicFileAttributes b) {
        return a.size() == b.size() && a.lastModifiedTime().equals(b.lastModifiedTime())
                && java.util.Objects.equals(a.fileKey(), b.fileKey());
    }

    private interface IoAction<T> {
        T run() throws IOException;
    }

    private <T> T locked(String key, IoAction<T> action) {
        JVM_LOCK.lock();
        try {
            Files.createDirectories(root);
            try (FileChannel ch = FileChannel.open(root.resolve(INTERNAL_PREFIX + "lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = ch.lock()) {
                return action.run();
            }
        } catch (IOException e) {
            throw new StoreException(key, "cannot write " + root.resolve(key) + ": " + e.getMessage(), e);
        } finally {
            JVM_LOCK.unlock();
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a leftover temporary file is skipped by listings and harmless
        }
    }

    /** Depth-first lazy walk: one open directory listing per level, files yielded as found. */
    private final class Walker implements Iterator<ObjectMeta> {
        private final String prefix;
        private final Deque<Path> dirs = new ArrayDeque<>();
        private Iterator<Path> current = java.util.Collections.emptyIterator();
        private DirectoryStream<Path> open;
        private ObjectMeta next;

        Walker(Path start, String prefix) {
            this.prefix = prefix;
            dirs.push(start);
        }

        @Override
        public boolean hasNext() {
            try {
                while (next == null) {
                    if (current.hasNext()) {
                        Path p = current.next();
                        String name = p.getFileName().toString();
                        if (name.startsWith(INTERNAL_PREFIX)) continue;
                        BasicFileAttributes a;
                        try {
                            a = Files.readAttributes(p, BasicFileAttributes.class);
                        } catch (NoSuchFileException gone) {
                            continue;
                        }
                        String key = root.relativize(p).toString().replace('\\', '/');
                        if (a.isDirectory()) {
                            if ((key + "/").startsWith(prefix) || prefix.startsWith(key + "/")) dirs.push(p);
                        } else if (a.isRegularFile() && key.startsWith(prefix)) {
                            next = new ObjectMeta(key, a.size(), null, a.lastModifiedTime().toInstant());
                        }
                        continue;
                    }
                    if (open != null) {
                        open.close();
                        open = null;
                    }
                    if (dirs.isEmpty()) return false;
                    Path dir = dirs.pop();
                    try {
                        open = Files.newDirectoryStream(dir);
                        current = open.iterator();
                    } catch (NoSuchFileException | java.nio.file.NotDirectoryException gone) {
                        current = java.util.Collections.emptyIterator();
                    }
                }
                return true;
            } catch (IOException e) {
                throw new StoreException(prefix, "cannot list " + root.resolve(prefix) + ": " + e.getMessage(), e);
            } catch (UncheckedIOException e) {
                throw new StoreException(prefix, "cannot list " + root.resolve(prefix) + ": " + e.getMessage(), e);
            }
        }

        void close() {
            try {
                if (open != null) open.close();
            } catch (IOException ignored) {
                // nothing to release beyond the handle
            }
            open = null;
            dirs.clear();
        }

        @Override
        public ObjectMeta next() {
            if (!hasNext()) throw new NoSuchElementException();
            ObjectMeta m = next;
            next = null;
            return m;
        }
    }

    /** Reads only the range, from an open file: no temporary copy. Metadata from {@link #head}. */
    @Override
    public Optional<RangeRead> read(String key, long from, long length) {
        Path f = fileToRead(key);
        if (f == null) return Optional.empty();
        Optional<ObjectMeta> meta = head(key);
        if (meta.isEmpty()) return Optional.empty();
        try {
            FileChannel ch = FileChannel.open(f, StandardOpenOption.READ);
            long size = ch.size();
            long start = Math.min(Math.max(0, from), size);
            long n = length < 0 ? size - start : Math.min(length, size - start);
            ch.position(start);
            // unbuffered: readers take large chunks (fdl serve 64 KiB), and a BufferedInputStream
            // in between costs several times the read itself (ServeBench)
            InputStream body = Channels.newInputStream(ch);
            ObjectMeta m = meta.get();
            return Optional.of(new RangeRead(new ObjectMeta(key, size, m.etag(), m.lastModified()), start, n, body));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            if (absentAfterError(f)) return Optional.empty();
            throw new StoreException(key, "cannot read " + f + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens {@code key} for reading; empty when it is absent or not a regular file.
     *
     * @throws StoreException on I/O failure, or when the file kept changing while it was opened
     */
    /** A folder's objects are files here: this store itself. */
    @Override
    public Optional<LocalFiles> localFiles() {
        return Optional.of(this);
    }

    /** A folder's conditional writes hold under its own lock: nothing to probe. */
    @Override
    public boolean conditionalWritesNeedProbe() {
        return false;
    }

    @Override
    public Optional<OpenFile> open(String key) {
        Path f = fileToRead(key);
        if (f == null) return Optional.empty();
        return readConsistently(key, f, "opened", "cannot read " + f, before -> {
            FileChannel ch = FileChannel.open(f, StandardOpenOption.READ);
            try {
                BasicFileAttributes after = Files.readAttributes(f, BasicFileAttributes.class);
                if (!sameFile(before, after) || ch.size() != after.size()) return null;
                String etag = after.size() > CONTENT_ETAG_LIMIT ? LocalEtags.ofMetadata(after) : LocalEtags.md5(ch);
                OpenFile open = new OpenFile(new ObjectMeta(key, after.size(), etag, after.lastModifiedTime().toInstant()), ch, after.fileKey(), f);
                ch = null;
                return open;
            } finally {
                if (ch != null) ch.close();
            }
        });
    }

    /**
     * Whether the key still names the very file {@code f} opened, unchanged (same file, size and
     * last-modified time: what its ETag is made of), from one read of the file system's metadata.
     * A server keeping files open answers from {@code f} only while this holds; a key replaced by
     * a rename or deleted (gc) is opened again or not found.
     */
    @Override
    public boolean unchanged(OpenFile f) {
        try {
            BasicFileAttributes a = Files.readAttributes(f.path(), BasicFileAttributes.class);
            return a.isRegularFile() && a.size() == f.meta().size() && a.lastModifiedTime().toInstant().equals(f.meta().lastModified())
                    && f.fileKey() != null && f.fileKey().equals(a.fileKey());
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * True when {@code key} names a file whose real path (symbolic links followed) lies inside
     * the root's real path. A server over this store refuses the others: a link must not make a
     * file outside the repository readable.
     */
    @Override
    public boolean isInsideRoot(String key) {
        try {
            Path r = realRoot;
            if (r == null) realRoot = r = root.toRealPath();
            Path real = file(key).toRealPath();
            return real.startsWith(r);
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }
}
