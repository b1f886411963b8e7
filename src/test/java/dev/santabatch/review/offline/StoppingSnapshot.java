package dev.santabatch.review.offline;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongPredicate;

/**
 * A snapshot whose stop flag a test sets from a callback (tests only): {@code stopAt} is asked
 * with the number of items handed out so far in each {@link #forEach} pass, counted from 1, and
 * the pass number (1 for the first pass); the flag can also be set with {@link #stop()}. It counts
 * the items handed out after the flag was set, the work a preparation did after a stop.
 */
public final class StoppingSnapshot implements CatalogSnapshot {

    /** When to set the flag: given the pass number and the 1-based index of the item about to be handed out. */
    public interface StopAt {
        boolean test(int pass, long item);
    }

    private final CatalogSnapshot delegate;
    private final StopAt stopAt;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final AtomicLong afterStop = new AtomicLong();
    private int passes;

    public StoppingSnapshot(CatalogSnapshot delegate, StopAt stopAt) {
        this.delegate = delegate;
        this.stopAt = stopAt;
    }

    /** A snapshot that is never stopped by a pass ({@link #stop()} still stops it). */
    public static StoppingSnapshot manual(CatalogSnapshot delegate) {
        return new StoppingSnapshot(delegate, (pass, item) -> false);
    }

    public static StoppingSnapshot atItem(CatalogSnapshot delegate, int pass, LongPredicate item) {
        return new StoppingSnapshot(delegate, (p, i) -> p == pass && item.test(i));
    }

    /** Sets the stop flag. */
    public void stop() {
        stopped.set(true);
    }

    public boolean stopped() {
        return stopped.get();
    }

    /** Items handed out by {@link #forEach} after the flag was set. */
    public long itemsAfterStop() {
        return afterStop.get();
    }

    /** Overrides {@code CatalogSnapshot.stopRequested} (no {@code @Override}: the class also compiles against a build without it). */
    public boolean stopRequested() {
        return stopped.get();
    }

    @Override
    public long runPk() {
        return delegate.runPk();
    }

    @Override
    public int round() {
        return delegate.round();
    }

    @Override
    public long size() {
        return delegate.size();
    }

    @Override
    public void forEach(Consumer<SnapshotItem> action) {
        int pass = ++passes;
        long[] n = {0};
        delegate.forEach(item -> {
            if (stopAt.test(pass, ++n[0])) {
                stopped.set(true);
            }
            if (stopped.get()) {
                afterStop.incrementAndGet();
            }
            action.accept(item);
        });
    }

    @Override
    public Optional<SnapshotItem> get(String id) {
        return delegate.get(id);
    }
}
