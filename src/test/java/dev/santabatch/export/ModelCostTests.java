package dev.santabatch.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.santabatch.model.CallCounts;
import dev.santabatch.model.SpendSnapshot;
import dev.santabatch.model.Tally;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The report's model cost against full verification uses the calls and tokens the governor
 * counted, per role, against hand-computed values.
 */
class ModelCostTests {

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    private static double num(Object o) {
        return ((Number) o).doubleValue();
    }

    private static SpendSnapshot spend(Map<String, CallCounts> byRole) {
        CallCounts total = byRole.values().stream().reduce(CallCounts.ZERO, CallCounts::plus);
        return new SpendSnapshot(2, new Tally(total, byRole, Map.of()), Map.of());
    }

    @Test
    void sharesUseEveryModelCallAndItsTokens() {
        // given reviewers B (30 calls, 1000 + 2000 tokens) and C (30 calls, 1300 + 2000), a fixer (6 calls,
        // 600 + 300) and a matcher (10 calls, 1000 + 200); a retry counts as a call
        SpendSnapshot s = spend(Map.of(
                "reviewer:B", new CallCounts(30, 1, 0, 1000, 2000, 0.01),
                "reviewer:C", new CallCounts(30, 0, 0, 1300, 2000, 0),
                "fixer", new CallCounts(6, 0, 0, 600, 300, 0),
                "matcher", new CallCounts(10, 0, 0, 1000, 200, 0)));

        // when N = 100 items, r = 2 model reviewers, mean reviews per item 1.2, mean fixes per item 0.1
        Map<String, Object> m = RunReportBoundTests.tree(SpendReport.modelCost(s, 100, 2, 1.2, 0.1));

        // then actual = 76 calls, 8,400 tokens; reviewers 60 calls x 105 tokens, fixer 6 x 150
        assertThat(m.get("calls")).isEqualTo(76L);
        assertThat(m.get("tokens")).isEqualTo(8400L);
        assertThat(map(map(m.get("by_kind")).get("reviewers"))).containsEntry("calls", 60L).containsEntry("tokens", 6300L);
        assertThat(map(map(m.get("by_kind")).get("matcher_and_other"))).containsEntry("calls", 10L).containsEntry("tokens", 1200L);
        assertThat(num(m.get("tokens_per_review_call"))).isCloseTo(105, within(1e-12));
        assertThat(num(m.get("tokens_per_fix_call"))).isCloseTo(150, within(1e-12));
        // every item reviewed once: 100 x 2 = 200 calls, 200 x 105 = 21,000 tokens
        Map<String, Object> once = map(m.get("baseline_every_item_reviewed_once"));
        assertThat(num(once.get("calls"))).isCloseTo(200, within(1e-9));
        assertThat(num(once.get("tokens"))).isCloseTo(21_000, within(1e-9));
        Map<String, Object> onceShare = map(m.get("share_of_every_item_reviewed_once"));
        assertThat(num(onceShare.get("calls"))).isCloseTo(0.38, within(1e-12));
        assertThat(num(onceShare.get("tokens"))).isCloseTo(0.40, within(1e-12));
        // full Santa: 100 x 2 x 1.2 + 100 x 0.1 = 250 calls; 240 x 105 + 10 x 150 = 26,700 tokens
        Map<String, Object> full = map(m.get("baseline_full_santa"));
        assertThat(num(full.get("calls"))).isCloseTo(250, within(1e-9));
        assertThat(num(full.get("tokens"))).isCloseTo(26_700, within(1e-9));
        Map<String, Object> fullShare = map(m.get("share_of_full_santa_on_every_item"));
        assertThat(num(fullShare.get("calls"))).isCloseTo(0.304, within(1e-12));
        assertThat(num(fullShare.get("tokens"))).isCloseTo(8400.0 / 26_700, within(1e-12));
    }

    @Test
    void aMixedPanelCountsItsModelReviewersOnly() {
        // given one model reviewer (B: 20 calls, 2,000 tokens) beside an offline one, no fixer or matcher calls
        SpendSnapshot s = spend(Map.of("reviewer:B", new CallCounts(20, 0, 0, 1500, 500, 0)));

        // when N = 50, r = 1, mean reviews 1.5, mean fixes 0.2
        Map<String, Object> m = RunReportBoundTests.tree(SpendReport.modelCost(s, 50, 1, 1.5, 0.2));

        // then review once = 50 calls, 5,000 tokens; full Santa = 75 + 10 = 85 calls, 75 x 100 + 10 x 0 = 7,500 tokens
        assertThat(num(map(m.get("share_of_every_item_reviewed_once")).get("calls"))).isCloseTo(0.4, within(1e-12));
        assertThat(num(map(m.get("share_of_every_item_reviewed_once")).get("tokens"))).isCloseTo(0.4, within(1e-12));
        assertThat(num(map(m.get("share_of_full_santa_on_every_item")).get("calls"))).isCloseTo(20.0 / 85, within(1e-12));
        assertThat(num(map(m.get("share_of_full_santa_on_every_item")).get("tokens"))).isCloseTo(2000.0 / 7500, within(1e-12));
    }

    @Test
    void noModelReviewerHasNoModelBaseline() {
        Map<String, Object> m = RunReportBoundTests.tree(SpendReport.modelCost(SpendSnapshot.NONE, 100, 0, 1.0, 0));

        assertThat(m.get("calls")).isEqualTo(0L);
        assertThat(m).containsEntry("shares", null).doesNotContainKey("share_of_full_santa_on_every_item");
        assertThat(String.valueOf(m.get("why"))).contains("no model reviewer");
    }
}
