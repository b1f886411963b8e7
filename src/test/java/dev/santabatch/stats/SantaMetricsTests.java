package dev.santabatch.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.santabatch.review.SantaOutcome;
import dev.santabatch.review.SantaReason;
import dev.santabatch.stats.SantaMetrics.ItemOutcome;
import dev.santabatch.stats.SeedTargets.Status;
import dev.santabatch.stats.SeedTargets.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class SantaMetricsTests {

    static List<ItemOutcome> round() {
        List<ItemOutcome> items = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            items.add(new ItemOutcome(SantaOutcome.NICE, null, 1, 0, false)); // nice on the first review
        }
        items.add(new ItemOutcome(SantaOutcome.NICE, null, 2, 1, false));
        items.add(new ItemOutcome(SantaOutcome.NICE, null, 2, 1, false));
        items.add(new ItemOutcome(SantaOutcome.NICE, null, 3, 2, false));
        items.add(new ItemOutcome(SantaOutcome.ESCALATED, SantaReason.STILL_NAUGHTY, 4, 3, false));
        // a reviewer failed in review 0: the panel review was attempted (1) but never completed
        items.add(new ItemOutcome(SantaOutcome.UNREVIEWED, SantaReason.REVIEWER_FAILED, 1, 0, false));
        // a reviewer failed in review 1, after a completed review 0 and a fix: reviewed
        items.add(new ItemOutcome(SantaOutcome.UNREVIEWED, SantaReason.REVIEWER_FAILED, 2, 1, false));
        items.add(new ItemOutcome(SantaOutcome.UNREVIEWED, SantaReason.FIXER_FAILED, 1, 0, false)); // reviewed once
        return items;
    }

    @Test
    void firstPassRateAndMeanReviewsToNice() {
        SantaMetrics m = SantaMetrics.of(round());
        assertThat(m.sampled()).isEqualTo(14);
        assertThat(m.reviewed()).isEqualTo(13); // the item whose review 0 failed was not reviewed
        assertThat(m.niceFirstReview()).isEqualTo(7);
        // first-pass rate = 7 / 13
        assertThat(m.firstPassRate().getAsDouble()).isCloseTo(7.0 / 13, within(1e-12));
        // mean reviews to NICE = (7*1 + 2 + 2 + 3) / 10 = 1.4
        assertThat(m.nice()).isEqualTo(10);
        assertThat(m.meanReviewsToNice().getAsDouble()).isCloseTo(1.4, within(1e-12));
        // reviewed items: reviews (7 + 2 + 2 + 3 + 4 + 2 + 1) / 13, fixes (0 + 1 + 1 + 2 + 3 + 1 + 0) / 13
        assertThat(m.meanReviewsPerItem().getAsDouble()).isCloseTo(21.0 / 13, within(1e-12));
        assertThat(m.meanFixesPerItem().getAsDouble()).isCloseTo(8.0 / 13, within(1e-12));
        assertThat(m.escalated()).isEqualTo(1);
        assertThat(m.unreviewed()).isEqualTo(3);
        assertThat(m.escalationsByReason()).isEqualTo(Map.of("STILL_NAUGHTY", 1L));
    }

    @Test
    void emptyMetricsHaveNoRatios() {
        SantaMetrics none = SantaMetrics.of(List.of());
        assertThat(none.firstPassRate()).isEmpty();
        assertThat(none.meanReviewsToNice()).isEmpty();
        SantaMetrics noRun = SantaMetrics.ofRun(List.of());
        assertThat(noRun.firstPassRate()).isEmpty();
        assertThat(noRun.meanReviewsToNice()).isEmpty();
    }

    @Test
    void anItemFailedOutsideItsOwnReviewIsNotNiceOnFirstReview() {
        // a NICE item without a fix that a clean canary's review failed (flagged) is not a first pass
        SantaMetrics m = SantaMetrics.of(List.of(new ItemOutcome(SantaOutcome.NICE, null, 1, 0, false),
                new ItemOutcome(SantaOutcome.NICE, null, 1, 0, true)));

        assertThat(m.niceFirstReview()).isEqualTo(1);
        assertThat(m.firstPassRate().getAsDouble()).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void theRunCountsAnItemSampledInSeveralRoundsOnce() {
        ItemOutcome niceFirst = new ItemOutcome(SantaOutcome.NICE, null, 1, 0, false);
        ItemOutcome niceAfterFix = new ItemOutcome(SantaOutcome.NICE, null, 2, 1, false);
        ItemOutcome failedInReview0 = new ItemOutcome(SantaOutcome.UNREVIEWED, SantaReason.REVIEWER_FAILED, 1, 0, false);
        ItemOutcome failedInReview1 = new ItemOutcome(SantaOutcome.UNREVIEWED, SantaReason.REVIEWER_FAILED, 2, 1, false);
        ItemOutcome fixerFailed = new ItemOutcome(SantaOutcome.UNREVIEWED, SantaReason.FIXER_FAILED, 1, 0, false);
        ItemOutcome escalated = new ItemOutcome(SantaOutcome.ESCALATED, SantaReason.STILL_NAUGHTY, 4, 3, false);
        List<List<ItemOutcome>> histories = List.of(
                List.of(niceFirst), // A: reviewed, NICE first
                List.of(failedInReview0, niceFirst), // B: first completed review in round 2, NICE: first pass
                List.of(failedInReview1, niceAfterFix), // C: first review (round 1) was naughty
                List.of(fixerFailed, escalated), // D: first review naughty, then escalated
                List.of(failedInReview0, failedInReview0), // E: never reviewed, still unreviewed
                List.of(niceAfterFix)); // F

        SantaMetrics run = SantaMetrics.ofRun(histories);

        // 6 items (10 sampled rows); reviewed: A B C D F = 5; NICE on first review: A B = 2
        assertThat(run.sampled()).isEqualTo(6);
        assertThat(run.reviewed()).isEqualTo(5);
        assertThat(run.niceFirstReview()).isEqualTo(2);
        assertThat(run.firstPassRate().getAsDouble()).isCloseTo(2.0 / 5, within(1e-12));
        // NICE: A B C F, reviews to NICE 1 + 1 + 2 + 2 = 6 -> 1.5
        assertThat(run.nice()).isEqualTo(4);
        assertThat(run.meanReviewsToNice().getAsDouble()).isCloseTo(1.5, within(1e-12));
        // the attempt that counted per reviewed item: reviews 1 + 1 + 2 + 4 + 2 = 10, fixes 0 + 0 + 1 + 3 + 1 = 5
        assertThat(run.meanReviewsPerItem().getAsDouble()).isCloseTo(2.0, within(1e-12));
        assertThat(run.meanFixesPerItem().getAsDouble()).isCloseTo(1.0, within(1e-12));
        assertThat(run.escalated()).isEqualTo(1);
        assertThat(run.escalationsByReason()).isEqualTo(Map.of("STILL_NAUGHTY", 1L));
        assertThat(run.unreviewed()).isEqualTo(1);
        // summing the rounds instead would count B twice: round 2's NICE and round 1's attempt
        List<ItemOutcome> flat = histories.stream().flatMap(List::stream).toList();
        assertThat(SantaMetrics.of(flat).reviewed()).isEqualTo(7);
    }

    @Test
    void seedTargetsBesideMeasuredValues() {
        List<Target> t = SeedTargets.of(SantaMetrics.of(round()), OptionalDouble.empty());
        assertThat(t).extracting(Target::metric)
                .containsExactly("first-pass-rate", "mean-reviews-to-nice", "escape-rate");
        assertThat(t).extracting(Target::status).containsExactly(Status.MISSED, Status.MET, Status.NOT_MEASURED);
        assertThat(t.get(0).target()).isEqualTo("> 70 %");
        assertThat(SeedTargets.of(SantaMetrics.of(round()), OptionalDouble.of(0)).get(2).status()).isEqualTo(Status.MET);
        assertThat(SeedTargets.of(SantaMetrics.of(round()), OptionalDouble.of(0.05)).get(2).status())
                .isEqualTo(Status.MISSED);
        // exactly 70 % is not above 70 %
        List<ItemOutcome> seventy = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            seventy.add(i < 7 ? new ItemOutcome(SantaOutcome.NICE, null, 1, 0, false)
                    : new ItemOutcome(SantaOutcome.NICE, null, 2, 1, false));
        }
        assertThat(SeedTargets.of(SantaMetrics.of(seventy), OptionalDouble.empty()).get(0).status())
                .isEqualTo(Status.MISSED);
    }

    @Test
    void costSharesBothWays() {
        // N = 1000, r = 2, R̄ = 1.3, F̄ = 0.3; reviewers 260 calls x 500 tokens, fixer 30 x 800, matcher 20 calls 10,000 tokens
        CostShares c = CostShares.of(1000, 2, 1.3, 0.3,
                new Usage(260, 130_000), new Usage(30, 24_000), new Usage(20, 10_000));
        assertThat(c.actual()).isEqualTo(new Usage(310, 164_000));
        // review once: 2,000 calls, 1,000,000 tokens
        assertThat(c.reviewOnceCalls()).isCloseTo(2000, within(1e-9));
        assertThat(c.shareOfReviewOnceCalls().getAsDouble()).isCloseTo(0.155, within(1e-12));
        assertThat(c.shareOfReviewOnceTokens().getAsDouble()).isCloseTo(0.164, within(1e-12));
        // full Santa: 1000*2*1.3 + 1000*0.3 = 2,900 calls; 1000*2*1.3*500 + 1000*0.3*800 = 1,540,000 tokens
        assertThat(c.fullSantaCalls()).isCloseTo(2900, within(1e-9));
        assertThat(c.fullSantaTokens()).isCloseTo(1_540_000, within(1e-6));
        assertThat(c.shareOfFullSantaCalls().getAsDouble()).isCloseTo(310.0 / 2900, within(1e-12));
        assertThat(c.shareOfFullSantaTokens().getAsDouble()).isCloseTo(164_000.0 / 1_540_000, within(1e-12));
    }

    @Test
    void costSharesWithoutModelCallsAreUndefinedInTokens() {
        CostShares offline = CostShares.of(1000, 2, 1.0, 0, Usage.NONE, Usage.NONE, Usage.NONE);
        assertThat(offline.shareOfReviewOnceCalls().getAsDouble()).isZero();
        assertThat(offline.shareOfReviewOnceTokens()).isEmpty();
        assertThat(offline.shareOfFullSantaTokens()).isEmpty();
        assertThat(CostShares.of(0, 2, 1, 0, Usage.NONE, Usage.NONE, Usage.NONE).shareOfReviewOnceCalls()).isEmpty();
    }
}
