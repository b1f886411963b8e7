package dev.santabatch.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.santabatch.review.MergedIssue;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AgreementTests {

    static MergedIssue issue(String... by) {
        return new MergedIssue("issue", "factual-accuracy", Set.of(by));
    }

    @Test
    void flaggedByBothVersusOne() {
        Agreement a = Agreement.of(List.of(issue("B", "C"), issue("B"), issue("C"), issue("B"), issue("B", "C")), 2);
        assertThat(a.issues()).isEqualTo(5);
        assertThat(a.flaggedByAll()).isEqualTo(2);
        assertThat(a.flaggedByOne()).isEqualTo(3);
        assertThat(a.flaggedBySome()).isZero();
        assertThat(a.onlyBy()).isEqualTo(Map.of("B", 2L, "C", 1L));
        assertThat(a.shareByAll().getAsDouble()).isCloseTo(0.4, within(1e-12));
        assertThat(a.shareByOne().getAsDouble()).isCloseTo(0.6, within(1e-12));
    }

    @Test
    void threeReviewers() {
        Agreement a = Agreement.of(List.of(issue("B", "C", "D"), issue("B", "C"), issue("D")), 3);
        assertThat(a.flaggedByAll()).isEqualTo(1);
        assertThat(a.flaggedBySome()).isEqualTo(1);
        assertThat(a.flaggedByOne()).isEqualTo(1);
        assertThat(a.onlyBy()).isEqualTo(Map.of("D", 1L));
    }

    @Test
    void sumsAcrossItemsAndHandlesNoIssues() {
        Agreement empty = Agreement.empty(2);
        assertThat(empty.shareByAll()).isEmpty();
        Agreement one = Agreement.of(List.of(issue("B", "C")), 2);
        Agreement two = Agreement.of(List.of(issue("C"), issue("B")), 2);
        Agreement sum = empty.plus(one).plus(two);
        assertThat(sum.issues()).isEqualTo(3);
        assertThat(sum.flaggedByAll()).isEqualTo(1);
        assertThat(sum.flaggedByOne()).isEqualTo(2);
        assertThat(sum.onlyBy()).isEqualTo(Map.of("B", 1L, "C", 1L));
    }
}
