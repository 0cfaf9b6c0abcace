package dev.fdl.util;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * One daemon thread that takes items, in the order they are added, while the adding thread goes on
 * with its own work; items are handed over a batch at a time, since waking the thread per item
 * costs more than many items' work. After the first failure of the work the thread takes no more
 * items but keeps draining the queue, so {@link #add} never waits forever. Used by one adding
 * thread: {@link #add} the items, then {@link #finish}; {@link #close} without finishing stops
 * after what was added. Whatever the work writes is visible to the adding thread once
 * {@link #finish} or {@link #close} returns (the thread is joined).
 *
 * @param <T> the item type
 */
public final class BatchedWorker<T> implements AutoCloseable {
    private final int batchSize;
    private final Consumer<T> work;
    private final Runnable atEnd;
    /** Batches handed over; an empty one marks the end. */
    private final BlockingQueue<List<T>> queue;
    private final Thread thread;
    private volatile Throwable failure;
    private List<T> batch;
    private boolean ended;

    /**
     * Starts the thread.
     *
     * @param threadName the thread's name (shown in thread dumps and profiles)
     * @param batchSize  items handed over at once
     * @param capacity   batches that may wait before {@link #add} waits for the thread ({@link Integer#MAX_VALUE}: it never waits)
     * @param work       what the thread does with each item
     * @param atEnd      run by the thread after the last item, unless the work failed
     */
    public BatchedWorker(String threadName, int batchSize, int capacity, Consumer<T> work, Runnable atEnd) {
        this.batchSize = batchSize;
        this.work = work;
        this.atEnd = atEnd;
        this.queue = new LinkedBlockingQueue<>(capacity);
        this.batch = new ArrayList<>(batchSize);
        this.thread = new Thread(new Runnable() { // not a lambda: a class fewer to spin up at the start of short commands
            @Override
            public void run() {
                takeUntilEnd();
            }
        }, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    /** Adds an item for the thread. */
    public void add(T item) {
        batch.add(item);
        if (batch.size() == batchSize) handOver();
    }

    /**
     * Waits until the thread has taken every item added and run {@code atEnd}.
     *
     * @throws RuntimeException the work's or {@code atEnd}'s first failure, as thrown (an {@link Error} likewise)
     */
    public void finish() {
        end();
        if (failure instanceof RuntimeException e) throw e;
        if (failure instanceof Error e) throw e;
    }

    /** Ends the thread after the items added so far and waits for it; a failure is left to {@link #finish}. */
    @Override
    public void close() {
        end();
    }

    private void handOver() {
        if (batch.isEmpty()) return;
        put(batch);
        batch = new ArrayList<>(batchSize);
    }

    private void end() {
        if (ended) return;
        ended = true;
        handOver();
        put(List.of());
        joinUninterruptibly(thread);
    }

    private void put(List<T> items) {
        boolean interrupted = false;
        while (true) {
            try {
                queue.put(items);
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the thread drains the queue whatever happens: the put completes
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    private void takeUntilEnd() {
        while (true) {
            List<T> items;
            try {
                items = queue.take();
            } catch (InterruptedException e) {
                continue; // only the end marker ends the thread: the adding thread waits for it
            }
            if (items.isEmpty()) break;
            for (T item : items) {
                if (failure != null) break;
                try {
                    work.accept(item);
                } catch (RuntimeException | Error e) {
                    failure = e;
                }
            }
        }
        if (failure != null) return;
        try {
            atEnd.run();
        } catch (RuntimeException | Error e) {
            failure = e;
        }
    }

    /** Waits for {@code t} to end; an interrupt meanwhile is kept for the caller (the flag set again). */
    public static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
