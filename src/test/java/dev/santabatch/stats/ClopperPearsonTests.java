package dev.santabatch.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ClopperPearsonTests {

    @Test
    void zeroOfTwenty() {
        // upper = 1 - 0.025^(1/20) = 0.168433
        ConfidenceInterval ci = ClopperPearson.interval(0, 20);
        assertThat(ci.lower()).isZero();
        assertThat(ci.upper()).isCloseTo(1 - Math.pow(0.025, 1.0 / 20), within(1e-10));
        assertThat(ci.upper()).isCloseTo(0.1684, within(5e-5));
    }

    @Test
    void oneOfTwenty() {
        ConfidenceInterval ci = ClopperPearson.interval(1, 20);
        // lower = 1 - 0.975^(1/20) (x = 1: Beta(1, 20) quantile) = 0.0012651
        assertThat(ci.lower()).isCloseTo(1 - Math.pow(0.975, 1.0 / 20), within(1e-10));
        assertThat(ci.lower()).isCloseTo(0.0013, within(5e-5));
        assertThat(ci.upper()).isCloseTo(0.2487, within(5e-5));
    }

    @Test
    void twentyOfTwenty() {
        ConfidenceInterval ci = ClopperPearson.interval(20, 20);
        assertThat(ci.lower()).isCloseTo(Math.pow(0.025, 1.0 / 20), within(1e-10));
        assertThat(ci.lower()).isCloseTo(0.8316, within(5e-5));
        assertThat(ci.upper()).isEqualTo(1.0);
    }

    @Test
    void symmetricMiddleCase() {
        // 5/10: [0.187086, 0.812914]
        ConfidenceInterval ci = ClopperPearson.interval(5, 10);
        assertThat(ci.lower()).isCloseTo(0.187086, within(1e-6));
        assertThat(ci.upper()).isCloseTo(0.812914, within(1e-6));
        assertThat(ci.toString()).isEqualTo("[18.7 %, 81.3 %] (95 % Clopper-Pearson)");
    }

    @Test
    void largeCounts() {
        // 0/3000: 1 - 0.025^(1/3000)
        assertThat(ClopperPearson.interval(0, 3000).upper())
                .isCloseTo(-Math.expm1(Math.log(0.025) / 3000), within(1e-12));
        ConfidenceInterval ci = ClopperPearson.interval(300, 3000);
        assertThat(ci.lower()).isBetween(0.089, 0.0895);
        assertThat(ci.upper()).isBetween(0.1105, 0.1115);
    }

    @Test
    void smallestSamples() {
        // n = 1: [0, 1 − 0.025] and [0.025, 1]
        ConfidenceInterval none = ClopperPearson.interval(0, 1);
        assertThat(none.lower()).isZero();
        assertThat(none.upper()).isCloseTo(0.975, within(1e-12));
        ConfidenceInterval one = ClopperPearson.interval(1, 1);
        assertThat(one.lower()).isCloseTo(0.025, within(1e-12));
        assertThat(one.upper()).isEqualTo(1.0);
        // 1/2: lower = 1 − √0.975 = 0.012579, upper = √0.975 = 0.987421 (Beta(1, 2) and Beta(2, 1))
        ConfidenceInterval half = ClopperPearson.interval(1, 2);
        assertThat(half.lower()).isCloseTo(1 - Math.sqrt(0.975), within(1e-12));
        assertThat(half.upper()).isCloseTo(Math.sqrt(0.975), within(1e-12));
    }

    @Test
    void anotherConfidenceLevel() {
        // 90 %: 0/20 → upper = 1 − 0.05^(1/20) = 0.139108; 20/20 → lower = 0.05^(1/20)
        ConfidenceInterval ci = ClopperPearson.interval(0, 20, 0.90);
        assertThat(ci.lower()).isZero();
        assertThat(ci.upper()).isCloseTo(1 - Math.pow(0.05, 1.0 / 20), within(1e-12)).isCloseTo(0.139108, within(1e-6));
        assertThat(ci.confidence()).isEqualTo(0.90);
        assertThat(ClopperPearson.interval(20, 20, 0.90).lower()).isCloseTo(Math.pow(0.05, 1.0 / 20), within(1e-12));
        // 1/2 at 50 %: 1 − √0.75 = 0.133975 and √0.75 = 0.866025
        ConfidenceInterval half = ClopperPearson.interval(1, 2, 0.5);
        assertThat(half.lower()).isCloseTo(1 - Math.sqrt(0.75), within(1e-12));
        assertThat(half.upper()).isCloseTo(Math.sqrt(0.75), within(1e-12));
        assertThat(half.toString()).isEqualTo("[13.4 %, 86.6 %] (50 % Clopper-Pearson)");
    }

    @Test
    void binomialCdfSpecialCases() {
        // P(X ≥ a) for X ~ Binomial(a + b − 1, p) is I_p(a, b): I_p(1, 1) = p, I_0.5(2, 2) = 0.5,
        // I_p(1, b) = 1 − (1 − p)^b, I_p(a, 1) = p^a
        assertThat(1 - ClopperPearson.binomialCdf(0, 1, 0.3)).isCloseTo(0.3, within(1e-13));
        assertThat(1 - ClopperPearson.binomialCdf(1, 3, 0.5)).isCloseTo(0.5, within(1e-13));
        assertThat(1 - ClopperPearson.binomialCdf(0, 7, 0.1)).isCloseTo(1 - Math.pow(0.9, 7), within(1e-13));
        assertThat(1 - ClopperPearson.binomialCdf(4, 5, 0.8)).isCloseTo(Math.pow(0.8, 5), within(1e-13));
        // no trials, or x ≥ n: certain; p = 0 or 1
        assertThat(ClopperPearson.binomialCdf(0, 0, 0.3)).isEqualTo(1);
        assertThat(ClopperPearson.binomialCdf(7, 5, 0.3)).isEqualTo(1);
        assertThat(ClopperPearson.binomialCdf(0, 5, 0)).isEqualTo(1);
        assertThat(ClopperPearson.binomialCdf(4, 5, 1)).isZero();
    }

    @Test
    void rejectsBadCounts() {
        assertThatThrownBy(() -> ClopperPearson.interval(0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClopperPearson.interval(3, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClopperPearson.interval(-1, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClopperPearson.interval(1, 2, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClopperPearson.interval(1, 2, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClopperPearson.binomialCdf(-1, 2, 0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClopperPearson.binomialCdf(1, -2, 0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClopperPearson.binomialCdf(1, 2, 1.5)).isInstanceOf(IllegalArgumentException.class);
    }
}
