package dev.santabatch.execution;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.batch.core.job.JobInterruptedException;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.StepInterruptionPolicy;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamReader;

/**
 * A chunk step's reader that processes items {@code width} at a time on its own threads and hands
 * them to the step in completion order, so that a slow item holds up no other: a worker that
 * finishes an item starts the next at once (up to {@code width} items are read ahead from the
 * source), also while the step writes a chunk. A chunk step with a task executor instead processes
 * a chunk's items concurrently but waits for the slowest at every chunk end, leaving the other
 * slots idle.
 *
 * <p>{@link #read()} returns {@code null} when every item of the source has been handed out, after
 * {@link Source#checkThreshold} with the outcomes of the items handed out but not yet written (the
 * step's writer reports written items through {@link #written}). When processing an item throws
 * (an authentication failure, a reached budget), the pipeline halts: no further item starts, the
 * failure is handed out (the step's processor rethrows it), and the remaining items are handed out
 * unprocessed with a {@link NotProcessedException}. Its threads are never interrupted (an item may
 * be inside the store); a closed pipeline (the step ended, stopped or failed) starts no further
 * item, and results still in flight then are dropped: they were not stored, so a restart processes
 * those items again (the review step keeps the answers such an item had already received as they
 * arrive, {@link dev.santabatch.review.step.ReviewStep.ReceivedAnswers}, so a restart does not pay for them again).
 *
 * <p>A stop is honoured while {@link #read()} waits: the step checks its interruption policy only
 * between chunks, and a chunk whose last item is held (a hung model call) would otherwise end, and
 * the stop take effect, only when that item returns. When no finished item is waiting to be handed
 * out and the step's interruption policy says stop (a stop request, a reached budget), the pipeline
 * closes (results still in flight are dropped, as above), marks the step execution terminate-only
 * and returns {@code null} without the threshold check: the step writes the chunk read so far and
 * ends STOPPED. The pipeline learns its step execution as a {@link StepExecutionListener}.
 *
 * @param <T> an item to process
 * @param <R> its result
 */
public final class ItemPipeline<T, R> implements ItemStreamReader<ItemPipeline.Attempt<T, R>>, StepExecutionListener {

    /** The items to process: a reader of one step execution, and its end-of-step check. */
    public interface Source<T> extends ItemStreamReader<T> {
        /**
         * Called when every item has been handed out. {@code unwritten} maps the ids of items handed
         * out but not yet written to their outcomes.
         */
        void checkThreshold(Map<String, String> unwritten);
    }

    /** One processed item: its result, or what processing it threw. */
    public record Attempt<T, R>(T item, @Nullable R result, @Nullable Throwable failure) {}

    /** What a halted pipeline hands out for the items it did not process. */
    static final class NotProcessedException extends IllegalStateException {
        NotProcessedException() {
            super("not processed: an earlier item's failure halted the step");
        }
    }

    private final Source<T> source;
    private final Function<T, R> work;
    private final Function<T, String> id;
    private final Function<R, String> outcome;
    private final int width;
    private final StepInterruptionPolicy interruption;
    private final ExecutorService pool;
    private volatile State<T, R> state = new State<>();
    private volatile @Nullable StepExecution step;

    /** The work of one step execution; workers keep a reference to theirs. */
    private static final class State<T, R> {
        final ArrayDeque<T> ready = new ArrayDeque<>();
        final LinkedBlockingQueue<Attempt<T, R>> done = new LinkedBlockingQueue<>();
        final Map<String, String> unwritten = new ConcurrentHashMap<>();
        int workers;
        int inProgress;
        boolean exhausted;
        boolean closed;
        boolean halted;
    }

    /**
     * @param work processes one item (thread-safe)
     * @param id an item's id
     * @param outcome a result's outcome, for the threshold check
     * @param width items in process at once
     * @param interruption the step's interruption policy, consulted while {@link #read()} waits
     */
    public ItemPipeline(Source<T> source, Function<T, R> work, Function<T, String> id, Function<R, String> outcome, int width,
            StepInterruptionPolicy interruption) {
        this.source = source;
        this.work = work;
        this.id = id;
        this.outcome = outcome;
        this.width = Math.max(1, width);
        this.interruption = interruption;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "santa-item-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void beforeStep(StepExecution stepExecution) {
        step = stepExecution;
    }

