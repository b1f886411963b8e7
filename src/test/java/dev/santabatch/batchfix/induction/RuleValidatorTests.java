package dev.santabatch.batchfix.induction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RuleValidatorTests {

    private static final List<AcceptedFix> REMOVALS = List.of(
            RuleInducerTests.fix("a", "A fine chair. Stocks are limited, order today! Oak legs.", "A fine chair. Oak legs.", Map.of()),
            RuleInducerTests.fix("b", "Soft rug. Woven wool. Stocks are limited.", "Soft rug. Woven wool.", Map.of()),
            RuleInducerTests.fix("c", "Stocks are limited this week. Tall vase.", "Tall vase.", Map.of()),
            RuleInducerTests.fix("d", "Green mug. Stocks are limited!", "Green mug.", Map.of()));

    private static LearnedRule induced(PatternEvidence p) {
        return RuleInducer.induce("learned-1", p, 2).orElseThrow();
    }

    private static List<PassedItem> catalog(int clean, int defective) {
        List<PassedItem> out = new ArrayList<>();
        for (int i = 0; i < clean; i++) {
            out.add(new PassedItem("c" + i, "A plain item number " + i + ".", Map.of()));
        }
        for (int i = 0; i < defective; i++) {
            out.add(new PassedItem("d" + i, "A plain item. Stocks are limited.", Map.of()));
        }
        return out;
    }

    @Test
    void aWellSupportedRuleWithinTheCapPasses() {
        PatternEvidence p = RuleInducerTests.pattern(REMOVALS, List.of());
        RuleValidator.Screening s = RuleValidator.screen(induced(p), p, 2, 40, catalog(300, 30));

        assertThat(s.rejection()).isNull();
        assertThat(s.support()).isEqualTo(4);
        assertThat(s.looRecall()).isEqualTo(1.0);
        assertThat(s.flagged()).hasSize(30).allMatch(id -> id.startsWith("d"));
        assertThat(s.reviewSample()).hasSize(RuleValidator.REVIEW_CHECK_SIZE);
    }

    @Test
    void fewerThanThreeSupportingItemsReject() {
        PatternEvidence p = RuleInducerTests.pattern(REMOVALS.subList(0, 2), List.of());
        RuleValidator.Screening s = RuleValidator.screen(induced(p), p, 2, 40, catalog(10, 0));

        assertThat(s.rejection()).startsWith("support 2 < 3");
    }

    @Test
    void aRuleThatFlagsAPassedSampledItemIsRejected() {
        // the phrase is in every removed sentence, and also in a sampled item both reviewers passed
        // in a form the inducer did not see (inflected): the rule flags it, and its evidence (a term)
        // cannot be checked against the item's source
        PassedItem passed = new PassedItem("ok", "A lamp. Stock is limited, says the maker.", Map.of());
        PatternEvidence p = RuleInducerTests.pattern(REMOVALS, List.of(passed));
        LearnedRule rule = new LearnedRule("accuracy", Shape.SENTENCE_REMOVED,
                new dev.santabatch.config.RuleSpec.ForbiddenTerms("learned-1", List.of("limited"), List.of(), Map.of(),
                        dev.santabatch.config.RuleSpec.FixKind.REMOVE_SENTENCE),
                List.of("a", "b", "c", "d"), 4);

        RuleValidator.Screening s = RuleValidator.screen(rule, p, 2, 40, catalog(10, 3));

        assertThat(s.rejection()).isEqualTo("flags ok, which both reviewers passed");
        assertThat(s.freshReview()).isEmpty();
    }

    @Test
    void aPassedItemWhoseNumberContradictsItsColumnIsQueuedForAFreshReview() {
        PassedItem missed = new PassedItem("missed", "Tidy shelf with a 9-year warranty.", Map.of("warranty_years", "1"));
        PassedItem fine = new PassedItem("fine", "Tidy shelf with a 1-year warranty.", Map.of("warranty_years", "1"));
        PatternEvidence p = RuleInducerTests.pattern(RuleInducerTests.warrantyFixes(), List.of(missed, fine));

        RuleValidator.Screening s = RuleValidator.screen(induced(p), p, 2, 40, List.of());

        assertThat(s.rejection()).isNull();
        assertThat(s.freshReview()).containsExactly("missed");
        assertThat(RuleValidator.afterFreshReview(List.of())).isEmpty();
        assertThat(RuleValidator.afterFreshReview(List.of("missed"))).hasValueSatisfying(
                why -> assertThat(why).contains("also on a fresh review"));
    }

    @Test
    void theCatalogShareCapRejectsAnOverBroadRule() {
        // 4 of 40 sampled items: the upper limit of 10 % is about 24 %; x 1.5 x 200 eligible = 71 items
        PatternEvidence p = RuleInducerTests.pattern(REMOVALS, List.of());
        double cap = RuleValidator.cap(4, 40, 200);
        assertThat(cap).isBetween(70.0, 72.0);

        RuleValidator.Screening within = RuleValidator.screen(induced(p), p, 2, 40, catalog(130, 70));
        RuleValidator.Screening over = RuleValidator.screen(induced(p), p, 2, 40, catalog(120, 80));

        assertThat(within.rejection()).isNull();
        assertThat(over.rejection()).startsWith("flags 80 of 200 eligible items, more than the cap 71.");
    }

    @Test
    void leaveOneOutRecallCountsItemsTheRuleLearnedWithoutThemStillFinds() {
        // three fixes share "stocks are limited"; without one of them, the two left still share it
        PatternEvidence p = RuleInducerTests.pattern(REMOVALS.subList(0, 3), List.of());
        assertThat(RuleValidator.looRecall(induced(p), p, 2)).isEqualTo(1.0);
        // four number fixes and one other: exactly 80 % share the shape; without any one of the four,
        // 3 of 4 (75 %) do not, so no rule is learned and none of them is recalled
        List<AcceptedFix> edge = new ArrayList<>(RuleInducerTests.warrantyFixes());
        edge.add(RuleInducerTests.fix("x", "A good pan. It is the best pan ever made.", "A good pan.", Map.of()));
        PatternEvidence v = RuleInducerTests.pattern(edge, List.of());
        LearnedRule rule = induced(v);
        assertThat(rule.support()).isEqualTo(4);
        assertThat(RuleValidator.looRecall(rule, v, 2)).isZero();
    }

    @Test
    void theReviewCheckToleratesAFewFailuresNotMore() {
        assertThat(RuleValidator.afterReviewCheck(10, 2)).isEmpty();
        assertThat(RuleValidator.afterReviewCheck(10, 3)).hasValue("review check: 3 of 10 fixed items failed the criterion");
    }
}
