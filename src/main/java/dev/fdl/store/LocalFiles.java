package dev.fdl.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A store capability, asked through {@link ObjectStore#localFiles()} (as Iceberg's
 * {@code SupportsPrefixOperations} is for a FileIO): the store's objects are files on this
 * machine, which a server can keep open and send from without copying (fdl serve, docs/site.md).
 * Only a local folder has it; callers never test a store's class.
 */
public interface LocalFiles {
    /**
     * A file of the store opened for reading, with the metadata of exactly the file opened: its
     * size, last-modified time and ETag as {@link ObjectStore#head} gives them.
     *
     * @param meta    the opened file's metadata
     * @param channel the open file, positioned at 0; the caller closes it
     * @param fileKey the file system's identity of the file (its inode), for {@link #unchanged}
     * @param path    the path the key names, for {@link #unchanged}
     */
    record OpenFile(ObjectMeta meta, FileChannel channel, Object fileKey, Path path) implements java.io.Closeable {
        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    /**
     * Opens {@code key} for reading; empty when it is absent or not a regular file. The metadata
     * is read before and after the file is opened and describes the file opened.
     *
     * @throws StoreException on I/O failure, or when the file kept changing while it was opened
     */
    Optional<OpenFile> open(String key);

    /**
     * Whether the key still names the very file {@code f} opened, unchanged (same file, size and
     * last-modified time), from one read of the file system's metadata.
     */
    boolean unchanged(OpenFile f);

    /**
     * True when {@code key} names a file whose real path (symbolic links followed) lies inside
     * the root's real path; a server refuses the others.
     */
    boolean isInsideRoot(String key);
}
