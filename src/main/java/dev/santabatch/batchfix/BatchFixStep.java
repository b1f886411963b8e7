package dev.santabatch.batchfix;

import dev.santabatch.persistence.Cause;
import dev.santabatch.review.offline.StoreSnapshot;
import dev.santabatch.review.step.Panels;
import dev.santabatch.rounds.FailOnCurrentText;
import dev.santabatch.execution.RunContext;
import dev.santabatch.config.SourceFields;
import dev.santabatch.review.FixOutcome;
import dev.santabatch.review.FixRequest;
import dev.santabatch.review.GateResult;
import dev.santabatch.review.GateVerdict;
import dev.santabatch.review.IssueSimilarity;
import dev.santabatch.review.MergedIssue;
import dev.santabatch.review.PanelReview;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.SantaReason;
import dev.santabatch.review.SantaSettings;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.persistence.FieldsCodec;
import dev.santabatch.persistence.Store;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemProcessor;
import org.springframework.batch.infrastructure.item.ItemStreamReader;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * The batch-fix step: every eligible item (not verified NICE, not escalated, not in this round's
 * sample) is matched against the round's systematic patterns. For the offline reviewers the
 * matcher is the panel's own checks run on the item (off-topic items are not near each other, so a
 * neighbourhood search would miss them): a full scan; the report counts these offline checks as
 * the step's read count times the panel size. The fixer gets the sample's own accepted fixes of
 * the pattern as examples (a model fixer shows them; the offline fixer has no use for them). A match is fixed
 * by the fixer for the pattern's issues, re-checked by the rules, and stored as a new revision
 * (cause {@code batch-fix}, round, pattern); where no fix exists or the fix fails, the item is
 * escalated with the pattern.
 */
public final class BatchFixStep {

    /** The step's name in the job (the export reads its read count). */
    public static final String NAME = "batch-fix";

    public record Task(Store.StoredItem item, int round) {}

    /**
     * @param patterns the systematic patterns the item shows (at least one)
     * @param reason why the item is escalated (a {@link dev.santabatch.review.SantaReason} name);
     *     {@code null} when fixed
     */
    /**
     * @param unresolved the item's failed issues the outcome leaves in place (no systematic pattern
     *     matched them), each as {@code <reviewers>: <issue>}: kept as a flag on the revision the
     *     item is left at (the read one, or the fixed one), so that it is never shipped unreviewed
     */
    /**
     * @param attributed the issues the review validator attributed in the scan's review of the item
     *     (counted in {@code report.json} like every review's)
     */
    public record Outcome(Task task, List<LoopStore.PatternRow> patterns, @Nullable String fixed, @Nullable String attempt,
            List<String> issues, @Nullable String reason, List<String> unresolved, LoopStore.IssueAttribution attributed) {

        Outcome(Task task, List<LoopStore.PatternRow> patterns, @Nullable String fixed, @Nullable String attempt,
                List<String> issues, @Nullable String reason, List<String> unresolved) {
            this(task, patterns, fixed, attempt, issues, reason, unresolved, LoopStore.IssueAttribution.NONE);
        }

        Outcome(Task task, List<LoopStore.PatternRow> patterns, @Nullable String fixed, @Nullable String attempt,
                List<String> issues, @Nullable String reason) {
            this(task, patterns, fixed, attempt, issues, reason, List.of());
        }

        Outcome with(LoopStore.IssueAttribution a) {
            return new Outcome(task, patterns, fixed, attempt, issues, reason, unresolved, a);
        }

        /** The patterns as {@code changes.csv} and {@code escalations.csv} name them. */
        String label() {
            return LoopStore.PatternRow.describe(task.round(), patterns);
        }
    }

    private BatchFixStep() {}

    /** The round's systematic patterns and the round, loaded when the step opens. */
    public static final class RoundPatterns {
        int round = -1;
        List<LoopStore.PatternRow> systematic = List.of();
        Set<String> sampled = Set.of();
        /** The sample's accepted Santa fixes per pattern number: examples for the fixer. */
        java.util.Map<Integer, List<dev.santabatch.review.FixExample>> examples = java.util.Map.of();
        /** The lowest catalog index of an item left unfinished by a reached budget: a restart resumes before it. */
        final java.util.concurrent.atomic.AtomicLong unfinished = new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE);

