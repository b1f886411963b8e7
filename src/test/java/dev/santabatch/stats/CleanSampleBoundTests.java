package dev.santabatch.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class CleanSampleBoundTests {

    @Test
    void boundMatchesHandComputations() {
        // p = 1 - (0.05 / k)^(1/n)
        // n = 5, k = 1: 0.05^0.2 = exp(-2.995732 / 5) = 0.549280 -> 0.450720
        assertThat(CleanSampleBound.of(5, 1000, 1, 0, 0).upperBound()).isCloseTo(0.450720, within(1e-6));
        // n = 100, k = 1: exp(-0.02995732) = 0.970487 -> 0.029513 (about 3/n)
        assertThat(CleanSampleBound.of(100, 1000, 1, 0, 0).upperBound()).isCloseTo(0.029513, within(1e-6));
        // n = 100, k = 3: ln(0.05/3) = -4.094345 -> exp(-0.04094345) = 0.959883 -> 0.040117
        assertThat(CleanSampleBound.of(100, 1000, 3, 0, 0).upperBound()).isCloseTo(0.040117, within(1e-6));
        // n = 120, k = 2: ln(0.025) = -3.688879 -> exp(-0.03074066) = 0.969727 -> 0.030273
        assertThat(CleanSampleBound.of(120, 1000, 2, 0, 0).upperBound()).isCloseTo(0.030273, within(1e-6));
    }

    @Test
    void boundSolvesTheUnionBoundEquation() {
        for (int n : new int[] {1, 5, 12, 100, 360_000}) {
            for (int k : new int[] {1, 2, 5}) {
                double p = CleanSampleBound.upperBound(n, 0, k, 0.05);
                assertThat(k * Math.pow(1 - p, n)).isCloseTo(0.05, within(1e-9));
            }
        }
        // more rounds looked at -> a wider bound
        assertThat(CleanSampleBound.upperBound(100, 0, 3, 0.05)).isGreaterThan(CleanSampleBound.upperBound(100, 0, 1, 0.05));
    }

    /**
     * With failures the bound solves k · P(X ≤ x | n, p) = 0.05, computed here from the binomial
     * terms themselves (not the beta function the code uses), by bisection:
     * x = 1: (1 − p)^n + n p (1 − p)^(n − 1);
     * x = 2: that + n (n − 1) / 2 · p² (1 − p)^(n − 2).
     * n = 100, k = 1, x = 1: p = 0.046560 (0.9534^100 + 100 · 0.04656 · 0.9534^99 = 0.00860 + 0.04140 = 0.05);
     * n = 100, k = 1, x = 2: p = 0.061619; n = 20, k = 1, x = 1: 0.216106; n = 50, k = 3, x = 2: 0.146396.
     */
    @Test
    void boundWithFailuresMatchesHandComputations() {
        assertThat(CleanSampleBound.of(100, 1000, 1, 1, 7).upperBound()).isCloseTo(0.046560, within(1e-6));
        assertThat(CleanSampleBound.of(100, 1000, 1, 2, 7).upperBound()).isCloseTo(0.061619, within(1e-6));
        assertThat(CleanSampleBound.of(20, 1000, 1, 1, 2).upperBound()).isCloseTo(0.216106, within(1e-6));
        assertThat(CleanSampleBound.of(50, 1000, 3, 2, 4).upperBound()).isCloseTo(0.146396, within(1e-6));
        for (int[] c : new int[][] {{100, 1, 1}, {100, 2, 1}, {20, 1, 1}, {50, 2, 3}, {360, 2, 5}}) {
            int n = c[0];
            int x = c[1];
            int k = c[2];
            double p = CleanSampleBound.upperBound(n, x, k, 0.05);
            assertThat(k * atMost(x, n, p)).as("n=%d x=%d k=%d", n, x, k).isCloseTo(0.05, within(1e-9));
            assertThat(k * atMost(x, n, bisect(x, n, k))).isCloseTo(0.05, within(1e-9));
            assertThat(p).isCloseTo(bisect(x, n, k), within(1e-9));
        }
    }

    @Test
    void theBoundIsTheOneSidedBetaQuantile() {
        // k · P(X ≤ x | n, p) = α is I_p(x + 1, n − x) = 1 − α/k, one-sided: I_p(2, 2) = 0.5 at p = 0.5
        // (symmetry), I_p(5, 1) = p^5, I_p(1, b) = 1 − (1 − p)^b
        assertThat(CleanSampleBound.upperBound(3, 1, 1, 0.5)).isCloseTo(0.5, within(1e-12));
        assertThat(CleanSampleBound.upperBound(5, 4, 1, 1 - Math.pow(0.8, 5))).isCloseTo(0.8, within(1e-12));
        // k = 2: p^5 = 1 − 0.05/2, p = 0.975^(1/5) = 0.994949 (a two-sided limit would be 0.9875^(1/5))
        assertThat(CleanSampleBound.upperBound(5, 4, 2, 0.05)).isCloseTo(Math.pow(0.975, 0.2), within(1e-12))
                .isCloseTo(0.994949, within(1e-6));
        assertThat(CleanSampleBound.upperBound(7, 0, 1, Math.pow(0.9, 7))).isCloseTo(0.1, within(1e-12));
        assertThat(CleanSampleBound.upperBound(1, 0, 1, 0.05)).isCloseTo(0.95, within(1e-12));
        assertThat(CleanSampleBound.upperBound(1, 0, 2, 0.05)).isCloseTo(0.975, within(1e-12));
    }

    @Test
    void withNoFailureTheBoundIsTheClosedForm() {
        // the general solution of k · P(X ≤ 0 | n, p) = 0.05 is 1 − (0.05 / k)^(1/n)
        for (int n : new int[] {5, 100, 1000}) {
            for (int k : new int[] {1, 3}) {
                assertThat(CleanSampleBound.upperBound(n, 0, k, 0.05)).isCloseTo(bisect(0, n, k), within(1e-9))
                        .isCloseTo(1 - Math.pow(0.05 / k, 1.0 / n), within(1e-12));
            }
        }
    }

    /** P(X ≤ x) for X ~ Binomial(n, p), x ≤ 2, term by term. */
    private static double atMost(int x, int n, double p) {
        double sum = Math.pow(1 - p, n);
        if (x >= 1) {
            sum += n * p * Math.pow(1 - p, n - 1);
        }
        if (x >= 2) {
            sum += n * (n - 1) / 2.0 * p * p * Math.pow(1 - p, n - 2);
        }
        return sum;
    }

    /** The p with k · P(X ≤ x) = 0.05, by bisection (P(X ≤ x) falls as p grows). */
    private static double bisect(int x, int n, int k) {
        double lo = 0;
        double hi = 1;
        for (int i = 0; i < 200; i++) {
            double mid = (lo + hi) / 2;
            if (k * atMost(x, n, mid) > 0.05) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    @Test
    void sentenceStatesWhatTheBoundCovers() {
        assertThat(CleanSampleBound.of(100, 1000, 1, 0, 0).sentence()).isEqualTo(
                "Among the 1000 items eligible in the last round, for defects these reviewers can detect,"
                        + " the defect rate is below 2.95 % with 95 % confidence (clean sample of 100 items with 0 failures,"
                        + " acceptance number 0; 1 round looked at).");
        assertThat(CleanSampleBound.of(100, 1000, 3, 0, 0).sentence())
                .contains("below 4.01 % with 95 % confidence")
                .endsWith("(clean sample of 100 items with 0 failures, acceptance number 0; 3 rounds looked at).");
        assertThat(CleanSampleBound.of(100, 1000, 1, 1, 7).sentence())
                .contains("below 4.66 % with 95 % confidence")
                .endsWith("(clean sample of 100 items with 1 failure, acceptance number 7; 1 round looked at).");
    }

    @Test
    void weakBoundIsSaidPlainly() {
        CleanSampleBound five = CleanSampleBound.of(5, 40, 1, 0, 1);
        assertThat(five.weak()).isTrue();
        assertThat(five.sentence()).contains("below 45.1 %");
        assertThat(five.warning()).contains("Weak bound: a clean sample of only 5 items shows only that the defect"
                + " rate is below 45.1 %; it does not show that the catalog is clean.");
        assertThat(CleanSampleBound.of(5, 40, 1, 1, 1).warning()).contains("Weak bound: a clean sample of only 5 items"
                + " with 1 failure shows only that the defect rate is below 65.7 %; it does not show that the catalog is clean.");
        // n = 29 gives 9.8 %: not weak; n = 28 gives 10.1 %: weak
        assertThat(CleanSampleBound.of(29, 1000, 1, 0, 0).weak()).isFalse();
        assertThat(CleanSampleBound.of(29, 1000, 1, 0, 0).warning()).isEmpty();
        assertThat(CleanSampleBound.of(28, 1000, 1, 0, 0).weak()).isTrue();
    }

    @Test
    void fullReviewHasNoBound() {
        assertThat(CleanSampleBound.fullReviewSentence(60))
                .startsWith("All 60 eligible items were reviewed in full")
                .contains("no sampling bound");
    }

    @Test
    void rejectsImpossibleInputs() {
        assertThatThrownBy(() -> CleanSampleBound.of(0, 10, 1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CleanSampleBound.of(5, 4, 1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CleanSampleBound.of(5, 10, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        // more failures than the acceptance number accepted, or than a sample can have and still pass
        assertThatThrownBy(() -> CleanSampleBound.of(100, 1000, 1, 3, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CleanSampleBound.of(5, 10, 1, 5, 5)).isInstanceOf(IllegalArgumentException.class);
    }
}
