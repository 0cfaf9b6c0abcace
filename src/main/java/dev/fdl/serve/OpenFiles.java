package dev.fdl.serve;

import dev.fdl.store.LocalFiles;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.FileRegion;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.ReferenceCounted;

import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Files of a folder kept open between requests (of every size: a small one's ETag, its MD5, is
 * computed once at the open), so that a range request for one costs a
 * single read of the file's metadata ({@link LocalFiles#unchanged}) instead of a path
 * resolution, an open and a close (a reader of a catalog or data file asks for many ranges of
 * it). A file replaced or deleted since it was opened is dropped and the key opened again, with
 * every check a first request makes (docs/site.md). At most {@link #MAX} files stay open, the
 * least recently used closed first, once no response is still sending from it.
 */
final class OpenFiles implements AutoCloseable {
    static final int MAX = 64;
    private final LocalFiles store;
    private final LinkedHashMap<String, Shared> files = new LinkedHashMap<>(16, 0.75f, true);

    OpenFiles(LocalFiles store) {
        this.store = store;
    }

    /** An open file, shared by this cache and the responses sending from it; closed when the last lets go. */
    static final class Shared extends AbstractReferenceCounted {
        final LocalFiles.OpenFile file;

        private Shared(LocalFiles.OpenFile file) {
            this.file = file;
        }

        /** Bytes {@code [from, from + length)} for a response: sent without copying; holds the file open until sent. */
        FileRegion region(long from, long length) {
            retain();
            return new DefaultFileRegion(file.channel(), from, length) {
                @Override
                protected void deallocate() {
                    Shared.this.release(); // the file stays open for the others
                }
            };
        }

        @Override
        protected void deallocate() {
            try {
                file.close();
            } catch (IOException ignored) {
                // a read-only file: nothing was written that a failed close could lose
            }
        }

        @Override
        public ReferenceCounted touch(Object hint) {
            return this;
        }
    }

    /** The open file for {@code key} when there is one and the key still names it unchanged, retained for the caller; else null. */
    Shared get(String key) {
        Shared s;
        synchronized (files) {
            s = files.get(key);
            if (s == null) return null;
            s.retain();
        }
        if (store.unchanged(s.file)) return s;
        synchronized (files) {
            if (files.remove(key, s)) s.release();
        }
        s.release();
        return null;
    }

    /** Keeps {@code file} open under its key, replacing an older one; the result is retained for the caller. */
    Shared put(LocalFiles.OpenFile file) {
        Shared s = new Shared(file); // the caller's reference
        s.retain(); // the cache's
        synchronized (files) {
            Shared old = files.put(file.meta().key(), s);
            if (old != null) old.release();
            if (files.size() > MAX) {
                Iterator<Map.Entry<String, Shared>> eldest = files.entrySet().iterator();
                eldest.next().getValue().release();
                eldest.remove();
            }
        }
        return s;
    }

    @Override
    public void close() {
        synchronized (files) {
            files.values().forEach(Shared::release);
            files.clear();
        }
    }
}
