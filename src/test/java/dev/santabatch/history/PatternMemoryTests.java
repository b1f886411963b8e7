package dev.santabatch.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.history.PatternMemory.Pattern;
import dev.santabatch.history.PatternMemory.RunPattern;
import dev.santabatch.patterns.EmbeddingIssueSimilarity;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pattern is seen again when an earlier run had one with the same criterion and label, case and
 * spacing aside, or a label the job's pattern similarity (the real embedding model) calls the same.
 */
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

    private static final String WARRANTY_3 = "accuracy: the text states a 3-year warranty but the source says 1 years";
    private static final String WARRANTY_5 = "accuracy: the text states a 5-year warranty but the source says 3 years";
    private static final String WARRANTY_4 = "accuracy: the text states a 4-year warranty but the source says 2 years";
    private static final String WARRANTY_6 = "accuracy: the text states a 6-year warranty but the source says 4 years";
    private static final String SHOP = "on-specification: carries the shop-now boilerplate sentence";
    private static final String SHIPPING = "on-specification: promises free shipping, which the facts do not give";
    private static final String BATTERY = "accuracy: the battery lasts 10 hours but the source says 8 hours";

    @Test
    void tonightsPatternsAreSeenAgainNewOrLeaveTheLastRunsNotSeenBySimilarLabels() {
        // given two earlier nights: the warranty pattern on both (other numbers in each label), the
        // shop-now sentence on the second, the last exported one
        List<RunPattern> earlier = List.of(new RunPattern("n1", "r1-p1", "accuracy", WARRANTY_3),
                new RunPattern("n2", "r1-p1", "accuracy", WARRANTY_5),
                new RunPattern("n2", "r1-p2", "on-specification", SHOP));
        // and tonight: the warranty pattern in two rounds, and two patterns no night had
        List<RunPattern> tonight = List.of(new RunPattern("n3", "r1-p1", "accuracy", WARRANTY_4),
                new RunPattern("n3", "r1-p2", "on-specification", SHIPPING),
                new RunPattern("n3", "r2-p1", "accuracy", WARRANTY_6),
                new RunPattern("n3", "r2-p2", "accuracy", BATTERY));

        // when matched with the job's pattern similarity
        PatternMemory.Memory m = PatternMemory.match(tonight, earlier, "n2", new EmbeddingIssueSimilarity(0.45)::same);

        // then the warranty pattern is seen again once, known by its first label; the rest are new
        assertThat(m.seenAgain()).containsExactly(new PatternMemory.SeenAgain("accuracy", WARRANTY_3, WARRANTY_4,
                List.of("r1-p1", "r2-p1"), "n1", "n2"));
        assertThat(m.fresh()).containsExactly(new PatternMemory.Group("on-specification", SHIPPING, List.of("r1-p2")),
                new PatternMemory.Group("accuracy", BATTERY, List.of("r2-p2")));
        assertThat(m.notSeen()).containsExactly(new PatternMemory.Group("on-specification", SHOP, List.of("r1-p2")));
        assertThat(m.earlierRuns()).isEqualTo(2);
        assertThat(m.counts()).isEqualTo(new PatternMemory.Counts(2, 1));
        // by text alone, the warranty labels (other numbers) are three patterns, each new
        PatternMemory.Memory exact = PatternMemory.match(tonight, earlier, "n2", PatternMemory.EXACT);
        assertThat(exact.seenAgain()).isEmpty();
        assertThat(exact.counts()).isEqualTo(new PatternMemory.Counts(4, 0));
        assertThat(exact.notSeen()).hasSize(2);
    }
}
