package dev.santabatch.prepass.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.RuleSpec;
import dev.santabatch.config.RuleSpec.FixKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LengthTests {

    /** min | max | text | verdict (ok, short, long). */
    @ParameterizedTest(name = "[{index}] {0}-{1}: {2}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            5 | 10 | abcde      | ok
            5 | 10 | abcd       | short
            5 | 10 | abcdefghij | ok
            5 | 10 | abcdefghijk| long
            - | 3  | abc        | ok
            - | 3  | abcd       | long
            3 | -  | ab         | short
            3 | -  | abcdefghijklmnopqrstuvwxyz | ok
            - | -  | ''         | ok
            4 | 4  | 😀😀😀😀      | ok
            5 | 5  | 😀😀😀😀      | short
            """)
    void countsCodePoints(Integer min, Integer max, String text, String verdict) {
        RuleEngine e = new RuleEngine(List.of(Fixtures.criterion("length",
                new RuleSpec.Length("length-bounds", min, max, FixKind.NONE))));
        List<Violation> v = e.check(text, Map.of());
        switch (verdict) {
            case "ok" -> assertThat(v).isEmpty();
            case "short" -> assertThat(v).singleElement().extracting(Violation::message).asString()
                    .startsWith("length: ").contains("shorter than the minimum of " + min);
            default -> assertThat(v).singleElement().extracting(Violation::message).asString()
                    .startsWith("length: ").contains("longer than the maximum of " + max);
        }
        RuleOutcome o = e.apply(text, Map.of());
        assertThat(o.text()).isEqualTo(text);
        assertThat(o.mustEscalate()).isEqualTo(!verdict.equals("ok"));
        assertThat(o.rules().get(0).unfixable()).isEqualTo(v.size());
    }
}
