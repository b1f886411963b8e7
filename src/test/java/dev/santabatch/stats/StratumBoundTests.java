package dev.santabatch.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The covered stratum's fixed sample size, and the per-stratum and catalog bounds of a run sampled in strata. */
class StratumBoundTests {

    /**
     * n = ⌈ln(α / (H · k)) / ln(1 − t)⌉ with α = 0.05, ln(0.95) = −0.0512933:
     * <ul>
     *   <li>t = 0.05, H = 2, k = 1: ln(0.025) = −3.688879; −3.688879 / −0.0512933 = 71.917 → 72;
     *   <li>t = 0.05, H = 2, k = 3: ln(0.05 / 6) = −4.787492; / −0.0512933 = 93.336 → 94;
     *   <li>t = 0.05, H = 1, k = 1: ln(0.05) = −2.995732; / −0.0512933 = 58.404 → 59;
     *   <li>t = 0.05, H = 1, k = 2: ln(0.025) as for H = 2, k = 1 → 72;
     *   <li>t = 0.02, H = 2, k = 1: ln(0.98) = −0.0202027; −3.688879 / −0.0202027 = 182.593 → 183.
     * </ul>
     */
    @Test
    void theCoveredSampleSizeMatchesHandComputations() {
        assertThat(StratumBound.sampleSize(0.05, 0.05, 2, 1)).isEqualTo(72);
        assertThat(StratumBound.sampleSize(0.05, 0.05, 2, 3)).isEqualTo(94);
        assertThat(StratumBound.sampleSize(0.05, 0.05, 1, 1)).isEqualTo(59);
        assertThat(StratumBound.sampleSize(0.05, 0.05, 1, 2)).isEqualTo(72);
        assertThat(StratumBound.sampleSize(0.02, 0.05, 2, 1)).isEqualTo(183);
    }

    @Test
    void aCleanSampleOfThatSizeBoundsTheStratumBelowTheTargetAndOneItemFewerDoesNot() {
        for (double t : new double[] {0.01, 0.05, 0.1}) {
            for (int h = 1; h <= 2; h++) {
                for (int k = 1; k <= 7; k++) {
                    int n = StratumBound.sampleSize(t, 0.05, h, k);
                    assertThat(StratumBound.upperBound(n, 0, k, h, 0.05)).as("t=%s H=%d k=%d", t, h, k).isLessThanOrEqualTo(t);
                    assertThat(StratumBound.upperBound(n - 1, 0, k, h, 0.05)).isGreaterThan(t);
                }
            }
        }
    }

    /**
     * p_h = 1 − (α / (H · k_h))^(1/n_h):
     * <ul>
     *   <li>covered, n = 72, H = 2, k = 1: ln(0.025) / 72 = −0.0512344 → exp = 0.9500559 → 0.0499441;
     *   <li>covered, n = 94, H = 2, k = 3: ln(0.05 / 6) / 94 = −0.0509308 → exp = 0.9503445 → 0.0496555;
     *   <li>changed, n = 120, H = 2, k = 1: ln(0.025) / 120 = −0.0307407 → exp = 0.9697270 → 0.0302730.
     * </ul>
     * Each solves k_h (1 − p_h)^(n_h) = α / H.
     */
    @Test
    void perStratumBoundsMatchHandComputations() {
        assertThat(StratumBound.upperBound(72, 0, 1, 2, 0.05)).isCloseTo(0.0499441, within(1e-7));
        assertThat(StratumBound.upperBound(94, 0, 3, 2, 0.05)).isCloseTo(0.0496555, within(1e-7));
        assertThat(StratumBound.upperBound(120, 0, 1, 2, 0.05)).isCloseTo(0.0302730, within(1e-7));
        for (int[] c : new int[][] {{72, 1, 2}, {94, 3, 2}, {120, 1, 2}, {59, 1, 1}}) {
            double p = StratumBound.upperBound(c[0], 0, c[1], c[2], 0.05);
            assertThat(c[1] * Math.pow(1 - p, c[0])).isCloseTo(0.05 / c[2], within(1e-12));
        }
        // one stratum: the bound of one clean sample
        assertThat(StratumBound.upperBound(100, 0, 3, 1, 0.05)).isEqualTo(CleanSampleBound.upperBound(100, 0, 3, 0.05));
        // with accepted failures, the Clopper-Pearson limit at alpha / (H k)
        assertThat(StratumBound.upperBound(100, 1, 1, 2, 0.05)).isEqualTo(CleanSampleBound.upperBound(100, 1, 2, 0.05));
    }

    /**
     * Σ (N_h / N) · p_h: 1,000 changed items below 0.0302730 and 9,000 covered below 0.0499441:
     * 0.1 · 0.0302730 + 0.9 · 0.0499441 = 0.0030273 + 0.0449497 = 0.0479770.
     */
    @Test
    void theCatalogBoundIsTheItemWeightedMeanOfTheStrata() {
        double changed = StratumBound.upperBound(120, 0, 1, 2, 0.05);
        double covered = StratumBound.upperBound(72, 0, 1, 2, 0.05);
        assertThat(StratumBound.catalog(List.of(new StratumBound.Share(1000, changed), new StratumBound.Share(9000, covered))))
                .isCloseTo(0.0479770, within(1e-7));
        assertThat(StratumBound.catalog(List.of(new StratumBound.Share(500, 0.03)))).isEqualTo(0.03);
        assertThat(StratumBound.catalog(List.of())).isZero();
    }

    @Test
    void argumentsOutsideTheirRangeAreRefused() {
        assertThatThrownBy(() -> StratumBound.sampleSize(0, 0.05, 1, 1)).hasMessageContaining("target bound");
        assertThatThrownBy(() -> StratumBound.sampleSize(1, 0.05, 1, 1)).hasMessageContaining("target bound");
        assertThatThrownBy(() -> StratumBound.sampleSize(0.05, 0.05, 0, 1)).hasMessageContaining("strata");
        assertThatThrownBy(() -> StratumBound.upperBound(72, 0, 0, 2, 0.05)).hasMessageContaining("looks");
    }
}
