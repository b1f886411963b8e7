package dev.santabatch.batchfix;

import dev.santabatch.rounds.LearnedRuleStore;
import dev.santabatch.canary.CanaryStep;
import dev.santabatch.model.ModelCalls;
import dev.santabatch.model.SpendStore;
import dev.santabatch.patterns.ExactIssueClassifier;
import dev.santabatch.review.step.Panels;
import dev.santabatch.review.step.ReviewStep;
import dev.santabatch.review.step.ReviewerType;
import dev.santabatch.review.step.ScriptedReviewer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.santabatch.canary.Canary;
import dev.santabatch.canary.CanaryStore;
import dev.santabatch.execution.RunContext;
import dev.santabatch.batchfix.induction.PassedItem;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.model.BudgetExceededException;
import dev.santabatch.config.SourceFields;
import dev.santabatch.review.FixOutcome;
import dev.santabatch.review.FixRequest;
import dev.santabatch.review.IssueSimilarity;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.RevisionCheck;
import dev.santabatch.rounds.Decision;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.rounds.ShippingInvariant;
import dev.santabatch.run.TestJobsAccess;
import dev.santabatch.persistence.FieldsCodec;
import dev.santabatch.persistence.Store;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * An item flagged on its current revision (a reviewer failed that text outside the item's own
 * review: a clean canary, a learned rule's fresh review) is not passed, whatever its own review said:
 * drawn again, it is fixed for the flag's issues and reviewed afresh; no canary copies it; a learned
 * rule does not take it for passed evidence. Round 2 of a run on an H2 store, with scripted reviewers
 * and a recording fixer.
 */
class FlaggedItemTests {

    static final List<String> HEADER =
            List.of("id", "name", "brand", "category", "price", "warranty_years", "battery_hours", "description");
    static final int ROUND = 2;
    static final String FLAG = "on-specification: the text names another product";

    JobDefinition job;
    Store store;
    LoopStore loop;
    LearnedRuleStore rules;
    RunContext run;
    SourceFields source;
    Panels panels;
    List<List<String>> rows;
    /** Critical issues the scripted reviewers give a text ({@code "criterion: text"} each); none: PASS. */
    final Map<String, List<String>> issuesByText = new ConcurrentHashMap<>();
    final List<FixRequest> fixRequests = new CopyOnWriteArrayList<>();

    @BeforeEach
    void aRunInItsSecondRound() throws Exception {
        job = JobFileLoader.load(Path.of("jobs/product-descriptions.yml"));
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:flagged-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        store = new Store(ds);
        dev.santabatch.persistence.StoreSchema.migrate(ds);
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        loop = new LoopStore(jdbc);
        rules = new LearnedRuleStore(jdbc);
        long runPk = store.createRunIfAbsent(new Store.RunRow(0, job.name(), "flagged", "job.yml", "in.csv", "out", 1,
                Instant.now(), null, null)).runPk();
        rows = TestJobsAccess.rows(10);
        List<Store.NewItem> items = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            items.add(new Store.NewItem(id(i), i + 1, i + 2, rows.get(i).get(3), FieldsCodec.encode(rows.get(i))));
        }
        store.insertItems(runPk, items);
        loop.insertRound(runPk, new LoopStore.Round(ROUND, 7, rows.size(), rows.size(), true, "", null));
        run = new RunContext(job, "flagged", runPk, Path.of("in.csv"), Path.of("out"), 7, HEADER, List.of());
        source = new SourceFields(job, HEADER);
        ReviewerType scripted = ScriptedReviewer.answering((ReviewRequest r) -> issuesByText.getOrDefault(r.content(), List.of()));
        panels = new Panels(job, Map.of("lexical", scripted, "semantic", scripted), RevisionCheck.NONE,
                IssueSimilarity.exactNormalised(), new ExactIssueClassifier(), p -> request -> {
                    fixRequests.add(request);
                    return new FixOutcome.Fixed("The " + request.source().get("name") + " is rewritten for its own product,"
                            + " with nothing taken from any other listing in the shop.");
                }, ModelCalls.none());
    }

    @AfterEach
    void close() {
        panels.close();
    }

    private String id(int i) {
        return rows.get(i).get(0);
    }

    private String text(int i) {
        return rows.get(i).get(7);
    }

    /** The round's sample: the given items at their stored revision 0. */
    private void sample(int... items) {
        List<LoopStore.SampleRow> sample = new ArrayList<>();
        for (int i : items) {
            sample.add(new LoopStore.SampleRow(id(i), 0, rows.get(i).get(3), sample.size() + 1));
        }
        loop.insertSample(run.runPk(), ROUND, sample);
    }

    /** Runs the review step on the round's sample: reads, processes and writes every pending item. */
    private void reviewStep() {
        ReviewStep.Reader reader = new ReviewStep.Reader(store, loop, run, panels, source, run.categoryIndex());
        ReviewStep.Processor processor = new ReviewStep.Processor(panels, source);
        ReviewStep.Writer writer = new ReviewStep.Writer(store, loop, run);
        reader.open(new ExecutionContext());
        List<ReviewStep.Done> done = new ArrayList<>();
        for (ReviewStep.Task t = reader.read(); t != null; t = reader.read()) {
            done.add(processor.process(t));
        }
        reader.close();
        writer.write(new Chunk<>(done));
    }

    @Test
    void aFlaggedItemTheFreshPanelPassesIsFixedForTheFlagsIssuesAndReviewedAfreshByBoth() {
        // given an item a clean canary's review failed on its current revision, drawn in a later sample
        loop.flag(run.runPk(), id(0), 0, 1, List.of("C: " + FLAG));
        sample(0);

        // when the review step reviews it, and the panel passes its text afresh
        reviewStep();

        // then the flag's FAIL still stands: the fixer is given its issue, the fix is reviewed afresh by
        // both reviewers, and the item is NICE after one fix (not on first review)
        assertThat(fixRequests).singleElement().satisfies(r -> {
            assertThat(r.content()).isEqualTo(text(0));
            assertThat(r.criticalIssues()).containsExactly(FLAG);
        });
        Store.StoredItem item = store.item(run.runPk(), id(0)).orElseThrow();
        assertThat(item.state()).isEqualTo("NICE");
        assertThat(item.currentRev()).isEqualTo(1);
        assertThat(item.content()).startsWith("The Item 1 is rewritten");
        assertThat(loop.sample(run.runPk(), ROUND)).singleElement().satisfies(s -> {
            assertThat(s.outcome()).isEqualTo("NICE");
            assertThat(s.fixes()).isEqualTo(1);
            assertThat(s.niceOnFirstReview()).isFalse();
        });
        assertThat(loop.jdbc().query("SELECT iteration, reviewer, verdict FROM sb_review WHERE item_id = ? ORDER BY iteration, reviewer",
                (rs, n) -> tuple(rs.getInt(1), rs.getString(2), rs.getString(3)), id(0)))
                .containsExactly(tuple(0, "B", "PASS"), tuple(0, "C", "PASS"), tuple(1, "B", "PASS"), tuple(1, "C", "PASS"));
    }

    @Test
    void aMatchersStandingFailReachesTheFixerAsItsCriterionsIssueWithoutThePatternId() {
        // given an item the batch fix's matcher said shows pattern r1-p3, its correction unlike the sample's
        LoopStore.PatternRow pattern = new LoopStore.PatternRow(3, "on-specification", FLAG, List.of(id(5)), 0.2, true, 0, 0, 0);
        loop.flag(run.runPk(), id(0), 0, 1, List.of(ModelBatchFix.unresolvedIssue(pattern, "keeps the sentence the sample's fixes removed")));
        sample(0);

        // when the review step reviews it
        reviewStep();

        // then the fixer is given the pattern as an issue of its criterion, not the run's pattern id
        assertThat(fixRequests).singleElement().satisfies(r -> assertThat(r.criticalIssues()).singleElement().satisfies(i -> {
            assertThat(i).startsWith(FLAG + " (shows the pattern; its correction keeps the sentence");
            assertThat(i).doesNotContain("r1-p3");
        }));
    }

    @Test
    void aFlaggedItemTheFreshPanelAlsoFailsIsFixedForBothSetsOfIssuesEachOnce() {
        // given a flag whose first issue the fresh review raises again, and a fresh review with an issue of its own
        loop.flag(run.runPk(), id(0), 0, 1, List.of("C: " + FLAG, "B: original: repeats a template sentence"));
        issuesByText.put(text(0), List.of(FLAG, "original: copies the shop's slogan"));
        sample(0);

        // when
        reviewStep();

        // then the fixer gets the fresh review's issues, then the flag's it did not raise, without duplicates
        assertThat(fixRequests).singleElement().satisfies(r -> assertThat(r.criticalIssues())
                .containsExactly(FLAG, "original: copies the shop's slogan", "original: repeats a template sentence"));
        assertThat(store.item(run.runPk(), id(0)).orElseThrow().state()).isEqualTo("NICE");
    }

    @Test
    void noCanaryCopiesAFlaggedItemThatPassedItsOwnReview() {
        // given a sample whose every item passed its own review, eight of them flagged on their
        // current revision since (a learned rule's fresh review or a clean canary failed them)
        sample(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        for (int i = 0; i < rows.size(); i++) {
            loop.sampleOutcome(run.runPk(), ROUND, id(i), "NICE", null, 1, 0);
            if (i >= 2) {
                loop.flag(run.runPk(), id(i), 0, ROUND, List.of("B: " + FLAG));
            }
        }
        CanaryStore canaries = new CanaryStore(store.jdbc());

        // when the canary step draws the round's canaries
        CanaryStep.Reader reader = new CanaryStep.Reader(store, loop, canaries, run, panels, source, run.categoryIndex(), true);
        reader.open(new ExecutionContext());
        reader.close();

        // then every canary is a copy of one of the two items passed and not flagged
        assertThat(canaries.drawn(run.runPk(), ROUND)).isTrue();
        assertThat(canaries.canaries(run.runPk(), ROUND)).isNotEmpty().extracting(Canary::itemId)
                .allSatisfy(copied -> assertThat(copied).isIn(id(0), id(1)));
    }

    @Test
    void aLearnedRulesPassedEvidenceLeavesOutAFlaggedItemButNotOneItsOwnFreshReviewFailed() {
        // given a sample that passed on first review: item 1 flagged by a clean canary's review, item 2
        // flagged by a fresh review of one of this round's learned rules (stored with its FAIL)
        sample(0, 1, 2, 3);
        for (int i = 0; i < 4; i++) {
            loop.sampleOutcome(run.runPk(), ROUND, id(i), "NICE", null, 1, 0);
        }
        loop.flag(run.runPk(), id(1), 0, ROUND, List.of("B: " + FLAG));
        loop.flag(run.runPk(), id(2), 0, ROUND, List.of("C: " + FLAG));
        rules.saveReview(run.runPk(), LearnedRules.ruleId(ROUND, 1), id(2), LearnedRuleStore.ReviewKind.FRESH, true,
                List.of("C: " + FLAG), LoopStore.IssueAttribution.NONE);
        LearnedRules learned = new LearnedRules(store, loop, rules, run, panels, source);

        // when
        List<PassedItem> passed = learned.evidence(ROUND, new LoopStore.PatternRow(1, "on-specification", "names another product",
                List.of(), 0.1, true, 0, 0, 0)).passed();

        // then the flagged item is not passed evidence (so neither induction nor the contradiction
        // screen takes it for a pass); the item the rule's own fresh review failed still is, as it
        // was when that review was asked for
        assertThat(passed).extracting(PassedItem::itemId).containsExactly(id(0), id(2), id(3));
    }

    // ------------------------------------------------------------------ a batch fix over a flagged revision

    private static final LoopStore.PatternRow PHONE = new LoopStore.PatternRow(1, "on-specification",
            "carries a phone number to call", List.of(), 0.2, true, 0, 0, 0);
    private static final LoopStore.PatternRow OTHER = new LoopStore.PatternRow(3, "on-specification", FLAG, List.of(), 0.2,
            true, 0, 0, 0);

    /** Writes a model batch fix of item {@code i} for {@code patterns} through the step's writer. */
    private void modelBatchFix(int i, LoopStore.PatternRow... patterns) {
        SpendStore spend = new SpendStore(loop.jdbc());
        Store.StoredItem item = store.item(run.runPk(), id(i)).orElseThrow();
        ModelBatchFix.Task task = new ModelBatchFix.Task(new SpendStore.Candidate(id(i), i, List.of()), item, ROUND);
        new ModelBatchFix.Writer(store, loop, spend, run).write(new Chunk<>(List.of(new ModelBatchFix.Outcome(task,
                List.of(patterns), List.of(), "A rewritten " + id(i) + ".", null, List.of(), Map.of(), null, null))));
    }

    private ShippingInvariant.Placement placedInACleanRun(int i) {
        Store.StoredItem item = store.item(run.runPk(), id(i)).orElseThrow();
        return new ShippingInvariant(loop, run.runPk(), Decision.CLEAN).place(item);
    }

    @Test
    void anUnsampledFlaggedItemTheMatcherFixesForAnotherPatternKeepsItsFailAndIsHeldInACleanRun() {
        // given an item never sampled, flagged by a clean canary's review and by the matcher's word that
        // it shows pattern 3 (its correction unlike the sample's, not stored)
        String matcherWord = ModelBatchFix.unresolvedIssue(OTHER, "keeps the sentence the sample's fixes removed");
        loop.flag(run.runPk(), id(4), 0, 1, List.of("C: " + FLAG, matcherWord));

        // when a later round's batch fix rewrites it for another pattern
        modelBatchFix(4, PHONE);

        // then the fixed revision carries both FAILs: a clean sample does not cover it, it is held
        assertThat(store.item(run.runPk(), id(4)).orElseThrow().currentRev()).isEqualTo(1);
        assertThat(loop.flagIssues(run.runPk(), id(4), 1)).containsExactly("C: " + FLAG, matcherWord);
        ShippingInvariant.Placement placed = placedInACleanRun(4);
        assertThat(placed.place()).isEqualTo(ShippingInvariant.Place.HELD);
        assertThat(placed.failed()).isNotNull();
    }

    @Test
    void aBatchFixOfThePatternTheMatcherSaidTheItemShowsResolvesTheMatchersWordOnly() {
        // given an item flagged with the matcher's word on pattern 3, and one also failed by a canary
        String matcherWord = ModelBatchFix.unresolvedIssue(OTHER, "keeps the sentence the sample's fixes removed");
        loop.flag(run.runPk(), id(4), 0, 1, List.of(matcherWord));
        loop.flag(run.runPk(), id(5), 0, 1, List.of(matcherWord, "C: original: copies the shop's slogan"));

        // when a later round fixes both for pattern 3 itself
        modelBatchFix(4, OTHER);
        modelBatchFix(5, OTHER);

        // then the first is a batch-fixed item like any other, covered by a clean sample; the second
        // keeps the canary's FAIL, which the fix of pattern 3 does not resolve
        assertThat(loop.flagIssues(run.runPk(), id(4), 1)).isEmpty();
        assertThat(placedInACleanRun(4).place()).isEqualTo(ShippingInvariant.Place.SHIPPED);
        assertThat(loop.flagIssues(run.runPk(), id(5), 1)).containsExactly("C: original: copies the shop's slogan");
        assertThat(placedInACleanRun(5).place()).isEqualTo(ShippingInvariant.Place.HELD);
    }

    @Test
    void anOfflineBatchFixForAnotherPatternKeepsAFlaggedFailItDoesNotCover() {
        // given an unsampled item flagged by a clean canary's review
        loop.flag(run.runPk(), id(6), 0, 1, List.of("C: " + FLAG, "B: original: copies the shop's slogan"));
        Store.StoredItem item = store.item(run.runPk(), id(6)).orElseThrow();

        // when the offline batch fix rewrites it for a pattern that covers one of those issues only
        new BatchFixStep.Writer(store, loop, run).write(new Chunk<>(List.of(new BatchFixStep.Outcome(
                new BatchFixStep.Task(item, ROUND), List.of(PHONE), "A rewritten item.", null,
                List.of("original: copies the shop's slogan"), null, List.of()))));

        // then the uncovered FAIL stands on the fixed revision, and the item is held in a clean run
        assertThat(loop.flagIssues(run.runPk(), id(6), 1)).containsExactly("C: " + FLAG);
        assertThat(placedInACleanRun(6).place()).isEqualTo(ShippingInvariant.Place.HELD);
    }

    @Test
    void flaggingARevisionAgainAddsOnlyIssuesItDoesNotHaveYet() {
        loop.flag(run.runPk(), id(7), 0, 1, List.of("C: " + FLAG));
        loop.flag(run.runPk(), id(7), 0, 2, List.of("C: " + FLAG, "B: original: copies the shop's slogan"));
        assertThat(loop.flagIssues(run.runPk(), id(7), 0)).containsExactly("C: " + FLAG, "B: original: copies the shop's slogan");
    }

    @Test
    void aReviewersFailThatAFixLeftUnresolvedStandsOnABatchFixForAnotherPattern() {
        // given an item sampled in round 1 that C failed (review 0) while B could not review it, and
        // whose fix was not kept (B could not review the fix either): C's FAIL is on its current text
        sample(8);
        loop.insertReviews(run.runPk(), ROUND, List.of(
                new LoopStore.ReviewRow(id(8), 0, 0, "B", "UNREVIEWED", null, null, "invalid answer twice", 1),
                new LoopStore.ReviewRow(id(8), 0, 0, "C", "REVIEWED", "FAIL", null, null, 1)));

        // when a later round's batch fix rewrites it for another pattern
        modelBatchFix(8, PHONE);

        // then C's FAIL stands on the fixed revision: held FAIL_UNRESOLVED, not merely unverified
        assertThat(loop.flagIssues(run.runPk(), id(8), 1)).containsExactly("C: FAIL");
        assertThat(placedInACleanRun(8).place()).isEqualTo(ShippingInvariant.Place.HELD);
    }

    @Test
    void aHeldItemsOpenIssuesAreItsReviewersFailAndItsFlagsBoth() {
        // given an item C failed in its review (B could not review it), flagged on the same revision by a canary
        sample(8);
        loop.insertReviews(run.runPk(), ROUND, List.of(
                new LoopStore.ReviewRow(id(8), 0, 0, "B", "UNREVIEWED", null, null, "invalid answer twice", 1),
                new LoopStore.ReviewRow(id(8), 0, 0, "C", "REVIEWED", "FAIL", null, null, 1)));
        store.setState(run.runPk(), id(8), "ACTIVE");
        loop.flag(run.runPk(), id(8), 0, ROUND, List.of("B: " + FLAG));

        // then the escalation's open issues hold both
        assertThat(loop.failsOnCurrentRevision(run.runPk()).get(id(8)).issues()).containsExactly("C: FAIL", "B: " + FLAG);
    }

    @Test
    void aLearnedRulesFixOfAnUnsampledFlaggedItemKeepsTheFlagsOtherFails() {
        // given an unsampled item flagged by a clean canary and by the matcher's word on the rule's pattern
        String matcherWord = ModelBatchFix.unresolvedIssue(OTHER, "keeps the sentence the sample's fixes removed");
        loop.flag(run.runPk(), id(9), 0, 1, List.of("C: original: copies the shop's slogan", matcherWord));
        LearnedRules learned = new LearnedRules(store, loop, rules, run, panels, source);

        // when a learned rule of pattern 3 writes its fix of the item
        boolean written = learned.writeFix(LearnedRules.ruleId(ROUND, 3), OTHER, ROUND, id(9), 0, "r2-p3", "A rewritten item.",
                List.of());

        // then the rule's fix resolves the matcher's word on its pattern, not the canary's FAIL: held
        assertThat(written).isTrue();
        assertThat(loop.flagIssues(run.runPk(), id(9), 1)).containsExactly("C: original: copies the shop's slogan");
        assertThat(placedInACleanRun(9).place()).isEqualTo(ShippingInvariant.Place.HELD);
    }

    /** A panel whose reviewer C throws {@code thrown} while B fails every text it is asked about. */
    private Panels stoppedBy(RuntimeException thrown) {
        ReviewerType failing = ScriptedReviewer.answering(r -> List.of(FLAG));
        ReviewerType refused = spec -> new dev.santabatch.review.Reviewer() {
            @Override
            public String id() {
                return spec.id();
            }

            @Override
            public java.util.Set<String> criteria() {
                return java.util.Set.copyOf(spec.criteria());
            }

            @Override
            public dev.santabatch.review.ReviewOutcome review(ReviewRequest request) {
                throw thrown;
            }
        };
        return new Panels(job, Map.of("lexical", failing, "semantic", refused), RevisionCheck.NONE,
                IssueSimilarity.exactNormalised(), new ExactIssueClassifier(), p -> request -> new FixOutcome.CannotFix("none"),
                ModelCalls.none());
    }

    static java.util.stream.Stream<RuntimeException> panelEnders() {
        return java.util.stream.Stream.of(new BudgetExceededException(BudgetExceededException.Limit.MAX_CALLS, 10, 10, ROUND),
                new dev.santabatch.model.EndpointDownException("http://127.0.0.1:9/v1", "circuit breaker open"));
    }

    /**
     * Runs {@code work} as a chunk does: in a transaction an exception rolls back (a reached budget is
     * swallowed by the step's guard and commits; any other exception fails the step). Returns the exception.
     */
    private RuntimeException inAChunk(Runnable work) {
        var tx = new org.springframework.transaction.support.TransactionTemplate(
                new org.springframework.jdbc.datasource.DataSourceTransactionManager(store.jdbc().getDataSource()));
        RuntimeException[] thrown = new RuntimeException[1];
        tx.executeWithoutResult(status -> {
            try {
                work.run();
            } catch (BudgetExceededException e) {
                thrown[0] = e; // the guard filters the item, the chunk commits
            } catch (RuntimeException e) {
                thrown[0] = e;
                status.setRollbackOnly();
            }
        });
        return thrown[0];
    }

    private int index(String itemId) {
        for (int i = 0; i < rows.size(); i++) {
            if (id(i).equals(itemId)) {
                return i;
            }
        }
        throw new IllegalArgumentException(itemId);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("panelEnders")
    void aCleanCopysFailReceivedBeforeAnotherReviewersExceptionEndedItsPanelHoldsTheItem(RuntimeException ender) {
        // given a sample whose every item passed its own review, and a panel whose reviewer C throws
        // while B fails every text it is asked about
        sample(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        for (int i = 0; i < rows.size(); i++) {
            loop.sampleOutcome(run.runPk(), ROUND, id(i), "NICE", null, 1, 0);
            store.setState(run.runPk(), id(i), "NICE");
        }
        Panels stopping = stoppedBy(ender);
        CanaryStore canaries = new CanaryStore(store.jdbc());
        CanaryStep.Writer writer = new CanaryStep.Writer(canaries, store, loop, source, run.runPk());
        CanaryStep.Reader reader = new CanaryStep.Reader(store, loop, canaries, run, stopping, source, run.categoryIndex(), true);
        reader.open(new ExecutionContext());
        CanaryStep.Task clean = null;
        for (CanaryStep.Task t = reader.read(); t != null && clean == null; t = reader.read()) {
            clean = t.canary().planted() ? null : t;
        }
        reader.close();
        assertThat(clean).as("a clean copy among the round's canaries").isNotNull();
        CanaryStep.Task cleanCopy = clean;

        // when its panel ends with C's exception, in the chunk's transaction
        RuntimeException thrown;
        try {
            thrown = inAChunk(() -> new CanaryStep.Processor(stopping, writer).process(cleanCopy));
        } finally {
            stopping.close();
        }

        // then B's FAIL on the item's current text holds the item, whether the chunk committed or not
        assertThat(thrown).isSameAs(ender);
        String item = cleanCopy.canary().itemId();
        assertThat(store.item(run.runPk(), item).orElseThrow().state()).isEqualTo("ACTIVE");
        assertThat(loop.flagIssues(run.runPk(), item, 0)).containsExactly("B: " + FLAG);
        assertThat(placedInACleanRun(index(item)).place()).isEqualTo(ShippingInvariant.Place.HELD);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("panelEnders")
    void anUnsampledItemsFailReceivedInTheBatchFixScanBeforeAnotherReviewersExceptionHoldsIt(RuntimeException ender) {
        // given an unsampled eligible item and the offline batch fix's scan with a panel whose C throws
        Panels stopping = stoppedBy(ender);
        BatchFixStep.RoundPatterns patterns = new BatchFixStep.RoundPatterns();
        patterns.round = ROUND;
        BatchFixStep.Processor processor = new BatchFixStep.Processor(stopping, patterns, source,
                IssueSimilarity.exactNormalised(), store, loop, run.runPk());
        Store.StoredItem item = store.item(run.runPk(), id(5)).orElseThrow();

        // when the scan reviews it, in the chunk's transaction
        RuntimeException thrown;
        try {
            thrown = inAChunk(() -> processor.process(new BatchFixStep.Task(item, ROUND)));
        } finally {
            stopping.close();
        }

        // then B's FAIL flags it on its current revision: held, never covered by a clean sample
        assertThat(thrown).isSameAs(ender);
        assertThat(loop.flagIssues(run.runPk(), id(5), 0)).containsExactly("B: " + FLAG);
        assertThat(placedInACleanRun(5).place()).isEqualTo(ShippingInvariant.Place.HELD);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("panelEnders")
    void aScanFailTheFixerCouldNotFixBeforeItsExceptionHoldsTheItem(RuntimeException ender) {
        // given both reviewers failing an unsampled item on a systematic pattern's issue, and a fixer that throws
        ReviewerType failing = ScriptedReviewer.answering(r -> List.of(FLAG));
        Panels throwingFixer = new Panels(job, Map.of("lexical", failing, "semantic", failing), RevisionCheck.NONE,
                IssueSimilarity.exactNormalised(), new ExactIssueClassifier(), p -> request -> {
                    throw ender;
                }, ModelCalls.none());
        BatchFixStep.RoundPatterns patterns = new BatchFixStep.RoundPatterns();
        patterns.round = ROUND;
        patterns.systematic = List.of(OTHER);
        BatchFixStep.Processor processor = new BatchFixStep.Processor(throwingFixer, patterns, source,
                IssueSimilarity.exactNormalised(), store, loop, run.runPk());
        Store.StoredItem item = store.item(run.runPk(), id(6)).orElseThrow();

        // when the scan's fix of it throws, in the chunk's transaction
        RuntimeException thrown;
        try {
            thrown = inAChunk(() -> processor.process(new BatchFixStep.Task(item, ROUND)));
        } finally {
            throwingFixer.close();
        }

        // then the panel's FAILs flag it on its current revision: held
        assertThat(thrown).isSameAs(ender);
        assertThat(loop.flagIssues(run.runPk(), id(6), 0)).isNotEmpty().allSatisfy(line -> assertThat(line).endsWith(FLAG));
        assertThat(placedInACleanRun(6).place()).isEqualTo(ShippingInvariant.Place.HELD);
    }
}
