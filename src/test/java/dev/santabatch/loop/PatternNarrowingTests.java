package dev.santabatch.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.review.FixExample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * How the narrowing combines its evidence: the offline reviewers' checks for the criteria they
 * judge (with removed passages), word evidence for the others, and the cap reported as found vs
 * kept. The economics on a real catalog are measured in {@code LlmJobFunctionalTests}.
 */
class PatternNarrowingTests {

    static final String BOILER = "Shop now while the limited stock lasts at our store.";

    /** 40 plain items; P3 carries the removed passage; P5 a rare word the fix removed ("lasts"). */
    static List<PatternNarrowing.Item> items() {
        List<PatternNarrowing.Item> out = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String text = "The kettle model " + i + " boils water quickly and has a steel body.";
            if (i == 3) {
                text += " " + BOILER;
            }
            if (i == 5) {
                text += " Its finish lasts.";
            }
            out.add(new PatternNarrowing.Item("P" + i, text));
        }
        return out;
    }

    static PatternNarrowing.Evidence evidence(int no, String criterion) {
        String before = "The toaster has two slots. " + BOILER;
        return new PatternNarrowing.Evidence(no, criterion, List.of(criterion + ": carries the shop boilerplate"),
                List.of(new FixExample(before, "The toaster has two slots.")), List.of(before));
    }

    @Test
    void aCriterionTheOfflineChecksJudgeIsNarrowedByThemAndRemovedPassagesNotByLoneWords() {
        // the checks flag P10 strongly and P20 weakly; nothing in their words links them to the pattern
        PatternNarrowing.Offline offline = new PatternNarrowing.Offline(Set.of("on-specification"),
                Map.of("on-specification", Map.of("P10", 1.0, "P20", 0.1)), Map.of("on-specification", 80L));

        Map<Integer, PatternNarrowing.Narrowed> out = PatternNarrowing.narrow(List.of(evidence(1, "on-specification")),
                items(), 1.0, offline);

        PatternNarrowing.Narrowed n = out.get(1);
        // most of the removed passage (containment 0.8, weighted 2) ranks above one failing check,
        // then the flagged items by their score; the lone removed word of P5 is no evidence here
        assertThat(n.ids()).containsExactly("P3", "P10", "P20");
        assertThat(n.method()).isEqualTo("offline-checks");
        assertThat(n.offlineChecks()).isEqualTo(80);
        assertThat(n.found()).isEqualTo(3);
    }

    @Test
    void anotherCriterionKeepsTheWordEvidence() {
        PatternNarrowing.Offline offline = new PatternNarrowing.Offline(Set.of("on-specification"),
                Map.of("on-specification", Map.of("P10", 2.0)), Map.of("on-specification", 80L));

        PatternNarrowing.Narrowed n = PatternNarrowing.narrow(List.of(evidence(1, "tone")), items(), 1.0, offline).get(1);

        // the lone removed word counts; the checks of another criterion do not
        assertThat(n.ids()).contains("P3", "P5").doesNotContain("P10");
        assertThat(n.method()).isEqualTo("word-evidence");
        assertThat(n.offlineChecks()).isZero();
    }

    @Test
    void theCapKeepsTheBestRankedAndReportsWhatItCut() {
        PatternNarrowing.Offline offline = new PatternNarrowing.Offline(Set.of("original"),
                Map.of("original", Map.of("P10", 3.0, "P11", 2.5, "P12", 1.0, "P13", 0.5)), Map.of("original", 40L));

        // a cap of 5 % of 40 items: 2 candidates
        PatternNarrowing.Narrowed n = PatternNarrowing.narrow(List.of(evidence(1, "original")), items(), 0.05, offline).get(1);

        assertThat(n.ids()).containsExactly("P10", "P11");
        assertThat(n.found()).isEqualTo(5);
    }
}
