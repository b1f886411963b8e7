package dev.santabatch.review;

import static dev.santabatch.review.ReviewFixtures.failOn;
import static dev.santabatch.review.ReviewFixtures.passAll;
import static dev.santabatch.review.ReviewFixtures.reviewed;
import static dev.santabatch.review.ReviewFixtures.set;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.santabatch.review.ReviewFixtures.ScriptedFixer;
import dev.santabatch.review.ReviewFixtures.ScriptedPanel;
import dev.santabatch.review.ReviewFixtures.ScriptedReviewer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SantaProcessorTests {

    static final List<String> CRITERIA = List.of("accuracy", "compliance");
    static final Set<String> ALL = set("accuracy", "compliance");
    static final String ORIGINAL = "A sturdy kettle with a 3-year warranty.";
    static final Map<String, String> SOURCE = source();

    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    @AfterEach
    void shutdown() throws InterruptedException {
        executor.shutdownNow();
        executor.awaitTermination(5, TimeUnit.SECONDS);
    }

    private static Map<String, String> source() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("name", "Kettle");
        m.put("warranty_years", "2");
        return m;
    }

    private SantaProcessor processor(ReviewerFactory panel, Fixer fixer, RevisionCheck check, int maxIterations) {
        SantaSettings settings = new SantaSettings(
                "Write a product description.", ReviewFixtures.criteria("accuracy", "compliance"), maxIterations);
        return new SantaProcessor(settings, panel, fixer, check, new Panel(executor, new ReviewValidator()), new Gate());
    }

    private SantaProcessor processor(ReviewerFactory panel, Fixer fixer) {
        return processor(panel, fixer, RevisionCheck.NONE, 3);
    }

    private static ReviewOutcome pass() {
        return reviewed(passAll(CRITERIA));
    }

    private static ReviewOutcome naughty() {
        return reviewed(failOn(CRITERIA, "accuracy", "accuracy: states a 3-year warranty, the source says 2"));
    }

    private static ReviewOutcome[] rounds(int naughtyRounds, boolean thenNice) {
        List<ReviewOutcome> out = new ArrayList<>();
        for (int i = 0; i < naughtyRounds; i++) {
            out.add(naughty());
        }
        if (thenNice) {
            out.add(pass());
        }
        return out.toArray(ReviewOutcome[]::new);
    }

    private static ReviewOutcome[] passes(int n) {
        return Collections.nCopies(n, pass()).toArray(ReviewOutcome[]::new);
    }

    private static FixOutcome[] fixes(int n) {
        List<FixOutcome> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(new FixOutcome.Fixed("fix " + i));
        }
        return out.toArray(FixOutcome[]::new);
    }

    @Test
    void niceOnFirstReviewNeedsNoFix() {
        // given
        ScriptedPanel panel = new ScriptedPanel().reviewer("B", ALL, pass()).reviewer("C", ALL, pass());
        ScriptedFixer fixer = new ScriptedFixer();

        // when
        SantaResult result = processor(panel, fixer).process("item-1", ORIGINAL, SOURCE);

        // then
        assertThat(result.outcome()).isEqualTo(SantaOutcome.NICE);
        assertThat(result.reason()).isNull();
        assertThat(result.reviewsToNice()).isEqualTo(1);
        assertThat(result.fixes()).isZero();
        assertThat(result.niceOnFirstReview()).isTrue();
        assertThat(result.finalText()).isEqualTo(ORIGINAL);
        assertThat(result.reviews()).extracting(ReviewRecord::reviewerId).containsExactly("B", "C");
        assertThat(fixer.calls).hasValue(0);
    }

    @ParameterizedTest(name = "nice after {0} fix(es)")
    @ValueSource(ints = {1, 2, 3})
    void niceAfterFixes(int n) {
        // given B finds the issue n times, then passes; C always passes
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, rounds(n, true))
                .reviewer("C", ALL, passes(n + 1));
        ScriptedFixer fixer = new ScriptedFixer(fixes(n));

        // when
        SantaResult result = processor(panel, fixer).process("item-1", ORIGINAL, SOURCE);

        // then
        assertThat(result.outcome()).isEqualTo(SantaOutcome.NICE);
        assertThat(result.fixes()).isEqualTo(n);
        assertThat(result.reviewsToNice()).isEqualTo(n + 1);
        assertThat(result.finalText()).isEqualTo("fix " + n);
        assertThat(result.revisions()).extracting(FixRevision::iteration)
                .containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(1, n).boxed().toList());
        assertThat(result.revisions().get(0).before()).isEqualTo(ORIGINAL);
        assertThat(result.revisions().get(n - 1).after()).isEqualTo("fix " + n);
        assertThat(result.reviews()).hasSize(2 * (n + 1));
        assertThat(result.reviews().get(2 * n).iteration()).isEqualTo(n);
        assertThat(result.openIssues()).isEmpty();
        // the fixer got the merged issues and the current text each time
        assertThat(fixer.requests.get(0).criticalIssues())
                .containsExactly("accuracy: states a 3-year warranty, the source says 2");
        assertThat(fixer.requests.get(0).source()).isEqualTo(SOURCE);
        if (n > 1) {
            assertThat(fixer.requests.get(1).content()).isEqualTo("fix 1");
        }
    }

    @Test
    void escalatesWhenTheReviewAfterTheThirdFixIsStillNaughty() {
        // given B is never satisfied
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, rounds(4, false))
                .reviewer("C", ALL, passes(4));
        ScriptedFixer fixer = new ScriptedFixer(fixes(3));

        // when
        SantaResult result = processor(panel, fixer).process("item-1", ORIGINAL, SOURCE);

        // then the review after the last fix was looked at, and it decided
        assertThat(result.outcome()).isEqualTo(SantaOutcome.ESCALATED);
        assertThat(result.reason()).isEqualTo(SantaReason.STILL_NAUGHTY);
        assertThat(result.fixes()).isEqualTo(3);
        assertThat(result.reviewsToNice()).isEqualTo(4);
        assertThat(fixer.calls).hasValue(3);
        assertThat(result.finalText()).isEqualTo("fix 3");
        assertThat(result.rejectedFix()).isNull();
        assertThat(result.lastAttempt()).as("the last attempted fix, for escalations.csv").isEqualTo("fix 3");
        assertThat(result.openIssues()).singleElement()
                .satisfies(i -> assertThat(i.flaggedBy()).containsExactly("B"));
        assertThat(result.reviews()).extracting(ReviewRecord::iteration).containsExactly(0, 0, 1, 1, 2, 2, 3, 3);
    }

    @Test
    void niceOnTheReviewAfterTheLastAllowedFixIsNice() {
        // given maxIterations 1: one fix, then the review decides
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, naughty(), pass())
                .reviewer("C", ALL, pass(), pass());

        // when
        SantaResult result = processor(panel, new ScriptedFixer(fixes(1)), RevisionCheck.NONE, 1)
                .process("item-1", ORIGINAL, SOURCE);

        // then
        assertThat(result.outcome()).isEqualTo(SantaOutcome.NICE);
        assertThat(result.reviewsToNice()).isEqualTo(2);
    }

    @Test
    void aNoOpFixTwiceEscalates() {
        // given the fixer returns the text unchanged, also on the fresh retry
        ScriptedPanel panel = new ScriptedPanel().reviewer("B", ALL, naughty()).reviewer("C", ALL, pass());
        ScriptedFixer fixer = new ScriptedFixer(new FixOutcome.Fixed(ORIGINAL), new FixOutcome.Fixed(ORIGINAL));

        // when
        SantaResult result = processor(panel, fixer).process("item-1", ORIGINAL, SOURCE);

        // then
        assertThat(result.outcome()).isEqualTo(SantaOutcome.ESCALATED);
        assertThat(result.reason()).isEqualTo(SantaReason.FIX_UNCHANGED);
        assertThat(fixer.calls).hasValue(2);
        // the second call is announced as an answer retry, after the first (for the report's counts)
        assertThat(fixer.retryingAt).containsExactly(1);
        assertThat(result.fixes()).isZero();
        assertThat(result.reviewsToNice()).isEqualTo(1);
        assertThat(result.finalText()).isEqualTo(ORIGINAL);
        assertThat(result.openIssues()).hasSize(1);
    }

    @Test
    void aFixThatDiffersFromItsInputOnlyInSurroundingWhitespaceIsUnchanged() {
        // given content with leading and trailing whitespace, and a fixer that returns it stripped
        // (as a model fixer's answer is), also on the fresh retry
        String padded = "  " + ORIGINAL + "\n";
        ScriptedPanel panel = new ScriptedPanel().reviewer("B", ALL, naughty(), pass()).reviewer("C", ALL, pass(), pass());
        ScriptedFixer fixer = new ScriptedFixer(new FixOutcome.Fixed(ORIGINAL), new FixOutcome.Fixed(ORIGINAL + " "));

        // when
        SantaResult result = processor(panel, fixer).process("item-1", padded, SOURCE);

        // then it is no fix: not stored, not reviewed again, escalated as unchanged
        assertThat(result.outcome()).isEqualTo(SantaOutcome.ESCALATED);
        assertThat(result.reason()).isEqualTo(SantaReason.FIX_UNCHANGED);
        assertThat(fixer.calls).hasValue(2);
        assertThat(result.revisions()).isEmpty();
        assertThat(result.reviewsToNice()).isEqualTo(1);
    }

    @Test
    void unchangedComparesTextWithoutSurroundingWhitespace() {
        assertThat(FixOutcome.unchanged("A kettle.", " A kettle.\n")).isTrue();
        assertThat(FixOutcome.unchanged("\tA kettle. ", "A kettle.")).isTrue();
        assertThat(FixOutcome.unchanged("A kettle!", " A kettle.\n")).isFalse();
        assertThat(FixOutcome.unchanged("A  kettle.", "A kettle.")).as("inner whitespace is text").isFalse();
    }

    @Test
    void anEmptyFixIsRetriedOnceAsAFreshCallThenSucceeds() {
        // given
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, naughty(), pass())
                .reviewer("C", ALL, pass(), pass());
        ScriptedFixer fixer = new ScriptedFixer(new FixOutcome.Fixed("  \n"), new FixOutcome.Fixed("fixed text"));

        // when
        SantaResult result = processor(panel, fixer).process("item-1", ORIGINAL, SOURCE);

        // then
        assertThat(result.outcome()).isEqualTo(SantaOutcome.NICE);
        assertThat(fixer.calls).hasValue(2);
        assertThat(fixer.requests.get(1)).isEqualTo(fixer.requests.get(0));
        assertThat(result.revisions()).singleElement().satisfies(r -> {
            assertThat(r.attempts()).isEqualTo(2);
            assertThat(r.after()).isEqualTo("fixed text");
        });
    }

    @Test
    void aTruncatedFixTwiceEscalates() {
        // given
        ScriptedPanel panel = new ScriptedPanel().reviewer("B", ALL, naughty()).reviewer("C", ALL, pass());
        ScriptedFixer fixer = new ScriptedFixer(new FixOutcome.Fixed("A sturdy ket", true), new FixOutcome.Fixed("A st", true));

        // when
        SantaResult result = processor(panel, fixer).process("item-1", ORIGINAL, SOURCE);

        // then
        assertThat(result.outcome()).isEqualTo(SantaOutcome.ESCALATED);
        assertThat(result.reason()).isEqualTo(SantaReason.FIX_TRUNCATED);
        assertThat(result.rejectedFix()).isEqualTo("A st");
    }

    @Test
    void aRuleBreakingFixEscalatesAndIsNotShipped() {
        // given the fix introduces a forbidden term
        ScriptedPanel panel = new ScriptedPanel().reviewer("B", ALL, naughty()).reviewer("C", ALL, pass());
        ScriptedFixer fixer = new ScriptedFixer(new FixOutcome.Fixed("The best-in-class kettle, 2-year warranty."));
        RevisionCheck rules = (content, source) ->
                content.contains("best-in-class") ? List.of("forbidden-terms: 'best-in-class'") : List.of();

        // when
        SantaResult result = processor(panel, fixer, rules, 3).process("item-1", ORIGINAL, SOURCE);

        // then
        assertThat(result.outcome()).isEqualTo(SantaOutcome.ESCALATED);
        assertThat(result.reason()).isEqualTo(SantaReason.FIX_BREAKS_RULES);
        assertThat(result.ruleViolations()).containsExactly("forbidden-terms: 'best-in-class'");
        assertThat(result.rejectedFix()).isEqualTo("The best-in-class kettle, 2-year warranty.");
        assertThat(result.finalText()).isEqualTo(ORIGINAL);
        assertThat(result.revisions()).isEmpty();
        assertThat(result.reviewsToNice()).isEqualTo(1);
        assertThat(fixer.calls).hasValue(1);
    }

    @Test
    void reviewersReceiveIdenticalImmutableInputsAndFreshInstancesEachRound() {
        // given
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, naughty(), pass())
                .reviewer("C", ALL, pass(), pass());

        // when
        processor(panel, new ScriptedFixer(fixes(1))).process("item-1", ORIGINAL, SOURCE);

        // then every round has new instances, each called once
        List<ScriptedReviewer> instances = panel.allInstances();
        assertThat(panel.panels).hasSize(2);
        assertThat(instances).hasSize(4);
        Set<ScriptedReviewer> distinct = Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        distinct.addAll(instances);
        assertThat(distinct).hasSize(4);
        assertThat(instances).allSatisfy(r -> assertThat(r.requests).hasSize(1));
        // B and C of one round got equal inputs: spec, item, source, content, rubric
        for (List<ScriptedReviewer> round : panel.panels) {
            ReviewRequest b = round.get(0).requests.get(0);
            ReviewRequest c = round.get(1).requests.get(0);
            assertThat(b).isEqualTo(c);
        }
        ReviewRequest first = panel.panels.get(0).get(0).requests.get(0);
        assertThat(first.content()).isEqualTo(ORIGINAL);
        assertThat(first.itemId()).isEqualTo("item-1");
        assertThat(first.source()).isEqualTo(SOURCE);
        assertThat(first.criterionIds()).isEqualTo(CRITERIA);
        assertThat(panel.panels.get(1).get(0).requests.get(0).content()).isEqualTo("fix 1");
        // and nothing in it can be changed by one reviewer under another's feet
        assertThatThrownBy(() -> first.source().put("warranty_years", "5")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> first.rubric().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void theRequestIsACopyOfTheCallersMutableSource() {
        // given
        Map<String, String> mutable = new LinkedHashMap<>(SOURCE);
        ReviewRequest request = new ReviewRequest("spec", "item-1", mutable, ORIGINAL, ReviewFixtures.criteria("accuracy"));

        // when
        mutable.put("warranty_years", "9");

        // then
        assertThat(request.source()).containsEntry("warranty_years", "2");
    }

    @Test
    void reviewersRunInParallel() {
        // given B and C each wait for the other inside review(): only parallel calls can both finish
        CyclicBarrier barrier = new CyclicBarrier(2);
        Reviewer b = waitingReviewer("B", barrier);
        Reviewer c = waitingReviewer("C", barrier);
        Panel panel = new Panel(executor, new ReviewValidator());
        ReviewRequest request = new ReviewRequest("spec", "item-1", SOURCE, ORIGINAL, ReviewFixtures.criteria("accuracy", "compliance"));

        // when
        List<PanelReview> reviews = panel.review(List.of(b, c), request);

        // then
        assertThat(reviews).extracting(PanelReview::reviewerId).containsExactly("B", "C");
        assertThat(reviews).allSatisfy(r -> assertThat(r.outcome()).isInstanceOf(ReviewOutcome.Reviewed.class));
    }

    private static Reviewer waitingReviewer(String id, CyclicBarrier barrier) {
        return ReviewFixtures.answering(id, ALL, () -> {
            try {
                barrier.await(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("reviewers did not run in parallel", e);
            }
            return pass();
        });
    }

    @Test
    void aFailedToReviewReviewerLeavesTheItemUnreviewedAndTheFixerIsNeverCalled() {
        // given B cannot review the item and C passes it
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, ReviewFixtures.transportFailure())
                .reviewer("C", ALL, pass());
        ScriptedFixer fixer = new ScriptedFixer();

        // when
        SantaResult result = processor(panel, fixer).process("item-1", ORIGINAL, SOURCE);

        // then
        assertThat(result.outcome()).isEqualTo(SantaOutcome.UNREVIEWED);
        assertThat(result.reason()).isEqualTo(SantaReason.REVIEWER_FAILED);
        assertThat(fixer.calls).hasValue(0);
        assertThat(result.openIssues()).isEmpty();
        assertThat(result.reviews()).extracting(ReviewRecord::outcome)
                .containsExactly(ReviewRecord.Kind.TRANSPORT, ReviewRecord.Kind.REVIEWED);
        // the operator is told who failed and why (for a model: endpoint, attempts, last error)
        assertThat(result.reasonDetail()).isEqualTo("failed to review: B: connection reset");
    }

    @Test
    void aFailFromOneReviewerIsFixedWhenTheOtherFailedToReview() {
        // given C fails the item while B cannot review it; after the fix both pass
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, ReviewFixtures.transportFailure(), pass())
                .reviewer("C", ALL, naughty(), pass());
        ScriptedFixer fixer = new ScriptedFixer(fixes(1));

        // when
        SantaResult result = processor(panel, fixer).process("item-1", ORIGINAL, SOURCE);

        // then the FAIL is not outvoted: fixed for C's issues, reviewed afresh by both, NICE
        assertThat(fixer.calls).hasValue(1);
        assertThat(result.outcome()).isEqualTo(SantaOutcome.NICE);
        assertThat(result.fixes()).isEqualTo(1);
        assertThat(result.reviewsToNice()).isEqualTo(2);
        assertThat(result.firstIssues()).isNotEmpty()
                .allSatisfy(i -> assertThat(i.flaggedBy()).containsExactly("C"));
    }

    @Test
    void aFailedToReviewInALaterIterationAlsoLeavesTheItemUnreviewed() {
        // given
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, naughty(), pass())
                .reviewer("C", ALL, pass(), ReviewFixtures.transportFailure());

        // when
        SantaResult result = processor(panel, new ScriptedFixer(fixes(1))).process("item-1", ORIGINAL, SOURCE);

        // then
        assertThat(result.outcome()).isEqualTo(SantaOutcome.UNREVIEWED);
        assertThat(result.fixes()).isEqualTo(1);
        assertThat(result.reviewsToNice()).isEqualTo(2);
        assertThat(result.reasonDetail()).isEqualTo("failed to review: C: connection reset");
    }

    @Test
    void aFixerTransportFailureLeavesTheItemUnreviewed() {
        // given
        ScriptedPanel panel = new ScriptedPanel().reviewer("B", ALL, naughty()).reviewer("C", ALL, pass());
        ScriptedFixer fixer = new ScriptedFixer(new FixOutcome.FailedToFix(FixOutcome.FailureKind.TRANSPORT, "503"));

        // when
        SantaResult result = processor(panel, fixer).process("item-1", ORIGINAL, SOURCE);

        // then
        assertThat(result.outcome()).isEqualTo(SantaOutcome.UNREVIEWED);
        assertThat(result.reason()).isEqualTo(SantaReason.FIXER_FAILED);
        assertThat(fixer.calls).hasValue(1);
    }

    @Test
    void anInvalidAnswerIsRetriedOnceAsAFreshCall() {
        // given B's first answer contradicts itself (PASS with a failed check), its second is valid
        AtomicInteger calls = new AtomicInteger();
        List<String> answers = List.of(
                "{\"verdict\":\"PASS\",\"checks\":[{\"criterion\":\"accuracy\",\"result\":\"FAIL\"},"
                        + "{\"criterion\":\"compliance\",\"result\":\"PASS\"}],\"critical_issues\":[\"accuracy: x\"]}",
                passAll(CRITERIA).toJson());
        ReviewerFactory panel = () -> List.of(
                new ValidatingReviewer("B", ALL, request -> answers.get(calls.getAndIncrement())),
                new ValidatingReviewer("C", ALL, request -> passAll(CRITERIA).toJson()));

        // when
        SantaResult result = processor(panel, new ScriptedFixer()).process("item-1", ORIGINAL, SOURCE);

        // then
        assertThat(calls).hasValue(2);
        assertThat(result.outcome()).isEqualTo(SantaOutcome.NICE);
    }

    @Test
    void anInvalidAnswerTwiceIsAFailureToReview() {
        // given B answers prose twice
        AtomicInteger calls = new AtomicInteger();
        ValidatingReviewer b = new ValidatingReviewer("B", ALL, request -> {
            calls.incrementAndGet();
            return "Looks good to me!";
        });
        ReviewRequest request = new ReviewRequest("spec", "item-1", SOURCE, ORIGINAL, ReviewFixtures.criteria("accuracy", "compliance"));

        // when
        ReviewOutcome outcome = b.review(request);

        // then
        assertThat(calls).hasValue(2);
        assertThat(outcome).isInstanceOfSatisfying(ReviewOutcome.FailedToReview.class, f -> {
            assertThat(f.kind()).isEqualTo(ReviewOutcome.FailureKind.INVALID_ANSWER);
            assertThat(f.invalidKind()).isEqualTo(InvalidReviewKind.MALFORMED);
        });
    }

    @Test
    void aTransportFailureIsNotRetriedByTheReviewer() {
        // given
        AtomicInteger calls = new AtomicInteger();
        ValidatingReviewer b = new ValidatingReviewer("B", ALL, request -> {
            calls.incrementAndGet();
            throw new ReviewTransportException("timeout after 3 attempts");
        });

        // when
        ReviewOutcome outcome = b.review(new ReviewRequest("spec", "i", SOURCE, ORIGINAL, ReviewFixtures.criteria("accuracy")));

        // then
        assertThat(calls).hasValue(1);
        assertThat(outcome).isEqualTo(new ReviewOutcome.FailedToReview(ReviewOutcome.FailureKind.TRANSPORT, "timeout after 3 attempts"));
    }

    @Test
    void reattributedAndDerivedIssuesAreCountedInTheRecord() {
        // given B's issue has no criterion prefix and its second failed check no issue
        Review seedShape = new Review(Verdict.FAIL,
                List.of(new Check("accuracy", CheckResult.FAIL, "warranty wrong"),
                        new Check("compliance", CheckResult.FAIL, "uses cheap")),
                List.of("the warranty is wrong"), List.of());
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, reviewed(seedShape), pass())
                .reviewer("C", ALL, pass(), pass());

        // when
        SantaResult result = processor(panel, new ScriptedFixer(fixes(1))).process("item-1", ORIGINAL, SOURCE);

        // then
        assertThat(result.reviews().get(0).reattributedIssues()).isEqualTo(1);
        assertThat(result.reviews().get(0).derivedIssues()).isEqualTo(1);
        assertThat(result.reviews().get(0).criticalIssues()).containsExactly("accuracy: the warranty is wrong", "compliance: uses cheap");
        assertThat(result.revisions().get(0).issues()).containsExactly("accuracy: the warranty is wrong", "compliance: uses cheap");
    }

    @Test
    void theSameIssueFromBAndCReachesTheFixerOnce() {
        // given
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, naughty(), pass())
                .reviewer("C", ALL, reviewed(failOn(CRITERIA, "accuracy",
                        "Accuracy: states a 3-year warranty; the source says 2!")), pass());
        ScriptedFixer fixer = new ScriptedFixer(fixes(1));

        // when
        processor(panel, fixer).process("item-1", ORIGINAL, SOURCE);

        // then
        assertThat(fixer.requests.get(0).criticalIssues()).hasSize(1);
    }

    @Test
    void aConfigurationErrorPropagates() {
        // given
        ReviewerFactory panel = () -> List.of(
                new ValidatingReviewer("B", ALL, request -> {
                    throw new ConfigurationException("401 Unauthorized: check OPENAI_API_KEY");
                }),
                new ValidatingReviewer("C", ALL, request -> passAll(CRITERIA).toJson()));

        // when / then
        assertThatThrownBy(() -> processor(panel, new ScriptedFixer()).process("item-1", ORIGINAL, SOURCE))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("401");
    }

    @Test
    void aReviewerReturningAnInvalidReviewIsCaughtByThePanel() {
        // given a Reviewer implementation that skips validation and omits a check
        Review missing = new Review(Verdict.PASS, List.of(new Check("accuracy", CheckResult.PASS, "")), List.of(), List.of());
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, new ReviewOutcome.Reviewed(missing, Duration.ZERO))
                .reviewer("C", ALL, pass());

        // when
        SantaResult result = processor(panel, new ScriptedFixer()).process("item-1", ORIGINAL, SOURCE);

        // then
        assertThat(result.outcome()).isEqualTo(SantaOutcome.UNREVIEWED);
        assertThat(result.reviews().get(0).invalidKind()).isEqualTo(InvalidReviewKind.MISSING_CHECK);
    }

    @Test
    void aStoredReviewOfTheSameTextIsReusedAndTheReviewsAfterAFixAreFresh() {
        // given B's review of the original text stored earlier (naughty), C without one
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, pass() /* never played: B is not called in review 0 */, pass())
                .reviewer("C", ALL, pass(), pass());
        ScriptedFixer fixer = new ScriptedFixer(fixes(1));
        Review storedB = failOn(CRITERIA, "accuracy", "accuracy: states a 3-year warranty, the source says 2");

        // when
        SantaResult result = processor(panel, fixer).process("item-1", ORIGINAL, SOURCE, Map.of("B", storedB));

        // then B was not called for the original text, C was; both were called, fresh, after the fix
        List<ScriptedReviewer> review0 = panel.panels.get(0);
        assertThat(review0.get(0).requests).isEmpty();
        assertThat(review0.get(1).requests).hasSize(1);
        List<ScriptedReviewer> review1 = panel.panels.get(1);
        assertThat(review1).allSatisfy(r -> assertThat(r.requests).singleElement()
                .satisfies(q -> assertThat(q.content()).isEqualTo("fix 1")));
        // the stored review decided review 0: its issue went to the fixer
        assertThat(fixer.requests.get(0).criticalIssues())
                .containsExactly("accuracy: states a 3-year warranty, the source says 2");
        assertThat(result.outcome()).isEqualTo(SantaOutcome.NICE);
        assertThat(result.reviewsToNice()).isEqualTo(2);
        assertThat(result.reviews()).extracting(ReviewRecord::reviewerId, ReviewRecord::iteration, ReviewRecord::reused)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("B", 0, true),
                        org.assertj.core.groups.Tuple.tuple("C", 0, false),
                        org.assertj.core.groups.Tuple.tuple("B", 1, false),
                        org.assertj.core.groups.Tuple.tuple("C", 1, false));
        assertThat(result.reviews().get(0).verdict()).isEqualTo(Verdict.FAIL);
    }

    @Test
    void everyReviewerWithAStoredReviewIsReusedSoNoneIsCalled() {
        // given both reviews stored, both passing
        ScriptedPanel panel = new ScriptedPanel().reviewer("B", ALL, pass()).reviewer("C", ALL, pass());

        // when
        SantaResult result = processor(panel, new ScriptedFixer()).process("item-1", ORIGINAL, SOURCE,
                Map.of("B", passAll(CRITERIA), "C", passAll(CRITERIA)));

        // then
        assertThat(panel.allInstances()).allSatisfy(r -> assertThat(r.requests).isEmpty());
        assertThat(result.niceOnFirstReview()).isTrue();
        assertThat(result.reviews()).allSatisfy(r -> assertThat(r.reused()).isTrue());
    }

    @Test
    void aStoredReviewThatNoLongerValidatesIsNotReused() {
        // given a stored review of B missing a criterion's check
        Review missing = new Review(Verdict.PASS, List.of(new Check("accuracy", CheckResult.PASS, "")), List.of(), List.of());
        ScriptedPanel panel = new ScriptedPanel().reviewer("B", ALL, pass()).reviewer("C", ALL, pass());

        // when
        SantaResult result = processor(panel, new ScriptedFixer()).process("item-1", ORIGINAL, SOURCE, Map.of("B", missing));

        // then B is called
        assertThat(panel.allInstances()).allSatisfy(r -> assertThat(r.requests).hasSize(1));
        assertThat(result.reviews()).noneSatisfy(r -> assertThat(r.reused()).isTrue());
    }

    @Test
    void aFixerWithNoFixEscalatesWithReasonNoFixAndIsNotAskedAgain() {
        // given a naughty item and a fixer that has no fix for it
        ScriptedPanel panel = new ScriptedPanel().reviewer("B", ALL, naughty()).reviewer("C", ALL, pass());
        ScriptedFixer fixer = new ScriptedFixer(new FixOutcome.CannotFix("no offline fix: the reviewers disagree"));

        // when
        SantaResult result = processor(panel, fixer).process("item-1", ORIGINAL, SOURCE);

        // then it is held as having no fix, not as a fix that returned its input
        assertThat(result.outcome()).isEqualTo(SantaOutcome.ESCALATED);
        assertThat(result.reason()).isEqualTo(SantaReason.NO_FIX);
        assertThat(result.reasonDetail()).isEqualTo("no fix: no offline fix: the reviewers disagree");
        assertThat(result.rejectedFix()).isNull();
        assertThat(result.openIssues()).extracting(MergedIssue::text)
                .containsExactly("accuracy: states a 3-year warranty, the source says 2");
        assertThat(fixer.calls).hasValue(1);
        assertThat(result.fixes()).isZero();
    }

    static final String STANDING = "accuracy: states a 3-year warranty, the source says 2";

    @Test
    void aFlaggedTextThePanelPassesIsFixedForTheStandingFailAndReviewedAfresh() {
        // given a text C failed outside this review (a flag), which both reviewers now pass
        ScriptedPanel panel = new ScriptedPanel().reviewer("B", ALL, passes(2)).reviewer("C", ALL, passes(2));
        ScriptedFixer fixer = new ScriptedFixer(fixes(1));

        // when
        SantaResult result = processor(panel, fixer).process("item-1", ORIGINAL, SOURCE, Map.of(), List.of("C: " + STANDING));

        // then the FAIL stands: fixed for its issue, the fix reviewed afresh by both, NICE after one fix
        assertThat(fixer.requests).singleElement()
                .satisfies(r -> assertThat(r.criticalIssues()).containsExactly(STANDING));
        assertThat(result.outcome()).isEqualTo(SantaOutcome.NICE);
        assertThat(result.fixes()).isEqualTo(1);
        assertThat(result.reviewsToNice()).isEqualTo(2);
        assertThat(result.niceOnFirstReview()).isFalse();
        assertThat(result.reviews()).extracting(ReviewRecord::reviewerId, ReviewRecord::iteration).containsExactly(
                org.assertj.core.groups.Tuple.tuple("B", 0), org.assertj.core.groups.Tuple.tuple("C", 0),
                org.assertj.core.groups.Tuple.tuple("B", 1), org.assertj.core.groups.Tuple.tuple("C", 1));
        assertThat(result.revisions().get(0).issues()).containsExactly(STANDING);
        assertThat(result.firstIssues()).as("review 0's own issues, for patterns and agreement").isEmpty();
    }

    @Test
    void theStandingIssuesJoinReview0sOwnEachOnce() {
        // given B raises the standing issue again (in other words) and one of its own
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, reviewed(new Review(Verdict.FAIL, List.of(new Check("accuracy", CheckResult.FAIL, ""),
                        new Check("compliance", CheckResult.FAIL, "")), List.of("Accuracy: states a 3-year warranty; the source says 2!",
                        "compliance: uses cheap"), List.of())), pass())
                .reviewer("C", ALL, pass(), pass());
        ScriptedFixer fixer = new ScriptedFixer(fixes(1));

        // when
        processor(panel, fixer).process("item-1", ORIGINAL, SOURCE, Map.of(),
                List.of("C: " + STANDING, "B,C: compliance: calls it a miracle kettle"));

        // then
        assertThat(fixer.requests.get(0).criticalIssues()).containsExactly(
                "Accuracy: states a 3-year warranty; the source says 2!", "compliance: uses cheap",
                "compliance: calls it a miracle kettle");
    }

    @Test
    void aFlaggedTextStillFailingAfterTheLastFixIsEscalated() {
        // given both reviewers pass the flagged text, and B fails every fix
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, pass(), naughty(), naughty(), naughty())
                .reviewer("C", ALL, passes(4));
        ScriptedFixer fixer = new ScriptedFixer(fixes(3));

        // when
        SantaResult result = processor(panel, fixer).process("item-1", ORIGINAL, SOURCE, Map.of(), List.of("C: " + STANDING));

        // then the standing FAIL's fix counts as an iteration: three fixes, then escalated
        assertThat(result.outcome()).isEqualTo(SantaOutcome.ESCALATED);
        assertThat(result.reason()).isEqualTo(SantaReason.STILL_NAUGHTY);
        assertThat(fixer.calls).hasValue(3);
        assertThat(result.reviewsToNice()).isEqualTo(4);
    }

    @Test
    void aFlaggedTextIsFixedWhenAReviewerFailsToReviewIt() {
        // given B cannot review the flagged text, C passes it; both pass the fix
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, ReviewFixtures.transportFailure(), pass())
                .reviewer("C", ALL, pass(), pass());
        ScriptedFixer fixer = new ScriptedFixer(fixes(1));

        // when
        SantaResult result = processor(panel, fixer).process("item-1", ORIGINAL, SOURCE, Map.of(), List.of("C: " + STANDING));

        // then, as for a FAIL in the review itself, the FAIL is not outvoted by a failure to review
        assertThat(fixer.calls).hasValue(1);
        assertThat(result.outcome()).isEqualTo(SantaOutcome.NICE);
        assertThat(result.fixes()).isEqualTo(1);
    }
}
