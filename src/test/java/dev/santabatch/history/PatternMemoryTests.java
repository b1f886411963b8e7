package dev.santabatch.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.history.PatternMemory.Pattern;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A pattern is seen again when an earlier run had one with the same criterion and label, case and spacing aside. */
class PatternMemoryTests {

    @Test
    void samePatternInOtherCaseAndSpacingIsSeenAgainAnOtherLabelOrCriterionIsNew() {
        List<Pattern> earlier = List.of(new Pattern("on-specification", "carries the shop-now boilerplate sentence"),
                new Pattern("original", "copies another item"));

        PatternMemory.Counts counts = PatternMemory.match(List.of(
                        new Pattern(" On-Specification", "Carries the  SHOP-NOW\tboilerplate sentence "),
                        new Pattern("on-specification", "carries the shop-now boilerplate sentence"), // the same, once
                        new Pattern("on-specification", "copies another item"), // another criterion
                        new Pattern("original", "paraphrases another item")), // another label
                earlier);

        assertThat(counts).isEqualTo(new PatternMemory.Counts(2, 1));
        assertThat(PatternMemory.match(List.of(), earlier)).isEqualTo(new PatternMemory.Counts(0, 0));
        assertThat(PatternMemory.match(earlier, List.of())).isEqualTo(new PatternMemory.Counts(2, 0));
    }
}
