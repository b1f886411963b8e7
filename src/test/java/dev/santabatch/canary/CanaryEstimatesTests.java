package dev.santabatch.canary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.santabatch.config.CanaryKind;
import dev.santabatch.config.FitSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CanaryEstimatesTests {

    private static Map.Entry<Integer, Canary> canary(int round, int seq, CanaryKind kind) {
        return Map.entry(round, new Canary(seq, "p" + seq, kind, kind == null ? null : "on-specification", null,
                Map.of("name", "x"), "text " + seq));
    }

    private static CanaryStore.Verdict v(int round, int seq, String reviewer, boolean fail) {
        return new CanaryStore.Verdict(round, seq, reviewer, fail, fail ? List.of("on-specification") : List.of());
    }

    @Test
    void sensitivityAndFalseFlagRatePerReviewerAndForThePanelOverTheRounds() {
        // given round 1: planted 1-3, clean 4; round 2: planted 1 (boilerplate), clean 2; C never answered round 2's clean copy
        List<Map.Entry<Integer, Canary>> canaries = List.of(canary(1, 1, CanaryKind.FOREIGN_SENTENCE),
                canary(1, 2, CanaryKind.FOREIGN_SENTENCE), canary(1, 3, CanaryKind.FOREIGN_SENTENCE), canary(1, 4, null),
                canary(2, 1, CanaryKind.BOILERPLATE), canary(2, 2, null));
        List<CanaryStore.Verdict> verdicts = new ArrayList<>(List.of(
                v(1, 1, "B", true), v(1, 1, "C", false),
                v(1, 2, "B", false), v(1, 2, "C", true),
                v(1, 3, "B", false), v(1, 3, "C", false),
                v(1, 4, "B", false), v(1, 4, "C", true),
                v(2, 1, "B", true), v(2, 1, "C", true),
                v(2, 2, "B", false)));

        CanaryEstimates e = CanaryEstimates.of(canaries, verdicts, List.of("B", "C"));

        // then B caught 2 of 4 planted, C 2 of 4; the panel (some reviewer failed it) 3 of 4
        assertThat(e.reviewers().get("B").sensitivity()).isEqualTo(new Rate(2, 4));
        assertThat(e.reviewers().get("C").sensitivity()).isEqualTo(new Rate(2, 4));
        assertThat(e.panel().sensitivity()).isEqualTo(new Rate(3, 4));
        // B failed 0 of 2 clean copies, C 1 of 1 (it did not answer the second); the panel counts
        // only copies every reviewer answered: 1 of 1
        assertThat(e.reviewers().get("B").falseFlag()).isEqualTo(new Rate(0, 2));
        assertThat(e.reviewers().get("C").falseFlag()).isEqualTo(new Rate(1, 1));
        assertThat(e.panel().falseFlag()).isEqualTo(new Rate(1, 1));
        assertThat(e.byKind()).containsEntry("foreign-sentence", new Rate(2, 3)).containsEntry("boilerplate", new Rate(1, 1));
        assertThat(e.rounds()).containsExactly(Map.entry(1, 4), Map.entry(2, 2));
        // Clopper-Pearson by hand: 2 of 4 is [0.0676, 0.9324]; 0 of 2 is [0, 1 - 0.025^(1/2)] = [0, 0.8419];
        // 1 of 1 is [0.025, 1]; 3 of 4: lower = Beta(0.025; 3, 2) = 0.1941, upper = 0.025^... no: 1 - Beta(0.975...) = 0.9937
        assertThat(e.reviewers().get("B").sensitivity().interval().lower()).isCloseTo(0.0676, within(5e-4));
        assertThat(e.reviewers().get("B").sensitivity().interval().upper()).isCloseTo(0.9324, within(5e-4));
        assertThat(e.reviewers().get("B").falseFlag().interval().upper()).isCloseTo(1 - Math.sqrt(0.025), within(1e-9));
        assertThat(e.reviewers().get("C").falseFlag().interval().lower()).isCloseTo(0.025, within(1e-9));
        assertThat(e.panel().sensitivity().interval().lower()).isCloseTo(0.1941, within(5e-4));
        assertThat(e.panel().sensitivity().interval().upper()).isCloseTo(0.9937, within(5e-4));
    }

    @Test
    void aPanelThatCatchesNoCanaryDoesNotFitAndOneThatCatchesOneOfFourStill() {
        FitSpec spec = FitSpec.defaults();
        // 0 of 3: upper limit 1 - 0.025^(1/3) = 0.708 < 0.8
        PanelFit blind = PanelFit.judge(estimates(0, 3, 0, 1), List.of(), spec);
        assertThat(blind.fits()).isFalse();
        assertThat(blind.failing().orElseThrow().name()).isEqualTo("sensitivity");
        assertThat(blind.failureLines()).singleElement().asString().contains("santa.min-panel-sensitivity")
                .contains("model reviewers");
        // 1 of 4: upper limit 0.806: not shown to be below 0.8
        assertThat(PanelFit.judge(estimates(1, 4, 0, 1), List.of(), spec).fits()).isTrue();
        // 24 of 30 = 0.8 fits; 23 of 30 is judged on the point estimate (30 canaries) and does not
        assertThat(PanelFit.judge(estimates(24, 30, 0, 10), List.of(), spec).fits()).isTrue();
        assertThat(PanelFit.judge(estimates(23, 30, 0, 10), List.of(), spec).fits()).isFalse();
        // nothing planted: not measured, not failed
        assertThat(PanelFit.judge(estimates(0, 0, 0, 0), List.of(), spec).fits()).isTrue();
    }

    @Test
    void falseFlagsFailOnTheLowerLimitAndFailShareOnTheWorstRound() {
        FitSpec spec = FitSpec.defaults();
        // 2 of 2 clean copies failed: lower limit sqrt(0.025) = 0.158 > 0.05
        PanelFit flags = PanelFit.judge(estimates(4, 4, 2, 2), List.of(), spec);
        assertThat(flags.failing().orElseThrow().name()).isEqualTo("false-flag-rate");
        // 1 of 2: lower limit 0.0126: not shown above 0.05
        assertThat(PanelFit.judge(estimates(4, 4, 1, 2), List.of(), spec).fits()).isTrue();
        // 120 of 180 failed in round 1 (0.67 > 0.5), 10 of 100 in round 2
        PanelFit share = PanelFit.judge(estimates(4, 4, 0, 2),
                List.of(new PanelFit.RoundFailures(1, 120, 180), new PanelFit.RoundFailures(2, 10, 100)), spec);
        assertThat(share.failing().orElseThrow().name()).isEqualTo("fail-share");
        assertThat(share.failing().orElseThrow().value()).isCloseTo(120.0 / 180, within(1e-12));
        assertThat(PanelFit.judge(estimates(4, 4, 0, 2), List.of(new PanelFit.RoundFailures(1, 90, 180)), spec).fits())
                .as("exactly half is not more than half").isTrue();
    }

    private static CanaryEstimates estimates(long caught, long planted, long flagged, long clean) {
        CanaryEstimates.Figures f = new CanaryEstimates.Figures(new Rate(caught, planted), new Rate(flagged, clean));
        return new CanaryEstimates(Map.of("B", f), f, Map.of(), Map.of());
    }
}
