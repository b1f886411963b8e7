package dev.santabatch.batchfix;

import dev.santabatch.config.Criterion;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.LexicalThresholds;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.lexical.LexicalIndex;
import dev.santabatch.review.lexical.LexicalReviewer;
import dev.santabatch.review.offline.CatalogSnapshot;
import dev.santabatch.execution.PassProgress;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.review.Check;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.semantic.Embedder;
import dev.santabatch.review.semantic.SemanticIndex;
import dev.santabatch.review.semantic.SemanticReviewer;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Function;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The offline reviewers' per-item checks, used by the model matcher's narrowing for patterns of
 * the criteria they judge (on-specification, original): no model call. Both reviewers run on the
 * round's catalog snapshot with the job file's thresholds for them (the defaults where the panel
 * has no such reviewer).
 *
 * <ul>
 *   <li>semantic (all-MiniLM-L6-v2 sentence embeddings): on-specification is flagged when the
 *       reviewer's check fails (an off-topic sentence, a sentence closer to another item's source,
 *       the whole text), or when any sentence's typicality is below its {@code topic-similarity}
 *       even in a category with fewer than {@code min-category-peers} other items, where the
 *       reviewer itself does not apply the off-topic test: a reviewer must not fail a clean item on
 *       weak evidence, but for narrowing a missed item costs more than a call. Original is flagged
 *       when the item has a near-duplicate or shares a passage. The semantic index embeds every
 *       item of the round (once per item revision); it is prepared only when a pattern of
 *       on-specification needs it, the criterion where a drifted sentence is unique to its item and
 *       near no failing sampled sentence, so the narrowing by meaning alone cannot find it (the
 *       vectors it stores are the ones that narrowing then reads: {@link dev.santabatch.review.semantic.SentenceVectors}).
 *   <li>lexical (word shingles, names): its on-specification and original checks; a failure flags.
 * </ul>
 * An item's score is one per failing check plus, for on-specification, how far its least typical
 * sentence is below {@code topic-similarity}. The pass over the eligible items reads the round's
 * source vectors once ({@link SemanticIndex#sourceVectors}), looks at the stop every
 * {@value #PAGE} items and logs its progress every 10 s.
 */
public final class OfflineNarrowingChecks {

    static final Set<String> JUDGED = Set.of(SemanticReviewer.ON_SPECIFICATION, SemanticReviewer.ORIGINAL);

    private final JobDefinition job;
    private final DataSource dataSource;
    private final Executor executor;
    private final SemanticSettings semanticSettings;
    private final LexicalThresholds lexicalThresholds;
    private SemanticIndex semantic;
    private LexicalIndex lexical;

    /** Items checked between two looks at the stop flag (a few seconds at the checks' rate). */
    static final int PAGE = 256;
    /** How often the checks log their progress. */
    private static final long PROGRESS_NANOS = 10_000_000_000L;
    private static final Logger log = LoggerFactory.getLogger(OfflineNarrowingChecks.class);

    /** {@link #PROGRESS_NANOS}, lowered by tests. */
    long progressEveryNanos = PROGRESS_NANOS;

    /**
     * Whether the round's source vectors are read once, in pages; {@code false} (the benchmark's
     * side-by-side only): one query per item and per neighbour, as before.
     */
    boolean sourcesReadOnce = true;

    public OfflineNarrowingChecks(JobDefinition job, DataSource dataSource, Executor executor) {
        this.job = job;
        this.dataSource = dataSource;
        this.executor = executor;
        this.semanticSettings = job.reviewers().stream().filter(r -> "semantic".equals(r.type())).findFirst()
                .map(r -> SemanticSettings.from(r.thresholds())).orElse(SemanticSettings.defaults());
        this.lexicalThresholds = job.reviewers().stream().filter(r -> LexicalReviewer.TYPE.equals(r.type())).findFirst()
                .map(ReviewerSpec::thresholds).map(LexicalThresholds::of).orElse(LexicalThresholds.of(Map.of()));
    }

    /** The criteria of the job's rubric these checks judge. */
    public Set<String> criteria() {
        Set<String> out = new LinkedHashSet<>();
        job.santaCriteria().stream().map(Criterion::id).filter(JUDGED::contains).forEach(out::add);
        return out;
    }

    /**
     * Runs the checks of {@code criteria} (of {@link #criteria()}) on {@code items}, after preparing
     * the indexes on the round's {@code snapshot}.
     *
     * @param items the eligible items, as of the snapshot
     */
    public PatternNarrowing.Offline check(CatalogSnapshot snapshot, Collection<SnapshotItem> items, Set<String> criteria) {
        Set<String> judged = new LinkedHashSet<>(criteria);
        judged.retainAll(criteria());
        if (judged.isEmpty()) {
            return PatternNarrowing.Offline.NONE;
        }
        boolean useSemantic = judged.contains(SemanticReviewer.ON_SPECIFICATION);
        if (lexical == null) {
            lexical = new LexicalIndex(dataSource, lexicalThresholds);
        }
        lexical.prepare(snapshot);
        if (useSemantic) {
            if (semantic == null) {
                semantic = new SemanticIndex(dataSource, Embedder::shared, executor, semanticSettings);
            }
            semantic.prepare(snapshot);
        }
        List<Criterion> rubric = job.santaCriteria().stream().filter(c -> judged.contains(c.id())).toList();
        LexicalReviewer lex = new LexicalReviewer("narrowing-lexical", judged, lexical);
        SemanticReviewer sem = useSemantic ? new SemanticReviewer("narrowing-semantic", judged, semantic) : null;
        Map<String, Map<String, Double>> flagged = new HashMap<>();
        judged.forEach(c -> flagged.put(c, new HashMap<>()));
        // the round's source vectors, read once: each item's own and those of the neighbours it shares a
        // passage with (instead of one query each)
        Map<String, float[]> sources = sem == null || !sourcesReadOnce ? Map.of()
                : semantic.sourceVectors(() -> snapshot.checkStop("the batch fix's offline narrowing checks: reading source vectors"));
        Function<String, Optional<float[]>> sourceOf = id -> {
            float[] v = sources.get(id);
            return v != null ? Optional.of(v) : semantic.sourceVector(id);
        };
        PassProgress progress = new PassProgress(log, "batch-fix: offline narrowing checks (" + String.join(", ", judged) + ")",
                items.size(), progressEveryNanos);
        int checked = 0;
        for (SnapshotItem item : items) {
            if (checked++ % PAGE == 0) {
                snapshot.checkStop("the batch fix's offline narrowing checks: " + progress.done() + " of " + items.size() + " items");
            }
            ReviewRequest request = new ReviewRequest(job.taskSpec(), item.id(), item.source(), item.content(), rubric);
            Map<String, Double> score = new HashMap<>();
            if (lex.review(request) instanceof ReviewOutcome.Reviewed r) {
                for (Check c : r.review().checks()) {
                    if (c.result() == CheckResult.FAIL) {
                        score.merge(c.criterion(), 1.0, Double::sum);
                    }
                }
            }
            if (sem != null) {
                SemanticReviewer.Analysis a = sem.analyse(request, sourceOf);
                if (judged.contains(SemanticReviewer.ON_SPECIFICATION)) {
                    double below = semanticSettings.topicSimilarity() - a.lowestSimilarity();
                    boolean fails = !a.findings().isEmpty() || a.wholeText();
                    if (fails || below > 0) {
                        score.merge(SemanticReviewer.ON_SPECIFICATION, (fails ? 1.0 : 0.0) + Math.max(0, below), Double::sum);
                    }
                }
                if (judged.contains(SemanticReviewer.ORIGINAL) && !a.duplicates().isEmpty()) {
                    score.merge(SemanticReviewer.ORIGINAL, 1.0, Double::sum);
                }
            }
            score.forEach((c, s) -> flagged.get(c).put(item.id(), s));
            progress.add(1);
        }
        progress.finish();
        Map<String, Long> checks = new HashMap<>();
        for (String c : judged) {
            checks.put(c, (long) items.size() * (sem != null ? 2 : 1));
        }
        return new PatternNarrowing.Offline(judged, flagged, checks);
    }
}