    @Override
    public void open(ExecutionContext ctx) {
        closeState();
        state = new State<>();
        source.open(ctx);
    }

    @Override
    public void update(ExecutionContext ctx) {
        source.update(ctx);
    }

    @Override
    public void close() {
        closeState();
        source.close();
    }

    private void closeState() {
        State<T, R> s = state;
        synchronized (s) {
            s.closed = true;
            s.ready.clear();
        }
    }

    @Override
    public @Nullable Attempt<T, R> read() throws Exception {
        State<T, R> s = state;
        while (true) {
            fill(s);
            Attempt<T, R> a = s.done.poll(50, TimeUnit.MILLISECONDS);
            if (a != null) {
                if (a.result() != null) {
                    s.unwritten.put(id.apply(a.item()), outcome.apply(a.result()));
                }
                fill(s);
                return a;
            }
            if (stopRequested()) {
                // honoured while waiting (a held item may never return): the chunk read so far is
                // written and the step ends STOPPED; the items still in process are redone on a restart
                closeState();
                return null;
            }
            boolean halted;
            synchronized (s) {
                if (s.inProgress > 0 || !s.done.isEmpty()) {
                    continue;
                }
                halted = s.halted;
                if (!halted && s.exhausted && s.ready.isEmpty()) {
                    source.checkThreshold(Map.copyOf(s.unwritten));
                    return null;
                }
            }
            if (halted) {
                // the rest, unprocessed: the step fails on the failure it was handed, or (a reached
                // budget) filters these so that they stay pending
                T t;
                synchronized (s) {
                    t = s.ready.poll();
                }
                if (t == null && !s.exhausted) {
                    t = source.read();
                }
                if (t != null) {
                    return new Attempt<>(t, null, new NotProcessedException());
                }
                synchronized (s) {
                    s.exhausted = true;
                }
                source.checkThreshold(Map.copyOf(s.unwritten));
                return null;
            }
        }
    }

    /** The step's interruption policy says stop: the step execution is then terminate-only. */
    private boolean stopRequested() {
        StepExecution s = step;
        if (s == null) {
            return false;
        }
        try {
            interruption.checkInterrupted(s);
            return s.isTerminateOnly();
        } catch (JobInterruptedException e) {
            s.setTerminateOnly();
            return true;
        }
    }

    /** The item's chunk is written: it no longer counts as handed out. */
    public void written(String itemId) {
        state.unwritten.remove(itemId);
    }

    /** Reads ahead up to {@code width} items and starts workers for them (the step's thread only). */
    private void fill(State<T, R> s) throws Exception {
        while (true) {
            synchronized (s) {
                if (s.exhausted || s.closed || s.ready.size() >= width) {
                    break;
                }
            }
            T t = source.read();
            synchronized (s) {
                if (t == null) {
                    s.exhausted = true;
                } else {
                    s.ready.add(t);
                }
            }
        }
        synchronized (s) {
            int wanted = Math.min(width, s.ready.size() + s.inProgress);
            while (!s.closed && !s.halted && s.workers < wanted) {
                s.workers++;
                pool.execute(() -> work(s));
            }
        }
    }

    private void work(State<T, R> s) {
        while (true) {
            T t;
            synchronized (s) {
                if (s.closed || s.halted || s.ready.isEmpty()) {
                    s.workers--;
                    return;
                }
                t = s.ready.poll();
                s.inProgress++;
            }
            Attempt<T, R> a;
            try {
                a = new Attempt<>(t, work.apply(t), null);
            } catch (Throwable e) {
                a = new Attempt<>(t, null, e);
            }
            // handed over before it stops counting as in progress, so read() never misses it
            s.done.add(a);
            synchronized (s) {
                s.inProgress--;
                if (a.failure() != null) {
                    s.halted = true;
                }
            }
        }
    }
}
