package dev.santabatch.review.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.review.offline.FixtureSet.Case;
import dev.santabatch.review.offline.FixtureSet.Defect;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The floor tests' scoring ({@link PanelFloorTests.Figures}): a reviewer is scored on its own
 * method's cases plus the clean ones; a flag of the other method's case is neither credited nor
 * charged; the panel is scored on every case.
 */
class PanelScoringTests {

    static final String LEX = FixtureSet.LEXICAL;
    static final String SEM = FixtureSet.SEMANTIC_METHOD;

    @Test
    void perReviewerPrecisionLeavesTheOtherMethodsCasesOut() {
        Map<String, Case> cases = new LinkedHashMap<>();
        cases.put("copy", new Case("copy", List.of(new Defect(FixtureSet.ORIGINAL, LEX))));
        cases.put("para1", new Case("paraphrase", List.of(new Defect(FixtureSet.ORIGINAL, SEM))));
        cases.put("para2", new Case("paraphrase", List.of(new Defect(FixtureSet.ORIGINAL, SEM))));
        cases.put("clean1", new Case("clean", List.of()));
        cases.put("clean2", new Case("clean", List.of()));
        cases.put("escalated", new Case("clean", List.of()));
        // the reviewer fails the copy, both paraphrases (the other method's cases) and one clean item
        Map<String, Set<String>> failed = Map.of("copy", Set.of(FixtureSet.ORIGINAL), "para1", Set.of(FixtureSet.ORIGINAL),
                "para2", Set.of(FixtureSet.ORIGINAL), "clean1", Set.of(FixtureSet.ON_SPEC), "clean2", Set.of(), "escalated", Set.of());

        PanelFloorTests.Figures lexical = PanelFloorTests.Figures.score("lexical", cases, Set.of("escalated"), failed::get, LEX);
        assertThat(lexical.defective()).isEqualTo(1);
        assertThat(lexical.recall()).isEqualTo(1.0);
        assertThat(lexical.flagged()).as("the copy and the clean item, not the paraphrases").isEqualTo(2);
        assertThat(lexical.falsePositives()).isEqualTo(1);
        assertThat(lexical.precision()).isEqualTo(0.5); // 0.75 if the paraphrases were credited
        assertThat(lexical.otherMethod()).isEqualTo(2);
        assertThat(lexical.otherMethodFlagged()).isEqualTo(2);
        assertThat(lexical.clean()).isEqualTo(2);
        assertThat(lexical.escalatedByRules()).isEqualTo(1);

        PanelFloorTests.Figures semantic = PanelFloorTests.Figures.score("semantic", cases, Set.of("escalated"), failed::get, SEM);
        assertThat(semantic.defective()).isEqualTo(2);
        assertThat(semantic.flagged()).as("both paraphrases and the clean item, not the copy").isEqualTo(3);
        assertThat(semantic.precision()).isEqualTo(2.0 / 3);
        assertThat(semantic.otherMethod()).isEqualTo(1);

        PanelFloorTests.Figures panel = PanelFloorTests.Figures.score("panel", cases, Set.of("escalated"), failed::get, null);
        assertThat(panel.defective()).isEqualTo(3);
        assertThat(panel.flagged()).isEqualTo(4);
        assertThat(panel.precision()).isEqualTo(0.75);
        assertThat(panel.otherMethod()).isZero();
    }
}
