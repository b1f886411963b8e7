package dev.santabatch.prepass.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.RuleSpec.FixKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequiredPhraseTests {

    private static final String D = Fixtures.DISCLAIMER;

    private final RuleEngine engine = new RuleEngine(
            List.of(Fixtures.criterion("disclaimer", Fixtures.disclaimer(FixKind.APPEND))));

    /** category | text | expected violations. */
    @ParameterizedTest(name = "[{index}] {0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            supplements   | Daily vitamin C.                                                      | 1
            Supplements   | Daily vitamin C.                                                      | 1
            '  SUPPLEMENTS '| Daily vitamin C.                                                    | 1
            audio         | Daily vitamin C.                                                      | 0
            ''            | Daily vitamin C.                                                      | 0
            supplements   | Daily vitamin C. These statements have not been evaluated by the Food and Drug Administration. | 0
            supplements   | Daily vitamin C. these STATEMENTS have not been   evaluated by the food and drug administration | 0
            supplements   | Daily vitamin C. These statements have not been evaluated by the FDA.  | 1
            """)
    void appliesWhenTheColumnHasTheValue(String category, String text, int expected) {
        List<Violation> v = engine.check(text, Fixtures.fields("category", category));
        assertThat(v).hasSize(expected);
        if (expected > 0) {
            assertThat(v.get(0).message()).startsWith("disclaimer: category is ").contains("is missing");
            assertThat(v.get(0).start()).isEqualTo(text.length());
        }
    }

    @Test
    void missingColumnDoesNotApply() {
        assertThat(engine.check("Daily vitamin C.", Map.of())).isEmpty();
    }

    /** text | appended text. */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            Daily vitamin C.         | Daily vitamin C. %s
            Daily vitamin C!         | Daily vitamin C! %s
            Daily vitamin C          | Daily vitamin C. %s
            Is it "the best."        | Is it "the best." %s
            Daily (vitamin C.)       | Daily (vitamin C.) %s
            """)
    void appendsAsANewSentence(String text, String expected) {
        RuleOutcome o = engine.apply(text, Fixtures.fields("category", "supplements"));
        assertThat(o.text()).isEqualTo(expected.formatted(D));
        assertThat(o.text()).startsWith(text);
        assertThat(o.remaining()).isEmpty();
        assertThat(o.rules().get(0).fixed()).isEqualTo(1);
    }

    @Test
    void trailingWhitespaceStaysAtTheEnd() {
        RuleOutcome o = engine.apply("Daily vitamin C.\n", Fixtures.fields("category", "supplements"));
        assertThat(o.text()).isEqualTo("Daily vitamin C. " + D + "\n");
    }

    @Test
    void noFixEscalates() {
        RuleEngine none = new RuleEngine(
                List.of(Fixtures.criterion("disclaimer", Fixtures.disclaimer(FixKind.NONE))));
        RuleOutcome o = none.apply("Daily vitamin C.", Fixtures.fields("category", "supplements"));
        assertThat(o.text()).isEqualTo("Daily vitamin C.");
        assertThat(o.mustEscalate()).isTrue();
    }
}
