package dev.santabatch.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.rounds.LoopStore;
import dev.santabatch.stats.CleanSampleBound;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report's bound object for each way a run can end. */
class RunReportBoundTests {

    private static LoopStore.Round round(int no, long eligible, int sampled, boolean full) {
        return new LoopStore.Round(no, 7, eligible, sampled, full, "", "decided");
    }

    /** The bound as report.json has it. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> tree(Object bound) {
        return new com.fasterxml.jackson.databind.ObjectMapper().convertValue(bound, Map.class);
    }

    @Test
    void aCleanSampleStatesTheCorrectedBound() {
        Map<String, Object> b = tree(RunReport.bound(RunReport.CLEAN, List.of(round(1, 1200, 144, false), round(2, 913, 110, false)),
                new LoopStore.Acceptance(7, 0)));
        assertThat(b.get("stated")).isEqualTo(true);
        // 1 - (0.05 / 2)^(1/110) = 0.032978...
        assertThat((Double) b.get("defect_rate_below")).isCloseTo(0.03298, org.assertj.core.data.Offset.offset(5e-5));
        assertThat((String) b.get("sentence")).startsWith("Among the 913 items eligible in the last round, for defects these reviewers can detect");
    }

    @Test
    void aCleanSampleWithIsolatedFailuresStatesThemAndTheirBound() {
        Map<String, Object> b = tree(RunReport.bound(RunReport.CLEAN, List.of(round(1, 1200, 144, false), round(2, 913, 110, false)),
                new LoopStore.Acceptance(7, 2)));
        assertThat(b).containsEntry("failures", 2).containsEntry("acceptance_number", 7);
        // the p with 2 · P(X ≤ 2 | 110, p) = 0.05: 0.0641 (CleanSampleBoundTests checks the solution)
        assertThat((Double) b.get("defect_rate_below")).isCloseTo(CleanSampleBound.upperBound(110, 2, 2, 0.05),
                org.assertj.core.data.Offset.offset(1e-12)).isGreaterThan(0.064);
        assertThat((String) b.get("sentence")).contains("(clean sample of 110 items with 2 failures, acceptance number 7;"
                + " 2 rounds looked at)");
    }

    @Test
    void aFullyReviewedRunHasNoSamplingBound() {
        Map<String, Object> b = tree(RunReport.bound(RunReport.FULLY_REVIEWED, List.of(round(1, 60, 60, true)), null));
        assertThat(b.get("stated")).isEqualTo(false);
        assertThat(b.get("why")).isEqualTo("fully reviewed, no sampling bound");
    }

    @Test
    void aNotCleanRunWhoseLastRoundReviewedEverythingSaysItHasNoCleanSample() {
        for (String status : List.of(RunReport.NOT_CLEAN, RunReport.BUDGET_STOPPED, RunReport.FAILED)) {
            Map<String, Object> b = tree(RunReport.bound(status, List.of(round(1, 300, 36, false), round(2, 80, 80, true)), null));
            assertThat(b.get("stated")).as(status).isEqualTo(false);
            assertThat(b.get("why")).as(status).isEqualTo("no clean sample: no bound can be stated");
            assertThat(b).as(status).doesNotContainKey("sentence");
        }
    }
}
