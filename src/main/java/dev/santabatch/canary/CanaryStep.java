package dev.santabatch.canary;

import dev.santabatch.review.offline.StoreSnapshot;
import dev.santabatch.review.step.Panels;
import dev.santabatch.rounds.FailOnCurrentText;
import dev.santabatch.execution.RunContext;
import dev.santabatch.config.CanaryKind;
import dev.santabatch.config.RuleSpec;
import dev.santabatch.config.SourceFields;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.PanelReview;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.Reviewer;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.persistence.FieldsCodec;
import dev.santabatch.persistence.Store;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemProcessor;
import org.springframework.batch.infrastructure.item.ItemStreamReader;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * The canary step, after the review step of every round: draws the round's canaries once
 * ({@link CanaryPlanter}, from the items the panel passed on first review and no reviewer failed
 * outside it, {@link LoopStore.SampleOutcome#niceOnFirstReview()}, with the run's seed and the
 * round), then has a fresh panel review each canary exactly as an item's review 0 is asked (the
 * same request: task spec, the copied item's id and source fields, the text, the rubric). Each
 * reviewer's verdict is stored as it comes ({@link CanaryStore}); a restart asks only the
 * reviewers without one. Model calls are governed and budgeted like the review step's. Canaries
 * are never fixed: only their verdicts are kept (docs/canaries.md).
 */
public final class CanaryStep {

    private static final Logger log = LoggerFactory.getLogger(CanaryStep.class);

    private CanaryStep() {}

    /** A canary to review and the reviewers still to ask. */
    public record Task(int round, Canary canary, Set<String> toAsk) {}

    /**
     * A canary's verdicts, the issues the review validator re-attributed or derived in its answers,
     * and its reviewers' FAILs as {@code <reviewer>: <issue>} lines.
     */
    public record Reviewed(int round, Canary canary, List<CanaryStore.Verdict> verdicts, LoopStore.IssueAttribution attributed,
            List<String> fails) {}

    /** Builds the job's planter: its (kind, criterion) pairs and the number-grounding columns. */
    static CanaryPlanter planter(RunContext run) {
        List<CanaryPlanter.Plant> plants = new ArrayList<>();
        run.job().canaries().forEach((criterion, kinds) -> {
            for (CanaryKind k : kinds) {
                plants.add(new CanaryPlanter.Plant(k, criterion));
            }
        });
        Set<String> numberColumns = new LinkedHashSet<>();
        run.job().rubric().forEach(c -> c.rules().forEach(r -> {
            if (r instanceof RuleSpec.NumberGrounding g) {
                g.attributes().forEach(a -> numberColumns.add(a.column()));
            }
        }));
        return new CanaryPlanter(plants, numberColumns);
    }

    public static final class Reader implements ItemStreamReader<Task> {
        private final Store store;
        private final LoopStore loop;
        private final CanaryStore canaries;
        private final RunContext run;
        private final Panels panels;
        private final SourceFields source;
        private final int categoryIndex;
        private final Deque<Task> pending = new ArrayDeque<>();
        private final boolean enabled;

        public Reader(Store store, LoopStore loop, CanaryStore canaries, RunContext run, Panels panels, SourceFields source,
                int categoryIndex, boolean enabled) {
            this.enabled = enabled;
            this.store = store;
            this.loop = loop;
            this.canaries = canaries;
            this.run = run;
            this.panels = panels;
            this.source = source;
            this.categoryIndex = categoryIndex;
        }

        @Override
        public void open(ExecutionContext ctx) {
            pending.clear();
            LoopStore.Round round = loop.currentRound(run.runPk()).orElse(null);
            if (round == null) {
                return;
            }
            List<LoopStore.SampleOutcome> sample = loop.sample(run.runPk(), round.round());
            if (sample.stream().anyMatch(s -> s.outcome() == null || "UNREVIEWED".equals(s.outcome()))) {
                return; // the review step failed to review some items: the decide step will not judge this round
            }
            if (!canaries.drawn(run.runPk(), round.round())) {
                draw(round, sample);
            }
            List<Canary> all = canaries.canaries(run.runPk(), round.round());
            List<String> panel = run.job().reviewers().stream().map(dev.santabatch.config.ReviewerSpec::id).toList();
            for (Canary c : all) {
                Set<String> toAsk = new LinkedHashSet<>(panel);
                canaries.answered(run.runPk(), round.round(), c.seq()).forEach(toAsk::remove);
                if (!toAsk.isEmpty()) {
                    pending.add(new Task(round.round(), c, toAsk));
                }
            }
            if (!pending.isEmpty()) {
                panels.prepare(new StoreSnapshot(store, run.runPk(), round.round(), source, categoryIndex));
                log.info("canaries: round {}: {} of {} canaries to review", round.round(), pending.size(), all.size());
            }
        }

        private void draw(LoopStore.Round round, List<LoopStore.SampleOutcome> sample) {
            int n = enabled ? run.job().santa().fit().canaries(sample.size()) : 0;
            List<CanaryPlanter.Item> sources = new ArrayList<>();
            List<CanaryPlanter.Item> donors = new ArrayList<>();
            for (LoopStore.SampleOutcome s : sample) {
                Store.StoredItem item = store.item(run.runPk(), s.itemId()).orElse(null);
                if (item == null || item.currentRev() != s.rev()) {
                    continue; // fixed since it was sampled: its reviewed text is not its current one
                }
                List<String> fields = FieldsCodec.decode(item.fields());
                String content = item.content() != null ? item.content() : source.content(fields);
                CanaryPlanter.Item it = new CanaryPlanter.Item(item.id(), source.of(fields), content);
                donors.add(it);
                if (s.niceOnFirstReview()) {
                    sources.add(it); // NICE without a fix and not flagged: a FAIL outside its review is no pass
                }
            }
            List<Canary> drawn = planter(run).plant(sources, donors, n, run.seed(), round.round());
            loop.jdbc().update("DELETE FROM sb_canary WHERE run_pk = ? AND round_no = ?", run.runPk(), round.round());
            canaries.insert(run.runPk(), round.round(), n, drawn);
            long planted = drawn.stream().filter(Canary::planted).count();
            log.info("canaries: round {}: {} drawn ({} planted, {} clean copies) from {} items passed on first review{}",
                    round.round(), drawn.size(), planted, drawn.size() - planted, sources.size(),
                    drawn.size() < n ? " (" + n + " wanted)" : "");
        }

        @Override
        public @Nullable Task read() {
            return pending.poll();
        }

        @Override
        public void update(ExecutionContext ctx) {}

        @Override
        public void close() {
            pending.clear();
        }
    }

    public static final class Processor implements ItemProcessor<Task, Reviewed> {
        private final Panels panels;
        private final Writer writer;

        /**
         * @param writer stores the reviews received before an exception (a reached budget) ended a
         *     canary's panel, so that a clean copy's FAIL holds its item though the step stops
         */
        public Processor(Panels panels, Writer writer) {
            this.panels = panels;
            this.writer = writer;
        }

        @Override
        public Reviewed process(Task task) {
            Canary c = task.canary();
            ReviewRequest request = new ReviewRequest(panels.settings().taskSpec(), c.itemId(), c.source(), c.content(),
                    panels.settings().santaCriteria());
            List<Reviewer> toCall = panels.newPanel().stream().filter(r -> task.toAsk().contains(r.id())).toList();
            if (toCall.isEmpty()) {
                return new Reviewed(task.round(), c, List.of(), LoopStore.IssueAttribution.NONE, List.of());
            }
            List<PanelReview> reviews = panels.panel().review(toCall, request,
                    received -> writer.writeApart(reviewed(task, received)));
            return reviewed(task, reviews);
        }

        private static Reviewed reviewed(Task task, List<PanelReview> reviews) {
            Canary c = task.canary();
            List<CanaryStore.Verdict> out = new ArrayList<>();
            for (PanelReview pr : reviews) {
                if (pr.outcome() instanceof ReviewOutcome.Reviewed rv) {
                    List<String> failed = rv.review().checks().stream().filter(ch -> ch.result() == CheckResult.FAIL)
                            .map(dev.santabatch.review.Check::criterion).distinct().toList();
                    out.add(new CanaryStore.Verdict(task.round(), c.seq(), pr.reviewerId(), !failed.isEmpty(), failed));
                } else if (pr.outcome() instanceof ReviewOutcome.FailedToReview f) {
                    log.warn("canaries: reviewer {} failed to review canary {} of round {}: {}", pr.reviewerId(), c.seq(),
                            task.round(), f.message());
                }
            }
            return new Reviewed(task.round(), c, out, LoopStore.attributed(reviews), FailOnCurrentText.issues(reviews));
        }
    }

    /**
     * Stores a canary's verdicts. A clean copy is its item's current text under the item's id: a FAIL
     * on it is a FAIL on the item, which is then held ({@link FailOnCurrentText}) besides counting as
     * the panel's false flag.
     */
    public static final class Writer implements ItemWriter<Reviewed> {
        private final CanaryStore canaries;
        private final Store store;
        private final LoopStore loop;
        private final SourceFields source;
        private final long runPk;

        public Writer(CanaryStore canaries, Store store, LoopStore loop, SourceFields source, long runPk) {
            this.canaries = canaries;
            this.store = store;
            this.loop = loop;
            this.source = source;
            this.runPk = runPk;
        }

        /** Writes one canary's reviews in a transaction of its own ({@link FailOnCurrentText#apart}). */
        void writeApart(Reviewed reviewed) {
            FailOnCurrentText.apart(loop.jdbc(), () -> write(new Chunk<>(List.of(reviewed))));
        }

        @Override
        public void write(Chunk<? extends Reviewed> chunk) {
            for (Reviewed r : chunk) {
                r.verdicts().forEach(v -> canaries.insertVerdict(runPk, v));
                loop.addIssueAttribution(runPk, r.round(), "canaries", r.attributed());
                if (!r.canary().planted()) {
                    FailOnCurrentText.hold(store, loop, runPk, r.round(), r.canary().itemId(), r.canary().content(), r.fails(),
                            it -> it.content() != null ? it.content() : source.content(FieldsCodec.decode(it.fields())),
                            "canaries, clean copy " + r.canary().seq());
                }
            }
        }
    }
}
