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

/**
 * Whole word only: a different word that starts or ends with a term ("curator", "miraculous",
 * "secure", "manicure") is not a hit; a hyphen is a word boundary, so "cure-all" holds "cure".
 */
class ForbiddenTermsTests {

    private final RuleEngine engine = new RuleEngine(
            List.of(Fixtures.criterion("compliance", Fixtures.forbidden(FixKind.SUBSTITUTE))));

    /** text | fixed text. */
    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            This cream is a miracle.                  | This cream is a remarkable.
            MIRACLE formula inside.                   | REMARKABLE formula inside.
            Miracles happen every day.                | Remarkable happen every day.
            It cures headaches.                       | It relieves headaches.
            Cures headaches fast.                     | Relieves headaches fast.
            It cured my back pain.                    | It relieved my back pain.
            Curing made easy.                         | Relieving made easy.
            A CURE for dry skin.                      | A RELIEVE for dry skin.
            It will revolutionize your kitchen.       | It will transform your kitchen.
            It revolutionizes cooking.                | It transforms cooking.
            It revolutionized cooking.                | It transformed cooking.
            Revolutionizing the way you cook.         | Transforming the way you cook.
            It revolutionises cooking.                | It transforms cooking.
            Revolutionising the way you cook.         | Transforming the way you cook.
            It will revolutionise your kitchen.       | It will transform your kitchen.
            Start a risk-free trial.                  | Start a low-risk trial.
            Start a risk free trial.                  | Start a low-risk trial.
            Start a Risk-Free trial.                  | Start a Low-risk trial.
            Start a RISK-FREE trial.                  | Start a LOW-RISK trial.
            Clinically proven to work.                | Tested to work.
            It is clinically   proven.                | It is tested.
            It is clinically-proven.                  | It is tested.
            It is CLINICALLY PROVEN.                  | It is TESTED.
            A miracle, a cure and a risk-free offer.  | A remarkable, a relieve and a low-risk offer.
            """)
    void substitutesWithInflectionAndCase(String text, String fixed) {
        assertThat(engine.check(text, Map.of())).isNotEmpty()
                .allSatisfy(v -> assertThat(v.message()).startsWith("compliance: uses the banned term"));
        RuleOutcome o = engine.apply(text, Map.of());
        assertThat(o.text()).isEqualTo(fixed);
        assertThat(o.remaining()).isEmpty();
    }

    @Test
    void multiLineWhitespaceAndSpanOffsets() {
        String text = "It is clinically\nproven, truly.";
        List<Violation> v = engine.check(text, Map.of());
        assertThat(v).singleElement().satisfies(x -> {
            assertThat(text.substring(x.start(), x.end())).isEqualTo("clinically\nproven");
            assertThat(x.message()).isEqualTo("compliance: uses the banned term \"clinically\nproven\" (clinically proven)");
        });
        assertThat(engine.apply(text, Map.of()).text()).isEqualTo("It is tested, truly.");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "The curator chose it.", "A miraculous find.", "It arrived miraculously intact.", "Secure the lid.",
        "A manicure set.", "Procured from local farms.", "Revolutionary design.", "A revolution in sound.",
        "Free of risk, full of flavour.", "Clinically tested and proven durable.", "Curtains and cures-nothing"
    })
    void differentWordsAreNotHits(String text) {
        if (text.startsWith("Curtains")) {
            // "cures" before a hyphen is still the word "cures"
            assertThat(engine.check(text, Map.of())).hasSize(1);
            return;
        }
        assertThat(engine.check(text, Map.of())).isEmpty();
        assertThat(engine.apply(text, Map.of()).text()).isEqualTo(text);
    }

    @Test
    void substitutionChangesOnlyTheSpan() {
        String text = "Line one stays.\n  Our miracle balm cures\tdry skin!  End.";
        String fixed = engine.apply(text, Map.of()).text();
        assertThat(fixed).isEqualTo("Line one stays.\n  Our remarkable balm relieves\tdry skin!  End.");
        int a = text.indexOf("miracle");
        assertThat(fixed).startsWith(text.substring(0, a));
        assertThat(fixed).endsWith(text.substring(text.indexOf("cures") + "cures".length()));
    }

    @Test
    void patternsMatchAndSubstituteWhenTheyHaveAReplacement() {
        RuleSpec.ForbiddenTerms spec = new RuleSpec.ForbiddenTerms("absolute", List.of(),
                List.of("\\b100\\s*% (?:safe|effective)\\b", "\\bbest ever\\b"),
                Map.of("\\b100\\s*% (?:safe|effective)\\b", "well tolerated"), FixKind.SUBSTITUTE);
        RuleEngine e = new RuleEngine(List.of(Fixtures.criterion("compliance", spec)));
        String text = "It is 100% safe. The BEST EVER blender.";
        List<Violation> v = e.check(text, Map.of());
        assertThat(v).hasSize(2);
        assertThat(v.get(0).message()).startsWith("compliance: matches the banned pattern");
        RuleOutcome o = e.apply(text, Map.of());
        assertThat(o.text()).isEqualTo("It is well tolerated. The BEST EVER blender.");
        assertThat(o.remaining()).singleElement().extracting(Violation::ruleId).isEqualTo("absolute");
        assertThat(o.rules().get(0).found()).isEqualTo(2);
        assertThat(o.rules().get(0).fixed()).isEqualTo(1);
        assertThat(o.rules().get(0).unfixable()).isEqualTo(1);
    }

    @Test
    void removeSentenceRemovesTheSentence() {
        RuleEngine e = new RuleEngine(
                List.of(Fixtures.criterion("compliance", Fixtures.forbidden(FixKind.REMOVE_SENTENCE))));
        RuleOutcome o = e.apply("Great taste. It cures colds and is a miracle. Buy now.", Map.of());
        assertThat(o.text()).isEqualTo("Great taste. Buy now.");
        assertThat(o.rules().get(0).found()).isEqualTo(2);
        assertThat(o.rules().get(0).fixed()).isEqualTo(2);
    }

    @Test
    void inflectionHelpers() {
        assertThat(ForbiddenTermsRule.inflect("relieve", ForbiddenTermsRule.Form.ED)).isEqualTo("relieved");
        assertThat(ForbiddenTermsRule.inflect("relieve", ForbiddenTermsRule.Form.ING)).isEqualTo("relieving");
        assertThat(ForbiddenTermsRule.inflect("remarkable", ForbiddenTermsRule.Form.S)).isEqualTo("remarkable");
        assertThat(ForbiddenTermsRule.inflect("low-risk", ForbiddenTermsRule.Form.S)).isEqualTo("low-risk");
        assertThat(ForbiddenTermsRule.inflect("soothe gently", ForbiddenTermsRule.Form.S)).isEqualTo("soothe gently");
        assertThat(ForbiddenTermsRule.inflect("wonder", ForbiddenTermsRule.Form.S)).isEqualTo("wonders");
        assertThat(ForbiddenTermsRule.inflect("remedy", ForbiddenTermsRule.Form.ED)).isEqualTo("remedy");
    }
}
