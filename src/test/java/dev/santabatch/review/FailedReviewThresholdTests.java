package dev.santabatch.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class FailedReviewThresholdTests {

    @ParameterizedTest(name = "{0} of {1} at {2} -> exceeded {3}")
    @CsvSource({
        "0, 0, 0.10, false",
        "0, 50, 0.10, false",
        "5, 50, 0.10, false", // exactly 10 %: not above
        "6, 50, 0.10, true",
        "1, 10, 0.10, false",
        "2, 10, 0.10, true",
        "1, 3, 0.10, true",
        "1, 5, 0.20, false",
        "1, 1, 1.00, false",
        "1, 100, 0.00, true",
    })
    void exceededOnlyAboveTheThreshold(long failed, long total, double threshold, boolean exceeded) {
        assertThat(new FailedReviewThreshold(threshold).exceeded(failed, total)).isEqualTo(exceeded);
    }

    @Test
    void aShareAboveTheDefaultFailsTheStep() {
        // given
        FailedReviewThreshold threshold = FailedReviewThreshold.defaults();

        // when / then
        assertThatThrownBy(() -> threshold.check(3, 20))
                .isInstanceOfSatisfying(ReviewStepFailedException.class, e -> {
                    assertThat(e.failed()).isEqualTo(3);
                    assertThat(e.total()).isEqualTo(20);
                    assertThat(e.threshold()).isEqualTo(0.10);
                    assertThat(e.getMessage()).contains("3 of 20").contains("15.0 %").contains("10.0 %");
                });
        assertThatCode(() -> threshold.check(2, 20)).doesNotThrowAnyException();
    }

    @Test
    void badThresholdsAndCountsAreRefused() {
        assertThatThrownBy(() -> new FailedReviewThreshold(1.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FailedReviewThreshold(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FailedReviewThreshold.defaults().exceeded(3, 2)).isInstanceOf(IllegalArgumentException.class);
    }
}
