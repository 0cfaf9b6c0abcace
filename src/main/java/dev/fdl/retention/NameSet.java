package dev.fdl.retention;

/**
 * A compact set of file names (relative to the data folder), for the up to millions of names gc
 * and verify hold: each name is kept as a 128-bit hash (two independent 64-bit hashes over its
 * characters, each finished with MurmurHash3's fmix64) in an open-addressing table of longs,
 * 32–64 bytes per name instead of ~150 for a {@code HashSet<String>}, and never the catalog bytes.
 *
 * <p>A false positive needs two names whose both hashes collide: for gc it could only keep a file,
 * never delete one; for verify it could hide one missing file with odds far below a disk error.
 * Not thread-safe.
 */
final class NameSet {
    private static final double LOAD = 0.5;
    private long[] table; // pairs (hi, lo); (0, 0) marks an empty slot
    private int size;

    NameSet() {
        this(1024);
    }

    NameSet(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, (int) (expected / LOAD)) - 1) << 1;
        table = new long[cap * 2];
    }

    /** Adds {@code name}; returns true when it was not there yet. */
    boolean add(String name) {
        long hi = hashHi(name), lo = hashLo(name);
        if (size + 1 > (table.length / 2) * LOAD) grow();
        return insert(table, hi, lo);
    }

    /** True when {@code name} was added. */
    boolean contains(String name) {
        long hi = hashHi(name), lo = hashLo(name);
        int mask = table.length / 2 - 1;
        for (int i = (int) lo & mask; ; i = (i + 1) & mask) {
            long a = table[2 * i], b = table[2 * i + 1];
            if (a == 0 && b == 0) return false;
            if (a == hi && b == lo) return true;
        }
    }

    /** FNV-1a over the characters, mixed. */
    private static long hashHi(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0, n = s.length(); i < n; i++) h = (h ^ s.charAt(i)) * 0x100000001b3L;
        return fmix64(h ^ s.length());
    }

    /** A multiply-rotate hash over the characters with another seed, mixed; never 0 so (0, 0) stays free. */
    private static long hashLo(String s) {
        long h = 0x9e3779b97f4a7c15L;
        for (int i = 0, n = s.length(); i < n; i++) h = Long.rotateLeft((h + s.charAt(i)) * 0xc6a4a7935bd1e995L, 29);
        long v = fmix64(h + s.length());
        return v == 0 ? 1 : v;
    }

    private static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    /** The number of names held. */
    int size() {
        return size;
    }

    private boolean insert(long[] t, long hi, long lo) {
        int mask = t.length / 2 - 1;
        for (int i = (int) lo & mask; ; i = (i + 1) & mask) {
            long a = t[2 * i], b = t[2 * i + 1];
            if (a == 0 && b == 0) {
                t[2 * i] = hi;
                t[2 * i + 1] = lo;
                if (t == table) size++;
                return true;
            }
            if (a == hi && b == lo) return false;
        }
    }

    private void grow() {
        long[] old = table;
        long[] t = new long[old.length * 2];
        table = t;
        for (int i = 0; i < old.length; i += 2)
            if (old[i] != 0 || old[i + 1] != 0) reinsert(t, old[i], old[i + 1]);
    }

    private static void reinsert(long[] t, long hi, long lo) {
        int mask = t.length / 2 - 1;
        int i = (int) lo & mask;
        while (t[2 * i] != 0 || t[2 * i + 1] != 0) i = (i + 1) & mask;
        t[2 * i] = hi;
        t[2 * i + 1] = lo;
    }
}
