package dev.fdl.ducklake.merge;

import dev.fdl.store.ObjectStore;

import java.nio.file.Path;

/**
 * One three-way merge as a value. All catalogs are SQLite DuckLake catalogs of the same format;
 * {@code ours} is read at its newest snapshot and never changed: the merge is written to
 * {@code output}, a copy of {@code ours} plus one snapshot.
 *
 * @param ours    our catalog (the working catalog, or the branch's newest version for a pull)
 * @param theirs  the other side and the snapshot to read it at
 * @param base    the merge base and its snapshot
 * @param options conflict settlement and key
 * @param output  where the merged catalog is written (must not exist); left absent when nothing is written
 * @param writer  where new data files go and what the snapshot records
 */
public record MergeRequest(Path ours, CatalogSnapshot theirs, CatalogSnapshot base, MergeOptions options, Path output, Writer writer) {
    /** A catalog at one snapshot. */
    public record CatalogSnapshot(Path catalog, long snapshot) {}

    /**
     * Where and how the merge writes.
     *
     * @param store      the repository's store (new data and delete files go under {@code dataDirKey})
     * @param dataDirKey the data folder's key prefix ({@code data/})
     * @param tmp        a scratch folder (files below it are deleted after the merge)
     * @param cacheDir   where a remote repository's data files are mirrored to be read (null: inside {@code tmp})
     * @param author     the merge snapshot's author
     * @param message    the merge snapshot's message
     * @param digests    where the new files' SHA-256 digests are recorded (docs/signing.md: the working copy's book)
     */
    public record Writer(ObjectStore store, String dataDirKey, Path tmp, Path cacheDir, String author, String message,
                         dev.fdl.ducklake.load.DataFileDigests digests) {
        public Writer {
            java.util.Objects.requireNonNull(digests, "digests");
        }

        /** A writer recording no digests ({@link dev.fdl.ducklake.load.DataFileDigests#NONE}). */
        public Writer(ObjectStore store, String dataDirKey, Path tmp, Path cacheDir, String author, String message) {
            this(store, dataDirKey, tmp, cacheDir, author, message, dev.fdl.ducklake.load.DataFileDigests.NONE);
        }
    }
}
