package dev.santabatch.batchfix.induction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.RuleSpec;
import dev.santabatch.config.RuleSpec.FixKind;
import dev.santabatch.config.Unit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RuleInducerTests {

    static AcceptedFix fix(String id, String before, String after, Map<String, String> facts) {
        return new AcceptedFix(id, before, after, facts);
    }

    static PatternEvidence pattern(List<AcceptedFix> fixes, List<PassedItem> passed) {
        return new PatternEvidence("accuracy", "accuracy: wrong number", List.of(), fixes, passed);
    }

    static Optional<LearnedRule> induce(List<AcceptedFix> fixes, List<PassedItem> passed) {
        return RuleInducer.induce("learned-1", pattern(fixes, passed), 2);
    }

    /** A wrong warranty replaced by the column's value, in digits, in words and in months. */
    static List<AcceptedFix> warrantyFixes() {
        return List.of(
                fix("a", "A sturdy kettle. It comes with a 5-year warranty.", "A sturdy kettle. It comes with a 2-year warranty.",
                        Map.of("warranty_years", "2", "price", "30")),
                fix("b", "Quiet fan. Backed by a 4 year warranty for peace of mind.",
                        "Quiet fan. Backed by a two year warranty for peace of mind.", Map.of("warranty_years", "2", "price", "45")),
                fix("c", "Bright lamp with a 1-year warranty included.", "Bright lamp with a 36-month warranty included.",
                        Map.of("warranty_years", "3", "price", "12")),
                fix("d", "Solid desk. The warranty runs 10 years.", "Solid desk. The warranty runs 5 years.",
                        Map.of("warranty_years", "5", "price", "200")));
    }

    @Test
    void aNumberReplacedByItsColumnBecomesNumberGroundingOnThatColumn() {
        LearnedRule rule = induce(warrantyFixes(), List.of()).orElseThrow();

        assertThat(rule.shape()).isEqualTo(Shape.NUMBER_CORRECTED);
        RuleSpec.NumberGrounding g = (RuleSpec.NumberGrounding) rule.spec();
        assertThat(g.fix()).isEqualTo(FixKind.CORRECT);
        assertThat(g.attributes()).singleElement().satisfies(a -> {
            assertThat(a.column()).isEqualTo("warranty_years");
            assertThat(a.unit()).isEqualTo(Unit.YEAR);
            assertThat(a.keywords()).contains("warranty");
        });
        assertThat(rule.supportItems()).containsExactly("a", "b", "c", "d");
        // the learned rule finds and corrects an unseen item
        Map<String, String> facts = Map.of("warranty_years", "3");
        assertThat(rule.fix("Great toaster with a 7-year warranty.", facts).text())
                .isEqualTo("Great toaster with a 3-year warranty.");
        assertThat(rule.flags("Great toaster with a 3-year warranty.", facts)).isFalse();
    }

    @Test
    void aDistanceCorrectedInKilometresOrMilesBecomesNumberGroundingInKilometres() {
        List<AcceptedFix> fixes = List.of(
                fix("a", "A bright flat. It is 12 km from the beach.", "A bright flat. It is 3 km from the beach.",
                        Map.of("distance_km", "3", "rating", "4")),
                fix("b", "Quiet cabin, 9 km from the beach.", "Quiet cabin, 1.9 miles from the beach.",
                        Map.of("distance_km", "3", "rating", "5")),
                fix("c", "Loft with a view, just 20 km from the beach.", "Loft with a view, just 8 km from the beach.",
                        Map.of("distance_km", "8", "rating", "3")));

        LearnedRule rule = induce(fixes, List.of()).orElseThrow();

        RuleSpec.NumberGrounding g = (RuleSpec.NumberGrounding) rule.spec();
        assertThat(g.attributes()).singleElement().satisfies(a -> {
            assertThat(a.column()).isEqualTo("distance_km");
            assertThat(a.unit()).isEqualTo(Unit.KILOMETRE);
            assertThat(a.keywords()).contains("beach");
        });
        assertThat(rule.fix("Tiny house, 40 km from the beach.", Map.of("distance_km", "5")).text())
                .isEqualTo("Tiny house, 5 km from the beach.");
    }

    @Test
    void aRecurringRemovedSentenceBecomesForbiddenTermsOnTheSharedPhrase() {
        List<AcceptedFix> fixes = List.of(
                fix("a", "A fine chair. Order now, stocks are limited! Oak legs.", "A fine chair. Oak legs.", Map.of()),
                fix("b", "Soft rug. Woven wool. Order now, stocks are limited.", "Soft rug. Woven wool.", Map.of()),
                fix("c", "Order now: stocks are limited today. Tall vase in glass.", "Tall vase in glass.", Map.of()));
        List<PassedItem> passed = List.of(new PassedItem("p", "A lamp. Order now for delivery on Monday.", Map.of()));

        LearnedRule rule = induce(fixes, passed).orElseThrow();

        assertThat(rule.shape()).isEqualTo(Shape.SENTENCE_REMOVED);
        RuleSpec.ForbiddenTerms t = (RuleSpec.ForbiddenTerms) rule.spec();
        assertThat(t.fix()).isEqualTo(FixKind.REMOVE_SENTENCE);
        // "order now" is in a passed item: the shared phrase is the one only the removed sentences hold
        assertThat(t.terms()).containsExactly("stocks are limited");
        assertThat(rule.fix("Green mug. Hurry, stocks are limited. Dishwasher safe.", Map.of()).text())
                .isEqualTo("Green mug. Dishwasher safe.");
    }

    @Test
    void anAppendedSentenceBecomesRequiredPhraseWhenTheColumnThatSeparatesTheItems() {
        String notice = "Tourist tax is paid on arrival.";
        List<AcceptedFix> fixes = List.of(
                fix("a", "A flat near the harbour.", "A flat near the harbour. " + notice, Map.of("region", "North", "city", "Oslo")),
                fix("b", "Cosy cabin.", "Cosy cabin. " + notice, Map.of("region", "north", "city", "Bodo")),
                fix("c", "Loft with a view.", "Loft with a view. " + notice, Map.of("region", "North", "city", "Tromso")),
                fix("d", "Old farmhouse.", "Old farmhouse. " + notice, Map.of("region", "North", "city", "Alta")));
        List<PassedItem> passed = List.of(
                new PassedItem("p", "A villa.", Map.of("region", "South", "city", "Oslo")),
                new PassedItem("q", "A hut. " + notice, Map.of("region", "North", "city", "Bodo")));

        LearnedRule rule = induce(fixes, passed).orElseThrow();

        assertThat(rule.shape()).isEqualTo(Shape.SENTENCE_APPENDED);
        RuleSpec.RequiredPhrase p = (RuleSpec.RequiredPhrase) rule.spec();
        // city does not separate them (a passed item without the sentence is in Oslo); region does
        assertThat(p.column()).isEqualTo("region");
        assertThat(p.values()).containsExactly("North");
        assertThat(p.phrase()).isEqualTo(notice);
        assertThat(p.fix()).isEqualTo(FixKind.APPEND);
        assertThat(rule.fix("A tent.", Map.of("region", "North")).text()).isEqualTo("A tent. " + notice);
        assertThat(rule.flags("A tent.", Map.of("region", "South"))).isFalse();
    }

    @Test
    void aSubstitutedTermBecomesForbiddenTermsWithItsReplacement() {
        List<AcceptedFix> fixes = List.of(
                fix("a", "This cream is a miracle for dry skin.", "This cream is a help for dry skin.", Map.of()),
                fix("b", "A miracle in every bottle.", "A help in every bottle.", Map.of()),
                fix("c", "Our balm works like a miracle overnight.", "Our balm works like a help overnight.", Map.of()));

        LearnedRule rule = induce(fixes, List.of()).orElseThrow();

        assertThat(rule.shape()).isEqualTo(Shape.TERM_SUBSTITUTED);
        RuleSpec.ForbiddenTerms t = (RuleSpec.ForbiddenTerms) rule.spec();
        assertThat(t.terms()).containsExactly("miracle");
        assertThat(t.replacements()).containsEntry("miracle", "help");
        assertThat(t.fix()).isEqualTo(FixKind.SUBSTITUTE);
        assertThat(rule.fix("Miracle soap.", Map.of()).text()).isEqualTo("Help soap.");
    }

    @Test
    void inflectedFormsOfOneTermAreLearnedAsTheTermWithItsReplacement() {
        // each form appears once: only under its base form does the term recur in two or more fixes
        List<AcceptedFix> fixes = List.of(
                fix("a", "This tonic cures fatigue.", "This tonic relieves fatigue.", Map.of()),
                fix("b", "Thousands were cured by the balm.", "Thousands were relieved by the balm.", Map.of()),
                fix("c", "A CURE for tired feet.", "A RELIEVE for tired feet.", Map.of()));

        LearnedRule rule = induce(fixes, List.of()).orElseThrow();

        RuleSpec.ForbiddenTerms t = (RuleSpec.ForbiddenTerms) rule.spec();
        assertThat(t.terms()).containsExactly("cure");
        assertThat(t.replacements()).containsEntry("cure", "relieve");
        assertThat(rule.support()).isEqualTo(3);
        assertThat(rule.fix("It cures colds.", Map.of()).text()).isEqualTo("It relieves colds.");
        assertThat(RuleInducer.baseForm(new FixShapes.Substitution("miracles", "wonders")))
                .isEqualTo(new FixShapes.Substitution("miracle", "wonder"));
    }

    @Test
    void fixesOfMixedShapesUnderEightyPercentInduceNothing() {
        List<AcceptedFix> numbers = warrantyFixes().subList(0, 3);
        List<AcceptedFix> mixed = List.of(numbers.get(0), numbers.get(1), numbers.get(2),
                fix("x", "A good pan. It is the best pan ever made.", "A good pan.", Map.of()),
                fix("y", "A tidy shelf for any room.", "A tidy shelf for books and plants in any room of the house.",
                        Map.of()));

        assertThat(induce(mixed, List.of())).isEmpty();
        // the same three number fixes alone induce the rule
        assertThat(induce(numbers, List.of())).isPresent();
    }

    @Test
    void fewerFixesThanTheSystematicMinimumInduceNothing() {
        assertThat(RuleInducer.induce("r", pattern(warrantyFixes().subList(0, 2), List.of()), 3)).isEmpty();
    }
}
