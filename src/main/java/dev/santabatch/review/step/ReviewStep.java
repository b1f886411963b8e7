package dev.santabatch.review.step;

import dev.santabatch.persistence.Cause;
import dev.santabatch.persistence.ItemState;
import dev.santabatch.execution.ItemPipeline;
import dev.santabatch.review.offline.StoreSnapshot;
import dev.santabatch.execution.RunContext;
import dev.santabatch.config.SourceFields;
import dev.santabatch.review.FailedReviewThreshold;
import dev.santabatch.review.FixRevision;
import dev.santabatch.review.MergedIssue;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewRecord;
import dev.santabatch.review.SantaResult;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.persistence.FieldsCodec;
import dev.santabatch.persistence.Store;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.step.StepInterruptionPolicy;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemProcessor;
import org.springframework.batch.infrastructure.item.ItemStreamReader;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * The review step: the Santa processor on every sampled item of the current round. Items are
 * processed concurrently by an {@link ItemPipeline}: {@code run.concurrency} items at once (each item's
 * reviewers in parallel on the panel's pool), and a finished item is replaced by the next at once,
 * so a slow item (one that needs a fix and fresh reviews) holds up no other. (A chunk step with a
 * task executor would process a chunk's items concurrently but wait for the slowest at every chunk
 * end, leaving the other slots idle.) Finished items are handed to the step in completion order
 * and written in chunks: each item's reviews, fixes and outcome in its chunk's transaction, so a
 * restart reviews exactly the items without a stored outcome. Items that failed to review are
 * retried by a restart; above the job's threshold share they fail the step. A review stored for
 * the item's current revision (in review 0 of this round's earlier attempt or of an earlier round)
 * is reused, not paid again: only the reviewers without one are called; unless that revision is
 * flagged (a reviewer failed it outside its own review, {@link LoopStore#flag}): then every reviewer
 * reviews it afresh, and the flag's FAIL stands whatever that review says: the item is NAUGHTY, fixed
 * for the flag's issues (with the fresh review's own) and reviewed afresh, an iteration like any other.
 */
public final class ReviewStep {

    private static final Logger log = LoggerFactory.getLogger(ReviewStep.class);

    /**
     * @param stored completed review-0 reviews stored earlier for the item's current revision, by
     *     reviewer id: reused instead of calling those reviewers again
     * @param standing the issues the item's current revision is flagged with ({@link LoopStore#flag}),
     *     each as {@code <reviewer>: <issue>}: FAILs that stand whatever its review says; empty when not flagged
     */
    public record Task(LoopStore.SampleRow sample, Store.StoredItem item, int round, java.util.Map<String, Review> stored,
            List<String> standing) {}

    public record Done(Task task, SantaResult result) {}

    /** The pipeline of the review step: pending sampled items in, processed items out. */
    public static ItemPipeline<Task, Done> pipeline(Reader reader, Processor processor, int width, StepInterruptionPolicy interruption) {
        return new ItemPipeline<>(reader, processor::process, t -> t.item().id(), d -> d.result().outcome().name(), width,
                interruption);
    }

    private ReviewStep() {}

    /**
     * Why items of one step execution were left unreviewed, counted by cause: a model reviewer's
     * transport failure message (model, endpoint, attempts, last error kind and HTTP status; the
     * same for every item an outage or a rejected parameter hits), a reviewer's invalid answers by
     * kind, or the fixer's failure. The step's failure line names the most common ones. Thread-safe.
     */
    public static final class Causes {
        private final java.util.Map<String, java.util.concurrent.atomic.LongAdder> counts =
                new java.util.concurrent.ConcurrentHashMap<>();

        void clear() {
            counts.clear();
        }

        void add(SantaResult r) {
            if (r.outcome() != dev.santabatch.review.SantaOutcome.UNREVIEWED) {
                return;
            }
            java.util.Set<String> causes = new java.util.LinkedHashSet<>();
            for (ReviewRecord rr : r.reviews()) {
                if (rr.outcome() == ReviewRecord.Kind.TRANSPORT) {
                    causes.add("reviewer " + rr.reviewerId() + ": " + rr.failure());
                } else if (rr.outcome() == ReviewRecord.Kind.INVALID_ANSWER) {
                    causes.add("reviewer " + rr.reviewerId() + ": invalid answer twice ("
                            + (rr.invalidKind() == null ? "invalid" : rr.invalidKind().name().toLowerCase(java.util.Locale.ROOT)) + ")");
                }
            }
            if (causes.isEmpty()) {
                causes.add(r.reasonDetail());
            }
            causes.forEach(c -> counts.computeIfAbsent(c, k -> new java.util.concurrent.atomic.LongAdder()).increment());
        }

        /** The most common causes, most common first: at most three, with their item counts. */
        String summary() {
            List<java.util.Map.Entry<String, Long>> all = new ArrayList<>();
            counts.forEach((c, n) -> all.add(java.util.Map.entry(c, n.sum())));
            if (all.isEmpty()) {
                return "";
            }
            all.sort(java.util.Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(java.util.Map.Entry.comparingByKey()));
            StringBuilder sb = new StringBuilder(all.size() == 1 ? "cause: " : "most common causes: ");
            for (int i = 0; i < Math.min(3, all.size()); i++) {
                if (i > 0) {
                    sb.append(" | ");
                }
                sb.append(all.get(i).getKey()).append(" (").append(all.get(i).getValue()).append(" item")
                        .append(all.get(i).getValue() == 1 ? "" : "s").append(')');
            }
            if (all.size() > 3) {
                sb.append(" | and ").append(all.size() - 3).append(" other cause(s)");
            }
            return sb.toString();
        }
    }

    /**
     * Reads the current round's sampled items that have no outcome yet or failed to review (a
     * restarted step retries those), once each per step execution.
     */
    public static final class Reader implements ItemPipeline.Source<Task> {
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

        private final Causes causes;

        public Reader(Store store, LoopStore loop, RunContext run, Panels panels, SourceFields source, int categoryIndex) {
            this(store, loop, run, panels, source, categoryIndex, new Causes());
        }

        public Reader(Store store, LoopStore loop, RunContext run, Panels panels, SourceFields source, int categoryIndex,
                Causes causes) {
            this.causes = causes;
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
            causes.clear();
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
                        Store.StoredItem item = store.item(run.runPk(), r.itemId()).orElseThrow();
                        List<String> standing = loop.flagIssues(run.runPk(), item.id(), item.currentRev());
                        page.add(new Task(r, item, round, standing.isEmpty() ? stored(item) : java.util.Map.of(), standing));
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
         * The reviews of an unflagged revision to reuse. A flagged one (a reviewer failed this text
         * outside the item's own review: a clean canary, a learned rule's fresh review) reuses none:
         * the panel reviews it afresh, and its flag's FAIL stands ({@link Task#standing}).
         */
        private java.util.Map<String, Review> stored(Store.StoredItem item) {
            java.util.Map<String, Review> out = new java.util.LinkedHashMap<>();
            loop.storedFirstReviews(run.runPk(), item.id(), item.currentRev()).forEach((reviewer, json) -> {
                try {
                    out.put(reviewer, Review.fromJson(json));
                } catch (dev.santabatch.review.MalformedReviewException e) {
                    log.warn("review: stored review of {} rev {} by {} is unreadable; calling the reviewer again: {}",
                            item.id(), item.currentRev(), reviewer, e.getMessage());
                }
            });
            if (!out.isEmpty()) {
                log.info("review: {} rev {}: reusing the stored review(s) of {}", item.id(), item.currentRev(), out.keySet());
            }
            return out;
        }

        /**
         * Fails the step when too many of the round's sampled items could not be reviewed: the
         * stored outcomes, overridden by {@code unwritten} (item id to outcome of items processed
         * in this execution whose chunk is not written yet).
         */
        @Override
        public void checkThreshold(java.util.Map<String, String> unwritten) {
            if (round < 0) {
                return;
            }
            List<LoopStore.SampleOutcome> outcomes = loop.sample(run.runPk(), round);
            long failed = outcomes.stream()
                    .filter(o -> "UNREVIEWED".equals(unwritten.getOrDefault(o.itemId(), o.outcome())))
                    .count();
            new FailedReviewThreshold(run.job().santa().failedReviewThreshold()).check(failed, outcomes.size(), causes::summary);
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

    /**
     * Keeps every valid review-0 answer as it arrives: stored at once (its own transaction) as the
     * item's review of its current revision, so a stop or a kill that drops the item's result
     * (items in flight when the step stops are not written) does not drop the answers already paid
     * for. A restart reuses them as it reuses a failed attempt's reviews ({@link Reader}); when the
     * item's result is written, its chunk's transaction replaces them with the result's reviews.
     * Answers to a fix's text (later iterations) are not kept: the fix itself is not.
     */
    public static final class ReceivedAnswers implements AnswerListener {
        private final LoopStore loop;
        private final RunContext run;
        private final Panels panels;
        /** Items in process, by id: the task and the text reviewed in its review 0. */
        private final java.util.Map<String, java.util.Map.Entry<Task, String>> inFlight = new java.util.concurrent.ConcurrentHashMap<>();

        public ReceivedAnswers(LoopStore loop, RunContext run, Panels panels) {
            this.loop = loop;
            this.run = run;
            this.panels = panels;
        }

        void started(Task task, String content) {
            inFlight.put(task.item().id(), java.util.Map.entry(task, content));
        }

        void ended(Task task) {
            inFlight.remove(task.item().id());
        }

        @Override
        public void answered(dev.santabatch.review.Reviewer reviewer, dev.santabatch.review.ReviewRequest request,
                dev.santabatch.review.ReviewOutcome outcome) {
            java.util.Map.Entry<Task, String> e = inFlight.get(request.itemId());
            if (e == null || !(outcome instanceof dev.santabatch.review.ReviewOutcome.Reviewed reviewed)
                    || !request.content().equals(e.getValue()) || e.getKey().stored().containsKey(reviewer.id())) {
                return; // not an item of this step, not an answer, a fix's text, or a reused review
            }
            Task task = e.getKey();
            // kept only if a restart would reuse it: checked as a stored review is checked again
            // in place of what a failed attempt of this round stored for this reviewer (its TRANSPORT or
            // INVALID_ANSWER row has the same key): kept beside it, the answer would be refused
            panels.panel().stored(reviewer, request, reviewed.review()).ifPresent(pr -> {
                try {
                    loop.replaceReview(run.runPk(), task.round(), new LoopStore.ReviewRow(task.item().id(),
                            task.item().currentRev(), 0, reviewer.id(), ReviewRecord.Kind.REVIEWED.name(),
                            reviewed.review().verdict().name(), reviewed.review().toJson(), null, reviewed.duration().toMillis(),
                            reviewed.reattributedIssues(), reviewed.derivedIssues()));
                } catch (RuntimeException ex) {
                    // the store is closing (the step has stopped): the answer is asked again after a
                    // restart, whose answer may differ; a FAIL lost so is said
                    if (reviewed.review().verdict() == dev.santabatch.review.Verdict.FAIL) {
                        log.warn("review: FAIL of {} for {} rev {} not kept (it is asked again if this execution fails"
                                + " before the item's result is written): {}", reviewer.id(), task.item().id(),
                                task.item().currentRev(), ex.toString());
                    } else {
                        log.debug("review: answer of {} for {} not kept: {}", reviewer.id(), task.item().id(), ex.toString());
                    }
                }
            });
        }
    }

    public static final class Processor implements ItemProcessor<Task, Done> {
        private final Panels panels;
        private final SourceFields source;
        private final Causes causes;
        private final @Nullable ReceivedAnswers received;

        public Processor(Panels panels, SourceFields source) {
            this(panels, source, new Causes(), null);
        }

        /** @param received keeps the answers of items in process as they arrive; none if null */
        public Processor(Panels panels, SourceFields source, Causes causes, @Nullable ReceivedAnswers received) {
            this.panels = panels;
            this.source = source;
            this.causes = causes;
            this.received = received;
        }

        @Override
        public Done process(Task task) {
            List<String> fields = FieldsCodec.decode(task.item().fields());
            String content = task.item().content() != null ? task.item().content() : source.content(fields);
            if (received != null) {
                received.started(task, content);
            }
            try {
                if (!task.standing().isEmpty()) {
                    log.info("review: {} rev {} is flagged ({}); reviewing it afresh, and fixing it for the flag's issues"
                            + " whatever that review says", task.item().id(), task.item().currentRev(),
                            String.join("; ", task.standing()));
                }
                SantaResult result = panels.processor().process(task.item().id(), content, source.of(fields), task.stored(),
                        task.standing());
                causes.add(result);
                return new Done(task, result);
            } finally {
                if (received != null) {
                    received.ended(task);
                }
            }
        }
    }

    /** The step's processor: a processed item's result, or what processing it threw, rethrown here. */
    public static final class Unwrap implements ItemProcessor<ItemPipeline.Attempt<Task, Done>, Done> {
        @Override
        public Done process(ItemPipeline.Attempt<Task, Done> a) throws Exception {
            if (a.failure() != null) {
                if (a.failure() instanceof Exception e) {
                    throw e;
                }
                if (a.failure() instanceof Error e) {
                    throw e;
                }
                throw new IllegalStateException(a.failure());
            }
            return java.util.Objects.requireNonNull(a.result(), "result");
        }
    }

    /**
     * The open issues {@code escalations.csv} gives an escalated item: the last review's issues, and
     * why the fixer had no fix when it had none (e.g. the offline fixer's "no offline fix: ...") or
     * its fix changed nothing the issues flag (e.g. "... no real change: the quoted evidence ... is
     * left in place").
     */
    static List<String> escalationIssues(SantaResult r) {
        List<String> issues = new ArrayList<>(r.openIssues().stream().map(MergedIssue::text).toList());
        if (issues.isEmpty() || r.reason() == dev.santabatch.review.SantaReason.NO_FIX
                || r.reason() == dev.santabatch.review.SantaReason.FIX_UNCHANGED) {
            issues.add(r.reasonDetail());
        }
        return issues;
    }

    public static final class Writer implements ItemWriter<Done> {
        private final Store store;
        private final LoopStore loop;
        private final RunContext run;
        private final @Nullable ItemPipeline<Task, Done> pipeline;

        public Writer(Store store, LoopStore loop, RunContext run) {
            this(store, loop, run, null);
        }

        public Writer(Store store, LoopStore loop, RunContext run, @Nullable ItemPipeline<Task, Done> pipeline) {
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
            List<LoopStore.ReviewRow> reviews = new ArrayList<>();
            for (ReviewRecord rr : r.reviews()) {
                if (rr.reused()) {
                    continue;
                }
                String json = rr.verdict() == null ? null
                        : new Review(rr.verdict(), rr.checks(), rr.criticalIssues(), rr.suggestions()).toJson();
                reviews.add(new LoopStore.ReviewRow(id, baseRev + rr.iteration(), rr.iteration(), rr.reviewerId(),
                        rr.outcome().name(), rr.verdict() == null ? null : rr.verdict().name(), json, rr.failure(),
                        rr.duration().toMillis(), rr.reattributedIssues(), rr.derivedIssues()));
            }
            // a retry after a failed-to-review attempt supersedes that attempt's reviews, except those
            // it reused (still stored once, where they were first stored)
            List<String> reused = r.reviews().stream().filter(ReviewRecord::reused).map(ReviewRecord::reviewerId).toList();
            loop.deleteSupersededReviews(runPk, round, id, baseRev, reused, reviews);
            // and an earlier round's attempt left unreviewed after a fix: its fix was not kept, so
            // this attempt's reviews after a fix take the same revision and iteration numbers
            loop.deleteUnkeptFixReviews(runPk, id, baseRev, reviews);
            loop.jdbc().update("DELETE FROM sb_issue WHERE run_pk = ? AND round_no = ? AND item_id = ?", runPk, round, id);
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
                    store.addRevision(runPk, id, ++rev, round, Cause.SANTA_FIX, null, fx.after());
                }
            }
            switch (r.outcome()) {
                case NICE -> store.setState(runPk, id, ItemState.NICE);
                case ESCALATED -> store.escalate(runPk, id, round, Cause.SANTA_FIX, r.reason() == null ? null : r.reason().name(),
                        null, r.lastAttempt(),
                        escalationIssues(r));
                case UNREVIEWED -> log.warn("review: {} not reviewed this round: {}", id, r.reasonDetail());
            }
            loop.sampleOutcome(runPk, round, id, r.outcome().name(), r.reason() == null ? null : r.reason().name(),
                    r.reviewsToNice(), r.fixes());
        }
    }
}
