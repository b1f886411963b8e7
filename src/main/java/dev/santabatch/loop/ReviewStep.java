package dev.santabatch.loop;

import dev.santabatch.prepass.SourceFields;
import dev.santabatch.review.FailedReviewThreshold;
import dev.santabatch.review.FixRevision;
import dev.santabatch.review.MergedIssue;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewRecord;
import dev.santabatch.review.SantaResult;
import dev.santabatch.run.RunContext;
import dev.santabatch.store.FieldsCodec;
import dev.santabatch.store.Store;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemProcessor;
import org.springframework.batch.infrastructure.item.ItemStreamReader;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * The review step: the Santa processor on every sampled item of the current round. Items are
 * processed concurrently by a {@link Pipeline}: {@code run.concurrency} items at once (each item's
 * reviewers in parallel on the panel's pool), and a finished item is replaced by the next at once,
 * so a slow item (one that needs a fix and fresh reviews) holds up no other. (A chunk step with a
 * task executor would process a chunk's items concurrently but wait for the slowest at every chunk
 * end, leaving the other slots idle.) Finished items are handed to the step in completion order
 * and written in chunks: each item's reviews, fixes and outcome in its chunk's transaction, so a
 * restart reviews exactly the items without a stored outcome. Items that failed to review are
 * retried by a restart; above the job's threshold share they fail the step.
 */
final class ReviewStep {

    private static final Logger log = LoggerFactory.getLogger(ReviewStep.class);

    /** Cause of a revision made by the Santa fixer. */
    static final String CAUSE = "santa-fix";

    record Task(LoopStore.SampleRow sample, Store.StoredItem item, int round) {}

    record Done(Task task, SantaResult result) {}

    /** One processed item: its result, or what processing it threw (rethrown by {@link Unwrap}). */
    record Attempt(Task task, @Nullable Done done, @Nullable Throwable failure) {}

    private ReviewStep() {}

    /**
     * Reads the current round's sampled items that have no outcome yet or failed to review (a
     * restarted step retries those), once each per step execution.
     */
    static final class Reader implements ItemStreamReader<Task> {
        private final Store store;
        private final LoopStore loop;
        private final RunContext run;
        private final Panels panels;
        private final SourceFields source;
        private final int categoryIndex;
        private final Deque<Task> page = new ArrayDeque<>();
        private int round = -1;
        private int lastSeq;
        private int fetchedSeq;
        private boolean exhausted;

        Reader(Store store, LoopStore loop, RunContext run, Panels panels, SourceFields source, int categoryIndex) {
            this.store = store;
            this.loop = loop;
            this.run = run;
            this.panels = panels;
            this.source = source;
            this.categoryIndex = categoryIndex;
        }

        @Override
        public void open(ExecutionContext ctx) {
            page.clear();
            exhausted = false;
            round = loop.currentRound(run.runPk()).map(LoopStore.Round::round).orElse(-1);
            // from the start of the round's sample every time the step opens: items with a stored
            // outcome are not pending, and items that failed to review are retried
            lastSeq = 0;
            fetchedSeq = 0;
            if (round > 0) {
                panels.prepare(new StoreSnapshot(store, run.runPk(), round, source, categoryIndex));
            }
        }

        @Override
        public @Nullable Task read() {
            if (round < 0) {
                return null;
            }
            if (page.isEmpty() && !exhausted) {
                List<LoopStore.SampleRow> rows = loop.pendingSample(run.runPk(), round, fetchedSeq, 64);
                if (rows.isEmpty()) {
                    exhausted = true;
                } else {
                    for (LoopStore.SampleRow r : rows) {
                        page.add(new Task(r, store.item(run.runPk(), r.itemId()).orElseThrow(), round));
                    }
                    fetchedSeq = rows.get(rows.size() - 1).seq();
                }
            }
            Task t = page.poll();
            if (t != null) {
                lastSeq = t.sample().seq();
            }
            return t;
        }

        /**
         * Fails the step when too many of the round's sampled items could not be reviewed: the
         * stored outcomes, overridden by {@code unwritten} (item id to outcome of items processed
         * in this execution whose chunk is not written yet).
         */
        void checkThreshold(java.util.Map<String, String> unwritten) {
            if (round < 0) {
                return;
            }
            List<LoopStore.SampleOutcome> outcomes = loop.sample(run.runPk(), round);
            long failed = outcomes.stream()
                    .filter(o -> "UNREVIEWED".equals(unwritten.getOrDefault(o.itemId(), o.outcome())))
                    .count();
            new FailedReviewThreshold(run.job().santa().failedReviewThreshold()).check(failed, outcomes.size());
        }

        @Override
        public void close() {
            page.clear();
        }

        @Override
        public void update(ExecutionContext ctx) {
            ctx.putInt("review.round", round);
            ctx.putInt("review.seq", lastSeq);
        }
    }

    static final class Processor implements ItemProcessor<Task, Done> {
        private final Panels panels;
        private final SourceFields source;

        Processor(Panels panels, SourceFields source) {
            this.panels = panels;
            this.source = source;
        }

        @Override
        public Done process(Task task) {
            List<String> fields = FieldsCodec.decode(task.item().fields());
            String content = task.item().content() != null ? task.item().content() : source.content(fields);
            SantaResult result = panels.processor().process(task.item().id(), content, source.of(fields));
            return new Done(task, result);
        }
    }

    /**
     * Reads the pending items from {@link Reader} and processes {@code width} of them at once on its
     * own threads; {@link #read()} hands out finished items in completion order. Up to
     * {@code width} further items are read ahead, so a worker that finishes an item starts the next
     * at once, also while the step writes a chunk. Returns {@code null} when every pending item has
     * been handed out, after the failed-review threshold check over the stored outcomes and those
     * handed out but not yet written. Its threads are never interrupted (a reviewer may be inside the
     * store); a closed pipeline (the step stopped or failed) starts no further item, and the results
     * of items still in flight then are dropped (they were not stored, so a restart reviews them).
     */
    static final class Pipeline implements ItemStreamReader<Attempt> {

        private final Reader source;
        private final Processor processor;
        private final int width;
        private final java.util.concurrent.ExecutorService pool;
        private volatile State state = new State();

        /** The work of one step execution; workers keep a reference to theirs. */
        private static final class State {
            final ArrayDeque<Task> ready = new ArrayDeque<>();
            final java.util.concurrent.LinkedBlockingQueue<Attempt> done = new java.util.concurrent.LinkedBlockingQueue<>();
            /** Item id to outcome: handed out, not yet written. */
            final java.util.Map<String, String> unwritten = new java.util.concurrent.ConcurrentHashMap<>();
            int workers;
            int inProgress;
            boolean exhausted;
            boolean closed;
            /** Processing an item threw (a 401, a reached budget...): start no further item. */
            boolean halted;
        }

        /** What a halted pipeline hands out for the items it did not process. */
        static final class NotProcessedException extends IllegalStateException {
            NotProcessedException() {
                super("not processed: an earlier item's failure halted the review step");
            }
        }

        Pipeline(Reader source, Processor processor, int width) {
            this.source = source;
            this.processor = processor;
            this.width = Math.max(1, width);
            java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
            this.pool = java.util.concurrent.Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "santa-item-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }

        @Override
        public void open(ExecutionContext ctx) {
            closeState();
            state = new State();
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
            State s = state;
            synchronized (s) {
                s.closed = true;
                s.ready.clear();
            }
        }

        @Override
        public @Nullable Attempt read() throws InterruptedException {
            State s = state;
            while (true) {
                fill(s);
                Attempt a = s.done.poll(50, java.util.concurrent.TimeUnit.MILLISECONDS);
                if (a != null) {
                    if (a.done() != null) {
                        s.unwritten.put(a.task().item().id(), a.done().result().outcome().name());
                    }
                    fill(s);
                    return a;
                }
                boolean halted;
                synchronized (s) {
                    if (s.inProgress > 0 || !s.done.isEmpty()) {
                        continue;
                    }
                    halted = s.halted;
                    if (!halted && s.exhausted && s.ready.isEmpty()) {
                        source.checkThreshold(s.unwritten);
                        return null;
                    }
                }
                if (halted) {
                    // the rest, unprocessed: the step fails on the failure it was handed, or (a
                    // reached budget) filters these so that they stay pending, as without a pipeline
                    Task t;
                    synchronized (s) {
                        t = s.ready.poll();
                    }
                    if (t == null) {
                        t = s.exhausted ? null : source.read();
                    }
                    if (t != null) {
                        return new Attempt(t, null, new NotProcessedException());
                    }
                    synchronized (s) {
                        s.exhausted = true;
                    }
                    source.checkThreshold(s.unwritten);
                    return null;
                }
            }
        }

        /** The item's chunk is written: it no longer counts as handed out. */
        void written(String itemId) {
            state.unwritten.remove(itemId);
        }

        /** Reads ahead up to {@code width} items and starts workers for them (step thread only). */
        private void fill(State s) {
            while (true) {
                synchronized (s) {
                    if (s.exhausted || s.closed || s.ready.size() >= width) {
                        break;
                    }
                }
                Task t = source.read();
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

        private void work(State s) {
            while (true) {
                Task t;
                synchronized (s) {
                    if (s.closed || s.halted || s.ready.isEmpty()) {
                        s.workers--;
                        return;
                    }
                    t = s.ready.poll();
                    s.inProgress++;
                }
                Attempt a;
                try {
                    a = new Attempt(t, processor.process(t), null);
                } catch (Throwable e) {
                    a = new Attempt(t, null, e);
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

    /** The step's processor: a processed item's result, or what processing it threw, rethrown here. */
    static final class Unwrap implements ItemProcessor<Attempt, Done> {
        @Override
        public Done process(Attempt a) throws Exception {
            if (a.failure() != null) {
                if (a.failure() instanceof Exception e) {
                    throw e;
                }
                if (a.failure() instanceof Error e) {
                    throw e;
                }
                throw new IllegalStateException(a.failure());
            }
            return java.util.Objects.requireNonNull(a.done(), "done");
        }
    }

    static final class Writer implements ItemWriter<Done> {
        private final Store store;
        private final LoopStore loop;
        private final RunContext run;
        private final @Nullable Pipeline pipeline;

        Writer(Store store, LoopStore loop, RunContext run) {
            this(store, loop, run, null);
        }

        Writer(Store store, LoopStore loop, RunContext run, @Nullable Pipeline pipeline) {
            this.store = store;
            this.loop = loop;
            this.run = run;
            this.pipeline = pipeline;
        }

        @Override
        public void write(Chunk<? extends Done> chunk) {
            for (Done d : chunk) {
                write(d);
            }
            if (pipeline != null) {
                for (Done d : chunk) {
                    pipeline.written(d.task().item().id());
                }
            }
        }

        private void write(Done d) {
            long runPk = run.runPk();
            int round = d.task().round();
            String id = d.task().item().id();
            int baseRev = d.task().item().currentRev();
            SantaResult r = d.result();
            // a retry after a failed-to-review attempt supersedes that attempt's reviews
            loop.jdbc().update("DELETE FROM sb_review WHERE run_pk = ? AND round_no = ? AND item_id = ?", runPk, round, id);
            loop.jdbc().update("DELETE FROM sb_issue WHERE run_pk = ? AND round_no = ? AND item_id = ?", runPk, round, id);
            List<LoopStore.ReviewRow> reviews = new ArrayList<>();
            for (ReviewRecord rr : r.reviews()) {
                String json = rr.verdict() == null ? null
                        : new Review(rr.verdict(), rr.checks(), rr.criticalIssues(), rr.suggestions()).toJson();
                reviews.add(new LoopStore.ReviewRow(id, baseRev + rr.iteration(), rr.iteration(), rr.reviewerId(),
                        rr.outcome().name(), rr.verdict() == null ? null : rr.verdict().name(), json, rr.failure(),
                        rr.duration().toMillis()));
            }
            loop.insertReviews(runPk, round, reviews);
            List<LoopStore.IssueRow> issues = new ArrayList<>();
            int seq = 0;
            for (MergedIssue mi : r.firstIssues()) {
                issues.add(new LoopStore.IssueRow(id, ++seq, mi.criterion(), mi.text(), String.join(",", new TreeSet<>(mi.flaggedBy()))));
            }
            loop.insertIssues(runPk, round, issues);
            int rev = baseRev;
            if (r.outcome() != dev.santabatch.review.SantaOutcome.UNREVIEWED) {
                // an item left unreviewed is neither passed nor fixed: its attempt's fixes are not kept
                for (FixRevision fx : r.revisions()) {
                    store.addRevision(runPk, id, ++rev, round, CAUSE, null, fx.after());
                }
            }
            switch (r.outcome()) {
                case NICE -> store.setState(runPk, id, "NICE");
                case ESCALATED -> store.escalate(runPk, id, round, CAUSE, null, r.rejectedFix(),
                        r.openIssues().isEmpty()
                                ? List.of(r.reasonDetail())
                                : r.openIssues().stream().map(MergedIssue::text).toList());
                case UNREVIEWED -> log.warn("review: {} not reviewed this round: {}", id, r.reasonDetail());
            }
            loop.sampleOutcome(runPk, round, id, r.outcome().name(), r.reason() == null ? null : r.reason().name(),
                    r.reviewsToNice(), r.fixes());
        }
    }
}
