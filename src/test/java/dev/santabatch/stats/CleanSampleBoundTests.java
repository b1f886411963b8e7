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
        assertThat(CleanSampleBound.of(5, 1000, 1).upperBound()).isCloseTo(0.450720, within(1e-6));
        // n = 100, k = 1: exp(-0.02995732) = 0.970487 -> 0.029513 (about 3/n)
        assertThat(CleanSampleBound.of(100, 1000, 1).upperBound()).isCloseTo(0.029513, within(1e-6));
        // n = 100, k = 3: ln(0.05/3) = -4.094345 -> exp(-0.04094345) = 0.959883 -> 0.040117
        assertThat(CleanSampleBound.of(100, 1000, 3).upperBound()).isCloseTo(0.040117, within(1e-6));
        // n = 120, k = 2: ln(0.025) = -3.688879 -> exp(-0.03074066) = 0.969727 -> 0.030273
        assertThat(CleanSampleBound.of(120, 1000, 2).upperBound()).isCloseTo(0.030273, within(1e-6));
    }

    @Test
    void boundSolvesTheUnionBoundEquation() {
        for (int n : new int[] {1, 5, 12, 100, 360_000}) {
            for (int k : new int[] {1, 2, 5}) {
                double p = CleanSampleBound.upperBound(n, k, 0.05);
                assertThat(k * Math.pow(1 - p, n)).isCloseTo(0.05, within(1e-9));
            }
        }
        // more rounds looked at -> a wider bound
        assertThat(CleanSampleBound.upperBound(100, 3, 0.05)).isGreaterThan(CleanSampleBound.upperBound(100, 1, 0.05));
    }

    @Test
    void sentenceStatesWhatTheBoundCovers() {
        assertThat(CleanSampleBound.of(100, 1000, 1).sentence()).isEqualTo(
                "Among the 1000 items eligible in the last round, for defects these reviewers can detect,"
                        + " the defect rate is below 2.95 % with 95 % confidence (clean sample of 100 items;"
                        + " 1 round looked at).");
        assertThat(CleanSampleBound.of(100, 1000, 3).sentence())
                .contains("below 4.01 % with 95 % confidence")
                .endsWith("(clean sample of 100 items; 3 rounds looked at).");
    }

    @Test
    void weakBoundIsSaidPlainly() {
        CleanSampleBound five = CleanSampleBound.of(5, 40, 1);
        assertThat(five.weak()).isTrue();
        assertThat(five.sentence()).contains("below 45.1 %");
        assertThat(five.warning()).contains("Weak bound: a clean sample of only 5 items shows only that the defect"
                + " rate is below 45.1 %; it does not show that the catalog is clean.");
        // n = 29 gives 9.8 %: not weak; n = 28 gives 10.1 %: weak
        assertThat(CleanSampleBound.of(29, 1000, 1).weak()).isFalse();
        assertThat(CleanSampleBound.of(29, 1000, 1).warning()).isEmpty();
        assertThat(CleanSampleBound.of(28, 1000, 1).weak()).isTrue();
    }

    @Test
    void fullReviewHasNoBound() {
        assertThat(CleanSampleBound.fullReviewSentence(60))
                .startsWith("All 60 eligible items were reviewed in full")
                .contains("no sampling bound");
    }

    @Test
    void rejectsImpossibleInputs() {
        assertThatThrownBy(() -> CleanSampleBound.of(0, 10, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CleanSampleBound.of(5, 4, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CleanSampleBound.of(5, 10, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
