package dev.fdl.repo;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A compact set of file names (relative to the data folder), for the up to millions of names gc
 * and verify hold: each name is kept as its 128-bit MD5 in an open-addressing table of longs, about
 * 32 bytes per name instead of ~150 for a {@code HashSet<String>}, and never the catalog bytes.
 *
 * <p>A false positive needs two names with the same 128-bit hash (about 2<sup>-128</sup> per pair):
 * for gc it could only keep a file, never delete one. Not thread-safe.
 */
final class NameSet {
    private static final double LOAD = 0.5;
    private final MessageDigest md5;
    private long[] table; // pairs (hi, lo); (0, 0) marks an empty slot
    private int size;

    NameSet() {
        this(1024);
    }

    NameSet(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, (int) (expected / LOAD)) - 1) << 1;
        table = new long[cap * 2];
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Adds {@code name}; returns true when it was not there yet. */
    boolean add(String name) {
        byte[] h = md5.digest(name.getBytes(StandardCharsets.UTF_8));
        long hi = word(h, 0), lo = word(h, 8);
        if (hi == 0 && lo == 0) lo = 1;
        if (size + 1 > (table.length / 2) * LOAD) grow();
        return insert(table, hi, lo);
    }

    /** True when {@code name} was added. */
    boolean contains(String name) {
        byte[] h = md5.digest(name.getBytes(StandardCharsets.UTF_8));
        long hi = word(h, 0), lo = word(h, 8);
        if (hi == 0 && lo == 0) lo = 1;
        int mask = table.length / 2 - 1;
        for (int i = (int) lo & mask; ; i = (i + 1) & mask) {
            long a = table[2 * i], b = table[2 * i + 1];
            if (a == 0 && b == 0) return false;
            if (a == hi && b == lo) return true;
        }
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

    private static long word(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) v = (v << 8) | (b[off + i] & 0xff);
        return v;
    }
}