        void unfinished(long recordIndex) {
            unfinished.accumulateAndGet(recordIndex, Math::min);
        }

        /** Where a restart resumes: after {@code last}, or before the first unfinished item. */
        long resumeAfter(long last) {
            long u = unfinished.get();
            return u == Long.MAX_VALUE ? last : Math.min(last, u - 1);
        }
    }

    public static final class Reader implements ItemStreamReader<Task> {
        private final Store store;
        private final LoopStore loop;
        private final RunContext run;
        private final Panels panels;
        private final RoundPatterns patterns;
        private final SourceFields source;
        private final int categoryIndex;
        private final Deque<Task> page = new ArrayDeque<>();
        private long lastIndex = -1;
        private long fetched = -1;
        private boolean exhausted;

        public Reader(Store store, LoopStore loop, RunContext run, Panels panels, RoundPatterns patterns, SourceFields source,
                int categoryIndex) {
            this.store = store;
            this.loop = loop;
            this.run = run;
            this.panels = panels;
            this.patterns = patterns;
            this.source = source;
            this.categoryIndex = categoryIndex;
        }

        @Override
        public void open(ExecutionContext ctx) {
            page.clear();
            exhausted = false;
            patterns.unfinished.set(Long.MAX_VALUE);
            var current = loop.currentRound(run.runPk());
            patterns.round = current.map(LoopStore.Round::round).orElse(-1);
            patterns.systematic = patterns.round < 0 ? List.of()
                    : loop.patterns(run.runPk(), patterns.round).stream().filter(LoopStore.PatternRow::systematic).toList();
            Set<String> sampled = new HashSet<>();
            if (patterns.round > 0) {
                loop.sample(run.runPk(), patterns.round).forEach(s -> sampled.add(s.itemId()));
            }
            patterns.sampled = sampled;
            java.util.Map<Integer, List<dev.santabatch.review.FixExample>> examples = new java.util.HashMap<>();
            for (LoopStore.PatternRow p : patterns.systematic) {
                examples.put(p.patternNo(), store.santaFixExamples(run.runPk(), patterns.round, p.items(),
                        run.column(run.job().input().contentColumn()), 3));
            }
            patterns.examples = examples;
            lastIndex = ctx.getInt("batch-fix.round", -1) == patterns.round ? ctx.getLong("batch-fix.last-index", -1) : -1;
            fetched = lastIndex;
            if (!patterns.systematic.isEmpty()) {
                panels.prepare(new StoreSnapshot(store, run.runPk(), patterns.round, source, categoryIndex));
            }
        }

        @Override
        public @Nullable Task read() {
            if (patterns.systematic.isEmpty()) {
                return null;
            }
            while (page.isEmpty() && !exhausted) {
                List<Store.EligibleItem> next = store.eligibleAfter(run.runPk(), fetched, patterns.round, 500);
                if (next.isEmpty()) {
                    exhausted = true;
                } else {
                    fetched = next.get(next.size() - 1).item().recordIndex();
                    for (Store.EligibleItem e : next) {
                        // an item whose current revision is this round's batch fix was done by an
                        // earlier execution of this step in the round (a re-run after it completed
                        // starts with empty saved progress): not matched or fixed again
                        if (!patterns.sampled.contains(e.item().id()) && !e.changedLastRound()) {
                            page.add(new Task(e.item(), patterns.round));
                        }
                    }
                }
            }
            Task t = page.poll();
            if (t != null) {
                lastIndex = t.item().recordIndex();
            }
            return t;
        }

        @Override
        public void update(ExecutionContext ctx) {
            ctx.putInt("batch-fix.round", patterns.round);
            ctx.putLong("batch-fix.last-index", patterns.resumeAfter(lastIndex));
        }
    }

    public static final class Processor implements ItemProcessor<Task, Outcome> {
        private final Panels panels;
        private final RoundPatterns patterns;
        private final SourceFields source;
        private final IssueSimilarity similarity;

        private final Store store;
        private final LoopStore loop;
        private final long runPk;

        /**
         * @param store, loop and runPk hold an item a reviewer failed when another reviewer's exception
         *     ended its panel ({@link FailOnCurrentText})
         */
        public Processor(Panels panels, RoundPatterns patterns, SourceFields source, IssueSimilarity similarity, Store store,
                LoopStore loop, long runPk) {
            this.store = store;
            this.loop = loop;
            this.runPk = runPk;
            this.panels = panels;
            this.patterns = patterns;
            this.source = source;
            this.similarity = similarity;
        }

        @Override
        public @Nullable Outcome process(Task task) {
            try {
                List<PanelReview> reviews = new ArrayList<>(2);
                Outcome o = processItem(task, reviews);
                LoopStore.IssueAttribution a = LoopStore.attributed(reviews);
                if (a.equals(LoopStore.IssueAttribution.NONE)) {
                    return o;
                }
                // an item the scan passed still carries what its review's validation attributed
                return (o != null ? o : new Outcome(task, List.of(), null, null, List.of(), null, List.of())).with(a);
            } catch (dev.santabatch.model.BudgetExceededException | dev.santabatch.model.CallsStoppedException e) {
                patterns.unfinished(task.item().recordIndex()); // a restart scans it again
                throw e;
            }
        }

        /**
         * Holds the item on the FAILs among {@code reviews} in a transaction of its own, before an exception
         * (another reviewer's, the fixer's) ends its processing: a FAIL received is never asked afresh.
         */
        private void holdApart(Task task, String content, List<PanelReview> reviews) {
            FailOnCurrentText.apart(loop.jdbc(), () -> FailOnCurrentText.hold(store, loop, runPk, patterns.round,
                    task.item().id(), content, FailOnCurrentText.issues(reviews),
                    it -> it.content() != null ? it.content() : source.content(FieldsCodec.decode(it.fields())),
                    "batch fix, scan"));
        }

        private @Nullable Outcome processItem(Task task, List<PanelReview> made) {
            List<String> fields = FieldsCodec.decode(task.item().fields());
            String content = task.item().content() != null ? task.item().content() : source.content(fields);
            Map<String, String> facts = source.of(fields);
            SantaSettings settings = panels.settings();
            ReviewRequest request = new ReviewRequest(settings.taskSpec(), task.item().id(), facts, content,
                    settings.santaCriteria());
            List<PanelReview> reviews = panels.panel().review(panels.newPanel(), request,
                    received -> holdApart(task, content, received));
            made.addAll(reviews);
            GateResult gate = panels.gate().decide(settings.criterionIds(), reviews);
            if (gate.verdict() != GateVerdict.NAUGHTY) {
                return null; // nice, or not reviewable now: no pattern to match
            }
            // every systematic pattern the item shows; fixed for all of their issues at once
            List<LoopStore.PatternRow> hits = new ArrayList<>();
            List<String> matched = new ArrayList<>();
            Set<MergedIssue> covered = new HashSet<>();
            for (LoopStore.PatternRow p : patterns.systematic) {
                boolean hit = false;
                for (MergedIssue issue : gate.criticalIssues()) {
                    if (p.criterion().equals(issue.criterion()) && similarity.same(issue.text(), p.label())) {
                        hit = true;
                        covered.add(issue);
                        if (!matched.contains(issue.text())) {
                            matched.add(issue.text());
                        }
                    }
                }
                if (hit) {
                    hits.add(p);
                }
            }
            // a FAIL no systematic pattern covers is not fixed here (the fixer is given only the
            // patterns' issues): it stays with the item, even on a criterion a pattern it shows has
            List<String> unresolved = gate.criticalIssues().stream()
                    .filter(i -> !covered.contains(i))
                    .map(i -> String.join(",", new java.util.TreeSet<>(i.flaggedBy())) + ": " + i.text())
                    .toList();
            if (hits.isEmpty()) {
                return unresolved.isEmpty() ? null : new Outcome(task, hits, null, null, List.of(), null, unresolved);
            }
            List<dev.santabatch.review.FixExample> examples = new ArrayList<>();
            for (LoopStore.PatternRow p : hits) {
                examples.addAll(patterns.examples.getOrDefault(p.patternNo(), List.of()));
            }
            FixOutcome fix;
            try {
                fix = panels.fixer().fix(
                        new FixRequest(content, facts, matched, settings.taskSpec(), task.item().id(), examples));
            } catch (RuntimeException e) {
                holdApart(task, content, reviews); // the panel's FAIL outlives the fixer's exception
                throw e;
            }
            if (fix instanceof FixOutcome.Fixed f && !f.truncated() && !f.text().isBlank() && !f.text().equals(content)) {
                List<String> broken = panels.revisionCheck().violations(f.text(), facts);
                if (broken.isEmpty()) {
                    return new Outcome(task, hits, f.text(), null, matched, null, unresolved);
                }
                List<String> issues = new ArrayList<>(matched);
                issues.addAll(broken);
                return new Outcome(task, hits, null, f.text(), issues, SantaReason.FIX_BREAKS_RULES.name());
            }
            if (fix instanceof FixOutcome.CannotFix no) {
                List<String> issues = new ArrayList<>(matched);
                issues.add(no.why());
                return new Outcome(task, hits, null, null, issues, SantaReason.NO_FIX.name());
            }
            SantaReason reason = SantaReason.FIXER_FAILED;
            String attempt = null;
            if (fix instanceof FixOutcome.Fixed f) {
                attempt = f.text();
                reason = f.text().isBlank() ? SantaReason.FIX_EMPTY
                        : f.truncated() ? SantaReason.FIX_TRUNCATED : SantaReason.FIX_UNCHANGED;
            }
            return new Outcome(task, hits, null, attempt, matched, reason.name());
        }
    }

    public static final class Writer implements ItemWriter<Outcome> {
        private final Store store;
        private final LoopStore loop;
        private final RunContext run;

        public Writer(Store store, LoopStore loop, RunContext run) {
            this.store = store;
            this.loop = loop;
            this.run = run;
        }

        @Override
        public void write(Chunk<? extends Outcome> chunk) {
            Map<Integer, LoopStore.IssueAttribution> attributed = new java.util.HashMap<>();
            for (Outcome o : chunk) {
                String id = o.task().item().id();
                int round = o.task().round();
                int baseRev = o.task().item().currentRev();
                attributed.merge(round, o.attributed(), LoopStore.IssueAttribution::plus);
                if (o.patterns().isEmpty()) {
                    if (!o.unresolved().isEmpty()) {
                        loop.flag(run.runPk(), id, baseRev, round, o.unresolved());
                    }
                    continue;
                }
                // written only while the item is still as it was read: an outcome for an item
                // changed or held since (by an earlier execution of the step) is dropped, counts too
                boolean written = o.fixed() != null
                        ? store.addRevisionIfAt(run.runPk(), id, baseRev, round, Cause.BATCH_FIX, o.label(), o.fixed())
                        : store.escalateIfAt(run.runPk(), id, baseRev, round, Cause.BATCH_FIX, o.reason(), o.label(), o.attempt(),
                                o.issues());
                if (!written) {
                    continue;
                }
                if (o.fixed() != null) {
                    // an earlier FAIL on the read text that this fix's patterns do not cover stands
                    loop.flagRevised(run.runPk(), id, baseRev, round,
                            line -> o.issues().stream().anyMatch(issue -> line.endsWith(": " + issue)), o.unresolved());
                }
                for (LoopStore.PatternRow p : o.patterns()) {
                    loop.addPatternCounts(run.runPk(), round, p.patternNo(), 1, o.fixed() != null ? 1 : 0, o.fixed() != null ? 0 : 1);
                }
            }
            // in the chunk's transaction: a restart rescans only items whose chunk was not written
            attributed.forEach((round, a) -> loop.addIssueAttribution(run.runPk(), round, Cause.BATCH_FIX.value(), a));
        }
    }
}
