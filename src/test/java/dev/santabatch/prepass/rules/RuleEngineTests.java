package dev.santabatch.prepass.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.RuleSpec;
import dev.santabatch.config.RuleSpec.FixKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RuleEngineTests {

    private final RuleEngine engine = new RuleEngine(Fixtures.defaultRubric());

    private static Map<String, String> item(String category, String warranty, String battery) {
        return Fixtures.fields("category", category, "warranty_years", warranty, "battery_hours", battery,
                "price", "49.99", "name", "Boom X200");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "The Boom X200 speaker costs $49.99, has a 2-year warranty and plays for 30 hours per charge.",
        "A compact speaker with two years of coverage.\n\nThirty hours of playback from one battery.  Enjoy!",
        "Weighs 2.5 kg. Model No. 5 of the series, released in 2019, with 3 speakers and 50% more bass.",
    })
    void cleanTextIsByteIdenticalAndHasNoViolations(String text) {
        Map<String, String> f = item("audio", "2", "30");
        assertThat(engine.check(text, f)).isEmpty();
        RuleOutcome o = engine.apply(text, f);
        assertThat(o.text()).isSameAs(text);
        assertThat(o.changed()).isFalse();
        assertThat(o.mustEscalate()).isFalse();
        assertThat(o.found()).isZero();
        assertThat(o.rules()).extracting(RuleResult::ruleId)
                .containsExactly("forbidden-claims", "supplement-disclaimer", "grounded-numbers", "length-bounds");
    }

    @Test
    void fixesEveryKindAndCountsPerRule() {
        String text = "This miracle formula cured my fatigue. Each bottle is covered by a 5-year guarantee.";
        RuleOutcome o = engine.apply(text, item("supplements", "1", ""));
        assertThat(o.text()).isEqualTo("This remarkable formula relieved my fatigue. Each bottle is covered by a "
                + "1-year guarantee. " + Fixtures.DISCLAIMER);
        assertThat(o.changed()).isTrue();
        assertThat(o.mustEscalate()).isFalse();
        assertThat(o.remaining()).isEmpty();
        assertThat(o.rules()).extracting(RuleResult::found).containsExactly(2, 1, 1, 0);
        assertThat(o.rules()).extracting(RuleResult::fixed).containsExactly(2, 1, 1, 0);
        assertThat(o.rules()).extracting(RuleResult::unfixable).containsExactly(0, 0, 0, 0);
        assertThat(o.found()).isEqualTo(4);
        assertThat(o.fixed()).isEqualTo(4);
        assertThat(o.rules().get(0).violations()).extracting(Violation::message).containsExactly(
                "compliance: uses the banned term \"miracle\" (miracle)",
                "compliance: uses the banned term \"cured\" (cure)");
    }

    @Test
    void checkReportsEveryViolationWithCriterionPrefix() {
        List<Violation> v = engine.check("A cure. 5-year warranty.", item("supplements", "2", "30"));
        assertThat(v).extracting(Violation::criterionId)
                .containsExactly("compliance", "disclaimer", "factual-accuracy", "length");
        assertThat(v).allSatisfy(x -> assertThat(x.message()).startsWith(x.criterionId() + ": "));
    }

    @Test
    void fixThatDoesNotClearIsUnfixable() {
        RuleSpec.ForbiddenTerms bad = new RuleSpec.ForbiddenTerms("forbidden-claims", List.of("cure"), List.of(),
                Map.of("cure", "miracle cure"), FixKind.SUBSTITUTE);
        RuleEngine e = new RuleEngine(List.of(Fixtures.criterion("compliance", bad)));
        RuleOutcome o = e.apply("It is a cure for everything.", Map.of());
        assertThat(o.rules().get(0).found()).isEqualTo(1);
        assertThat(o.rules().get(0).fixed()).isZero();
        assertThat(o.rules().get(0).unfixable()).isEqualTo(1);
        assertThat(o.mustEscalate()).isTrue();
        assertThat(o.remaining()).singleElement().extracting(Violation::ruleId).isEqualTo("forbidden-claims");
    }

    @Test
    void termWithoutReplacementIsUnfixable() {
        RuleSpec.ForbiddenTerms spec = new RuleSpec.ForbiddenTerms("forbidden-claims", List.of("cure", "miracle"),
                List.of(), Map.of("cure", "relieve"), FixKind.SUBSTITUTE);
        RuleOutcome o = new RuleEngine(List.of(Fixtures.criterion("compliance", spec)))
                .apply("A miracle cure.", Map.of());
        assertThat(o.text()).isEqualTo("A miracle relieve.");
        assertThat(o.rules().get(0).fixed()).isEqualTo(1);
        assertThat(o.rules().get(0).unfixable()).isEqualTo(1);
    }

    @Test
    void ruleWithoutFixEscalatesAndLeavesTheTextAlone() {
        RuleOutcome o = engine.apply("Too short.", item("audio", "2", "30"));
        assertThat(o.text()).isEqualTo("Too short.");
        assertThat(o.changed()).isFalse();
        assertThat(o.mustEscalate()).isTrue();
        assertThat(o.rules().get(3).unfixable()).isEqualTo(1);
        assertThat(o.remaining()).singleElement().extracting(Violation::message).asString()
                .startsWith("length: text is 10 characters");
    }

    @Test
    void aFixThatBreaksAnotherRuleIsUnfixable() {
        // appending the disclaimer pushes the text over a small maximum; the length rule runs first
        RuleEngine e = new RuleEngine(List.of(
                Fixtures.criterion("length", new RuleSpec.Length("length-bounds", null, 60, FixKind.NONE)),
                Fixtures.criterion("disclaimer", Fixtures.disclaimer(FixKind.APPEND))));
        RuleOutcome o = e.apply("Vitamin C for every day.", item("supplements", "", ""));
        assertThat(o.rules().get(0).found()).isZero();
        assertThat(o.rules().get(0).unfixable()).isEqualTo(1);
        assertThat(o.rules().get(1).fixed()).isEqualTo(1);
        assertThat(o.mustEscalate()).isTrue();
        assertThat(o.remaining()).singleElement().extracting(Violation::ruleId).isEqualTo("length-bounds");

        // the same rules in the other order: the length rule sees the appended text
        RuleEngine reversed = new RuleEngine(List.of(
                Fixtures.criterion("disclaimer", Fixtures.disclaimer(FixKind.APPEND)),
                Fixtures.criterion("length", new RuleSpec.Length("length-bounds", null, 60, FixKind.NONE))));
        RuleOutcome r = reversed.apply("Vitamin C for every day.", item("supplements", "", ""));
        assertThat(r.rules().get(1).found()).isEqualTo(1);
        assertThat(r.rules().get(1).unfixable()).isEqualTo(1);
        assertThat(r.text()).isEqualTo(o.text());
    }

    /** text | warranty | battery | fixed: every fix changes only the offending span. */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            Intro line.\\n  It is a MIRACLE!\\tTruly.  \\n  | 2 | 30 | Intro line.\\n  It is a REMARKABLE!\\tTruly.  \\n
            Tabs\\there: a 3-year warranty;   ok?             | 2 | 30 | Tabs\\there: a 2-year warranty;   ok?
            ¡Olé! — “Risk-free” returns and 12 hrs of playback. | 2 | 30 | ¡Olé! — “Low-risk” returns and 30 hrs of playback.
            """)
    void onlyTheOffendingSpanChanges(String text, String warranty, String battery, String fixed) {
        String t = text.replace("\\n", "\n").replace("\\t", "\t");
        String f = fixed.replace("\\n", "\n").replace("\\t", "\t");
        RuleOutcome o = engine.apply(t + " Long enough now for the length rule.", item("audio", warranty, battery));
        assertThat(o.text()).isEqualTo(f + " Long enough now for the length rule.");
        assertThat(o.remaining()).isEmpty();
    }

    @Test
    void randomTextsNeverThrowAndFixedTextsAreAFixedPoint() {
        String[] fragments = {
            "The Boom X200 speaker costs $49.99.", "It has a 5-year warranty.", "Enjoy 20–30 hours of playback.",
            "A miracle!", "It CURES boredom.", "Risk free returns within 30 days.", "Two years of coverage.",
            "Guaranteed for a year and a half.", "The battery lasts 1,800 minutes, e.g. on low volume.",
            "Clinically\nproven.", "Ask Dr. Smith about it.", "Fully charges in 2 hours.", "  ", "\n\n",
            "between two and three years of warranty", "30+ hours of battery", "Half an hour of runtime.",
            "A 12-month guarantee", "released in 2019", "Revolutionising sound", "It's 100% risk-free!",
        };
        java.util.Random random = new java.util.Random(20261130);
        for (int i = 0; i < 2000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = 1 + random.nextInt(6);
            for (int j = 0; j < n; j++) {
                sb.append(fragments[random.nextInt(fragments.length)]).append(random.nextBoolean() ? " " : "");
            }
            String text = sb.toString();
            Map<String, String> f = item(random.nextBoolean() ? "supplements" : "audio",
                    String.valueOf(1 + random.nextInt(3)), random.nextBoolean() ? "" : String.valueOf(10 * (1 + random.nextInt(4))));
            RuleOutcome o = engine.apply(text, f);
            assertThat(o.remaining()).as(text).isEqualTo(engine.check(o.text(), f));
            if (!o.mustEscalate()) {
                RuleOutcome again = engine.apply(o.text(), f);
                assertThat(again.changed()).as(text).isFalse();
            }
        }
    }

    @Test
    void ruleIdsInRubricOrder() {
        assertThat(engine.ruleIds())
                .containsExactly("forbidden-claims", "supplement-disclaimer", "grounded-numbers", "length-bounds");
    }
}
