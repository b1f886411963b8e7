package dev.santabatch.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.job.RuleSpec.FixKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NumberGroundingTests {

    private final RuleEngine correct = new RuleEngine(
            List.of(Fixtures.criterion("factual-accuracy", Fixtures.grounding(FixKind.CORRECT))));
    private final RuleEngine remove = new RuleEngine(
            List.of(Fixtures.criterion("factual-accuracy", Fixtures.grounding(FixKind.REMOVE_SENTENCE))));

    private static Map<String, String> fields(String warranty, String battery) {
        return Fixtures.fields("warranty_years", warranty, "battery_hours", battery);
    }

    /** text | warranty_years | battery_hours | verdict | fixed text (empty: unchanged). */
    @ParameterizedTest(name = "[{index}] {0} (w={1}, b={2}) -> {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # digits, hyphenated adjective
            Comes with a 2-year warranty.                       | 2   | 30  | ok        |
            Comes with a 5-year warranty.                       | 2   | 30  | violation | Comes with a 2-year warranty.
            Includes a 2 year warranty.                         | 1   | 30  | violation | Includes a 1 year warranty.
            # number words, hyphenated, capitalised, all caps
            Comes with a two-year warranty.                     | 2   | 30  | ok        |
            Comes with a two-year warranty.                     | 3   | 30  | violation | Comes with a three-year warranty.
            Two years of coverage are included.                 | 2   | 30  | ok        |
            Two years of coverage are included.                 | 3   | 30  | violation | Three years of coverage are included.
            WARRANTY: TWO YEARS.                                | 3   | 30  | violation | WARRANTY: THREE YEARS.
            Warranty of twenty-four months.                     | 3   | 30  | violation | Warranty of thirty-six months.
            # an intensifier between the number and its unit (held-out generator phrasing)
            Coverage runs for three full years.                 | 3   | 30  | ok        |
            Coverage runs for three full years.                 | 2   | 30  | violation | Coverage runs for two full years.
            Warranty support lasts 5 years.                     | 2   | 30  | violation | Warranty support lasts 2 years.
            The 53-hour battery outlasts a long day.            | 2   | 53  | ok        |
            The battery easily lasts a full day.                | 2   | 53  | ok        |
            # abbreviations, colon style
            'Warranty: 2 yrs.'                                  | 2   | 30  | ok        |
            'Warranty: 3 yrs.'                                  | 2   | 30  | violation | 'Warranty: 2 yrs.'
            1-year warranty and a 24h battery.                  | 1   | 24  | ok        |
            1-year warranty and a 24h battery.                  | 1   | 12  | violation | 1-year warranty and a 12h battery.
            # other units, converted
            Covered for 24 months against defects.              | 2   | 30  | ok        |
            Covered for 24 months against defects.              | 3   | 30  | violation | Covered for 36 months against defects.
            Backed by a 36-month guarantee.                     | 3   | 30  | ok        |
            Backed by a 36-month guarantee.                     | 2   | 30  | violation | Backed by a 24-month guarantee.
            The battery lasts 1,800 minutes.                    | 2   | 30  | ok        |
            The battery lasts 1,800 minutes.                    | 2   | 40  | violation | The battery lasts 2,400 minutes.
            A 52-week warranty is included.                     | 1   | 30  | ok        |
            # articles and halves
            Guaranteed for a year.                              | 1   | 30  | ok        |
            Guaranteed for a year.                              | 2   | 30  | violation | Guaranteed for two years.
            An hour of playback per charge.                     | 1   | 1   | ok        |
            Guaranteed for half a year.                         | 0.5 | 30  | ok        |
            Guaranteed for half a year.                         | 1   | 30  | violation | Guaranteed for one year.
            Covered for one and a half years.                   | 1.5 | 30  | ok        |
            Covered for one and a half years.                   | 2   | 30  | violation | Covered for two years.
            It has a year and a half of coverage.               | 1.5 | 30  | ok        |
            Covered for 1 year of use.                          | 2   | 30  | violation | Covered for 2 years of use.
            Covered for 2 years of use.                         | 1   | 30  | violation | Covered for 1 year of use.
            # decimals
            Warranty covers 2.5 years.                          | 2.5 | 30  | ok        |
            Warranty covers 2.5 years.                          | 3   | 30  | violation | Warranty covers 3 years.
            Warranty covers 2 years.                            | 2.25| 30  | violation | Warranty covers 2.3 years.
            The warranty covers 18 months.                      | 1.5 | 30  | ok        |
            # ranges
            Offers 20–30 hours of playback.                     | 2   | 25  | ok        |
            Offers 20–30 hours of playback.                     | 2   | 40  | violation | Offers 40 hours of playback.
            Battery lasts between 20 and 30 hours.              | 2   | 35  | violation | Battery lasts 35 hours.
            Battery lasts between 20 and 30 hours.              | 2   | 30  | ok        |
            'Warranty: 2-3 years.'                              | 4   | 30  | violation | 'Warranty: 4 years.'
            'Battery life: 8 hours to 10 hours.'                | 2   | 12  | violation | 'Battery life: 12 hours.'
            # up to
            Enjoy up to thirty hours of battery life.           | 2   | 30  | ok        |
            Enjoy up to thirty hours of battery life.           | 2   | 20  | violation | Enjoy up to twenty hours of battery life.
            Ten hours of runtime on one charge.                 | 2   | 10  | ok        |
            Ten hours of runtime on one charge.                 | 2   | 12  | violation | Twelve hours of runtime on one charge.
            # numbers that belong to other things
            It costs $49.99 and has a 2-year warranty.          | 2   | 30  | ok        |
            It costs $49.99 and has a 2-year warranty.          | 1   | 30  | violation | It costs $49.99 and has a 1-year warranty.
            It has 3 speakers and a 2-year warranty.            | 2   | 30  | ok        |
            Released in 2019, it has a 1-year warranty.         | 1   | 30  | ok        |
            The X200 has a 2-year warranty and 3 settings.      | 2   | 30  | ok        |
            Save 50% today on a 2-year warranty.                | 2   | 30  | ok        |
            Fully charges in 2 hours; the battery lasts 30 hours. | 2 | 30  | ok        |
            Enjoy 30 hours of music anywhere.                   | 2   | 10  | ok        |
            A sturdy product that has been sold for 10 years.   | 2   | 10  | ok        |
            # two attributes in one sentence: nearest keyword wins
            A 2-year warranty and 30 hours of battery life.     | 2   | 30  | ok        |
            A 2-year warranty and 30 hours of battery life.     | 3   | 20  | violation | A 3-year warranty and 20 hours of battery life.
            'The battery lasts 30 hours, and it has a 5-year warranty.' | 2 | 30 | violation | 'The battery lasts 30 hours, and it has a 2-year warranty.'
            30 hours of playback and a two-year guarantee.      | 2   | 30  | ok        |
            The warranty lasts 2 years. Battery: 30 hours.      | 2   | 30  | ok        |
            # adjective quantities belong to the noun they modify; money-back guarantees are not warranties
            A 30-day money-back guarantee and a 2-year warranty. | 2  | 30  | ok        |
            A 2-year warranty and 30-day returns.               | 2   | 30  | ok        |
            It has a 2-year limited warranty.                   | 3   | 30  | violation | It has a 3-year limited warranty.
            'Warranty: 2-year.'                                 | 3   | 30  | violation | 'Warranty: 3-year.'
            # rates and frequencies are not quantities of the attribute
            Charge it twice a day; the battery lasts 30 hours.  | 2   | 30  | ok        |
            It checks every 2 hours while on battery.           | 2   | 30  | ok        |
            A second battery doubles the runtime.               | 2   | 30  | ok        |
            # lower bounds
            'Battery: 30+ hours.'                               | 2   | 40  | ok        |
            'Battery: 30+ hours.'                               | 2   | 20  | violation | 'Battery: 20+ hours.'
            At least 30 hours of playback.                      | 2   | 35  | ok        |
            At least 30 hours of playback.                      | 2   | 20  | violation | At least 20 hours of playback.
            # a source value with a unit still grounds
            The battery is rated for 30 hours.                  | 2   | 30h | ok        |
            # more phrasings and numbers about other things
            Charge it for 2 hours to get 30 hours of playback.  | 2   | 30  | ok        |
            A quick 90-minute charge gives you 30 hours of playback. | 2 | 30 | ok       |
            'Backed by a warranty, it plays music for 12 hours straight.' | 2 | 30 | ok   |
            It has a 3-year warranty (versus 1 year for rivals). | 2  | 30  | violation | It has a 2-year warranty (versus 1 year for rivals).
            The warranty on this product covers you for a full 3 years. | 2 | 30 | violation | The warranty on this product covers you for a full 2 years.
            Battery life is rated at 1.25 days.                 | 2   | 30  | ok        |
            Covered for 730 days.                               | 2   | 30  | ok        |
            It offers thirty hrs of play time and a one-year guarantee. | 2 | 30 | violation | It offers thirty hrs of play time and a two-year guarantee.
            Warranty for two to three years.                    | 2   | 30  | ok        |
            An hour of playback per charge.                     | 2   | 2   | violation | Two hours of playback per charge.
            # unit words follow the number's grammar only where they must
            A one year warranty is included.                    | 2   | 30  | violation | A two year warranty is included.
            One year of warranty is included.                   | 2   | 30  | violation | Two years of warranty is included.
            It has 2 years warranty.                            | 1   | 30  | violation | It has 1 year warranty.
            TWO-YEAR WARRANTY INCLUDED.                         | 3   | 30  | violation | THREE-YEAR WARRANTY INCLUDED.
            Twenty four hours of playback.                      | 2   | 36  | violation | Thirty six hours of playback.
            Six months of coverage.                             | 1   | 30  | violation | Twelve months of coverage.
            A 1.5-year warranty.                                | 2   | 30  | violation | A 2-year warranty.
            The battery lasts 2 days.                           | 2   | 48  | ok        |
            The battery lasts 2 days.                           | 2   | 36  | violation | The battery lasts 1.5 days.
            # a decade (optional unit)
            Covered for a decade.                               | 10  | 30  | ok        |
            Covered for a decade.                               | 2   | 30  | violation | Covered for two years.
            # an empty source value means the attribute is not grounded for the item
            A 12-hour battery and a 2-year warranty.            | 2   | ''  | ok        |
            Thirty hours of playback.                           | ''  | ''  | ok        |
            """)
    void groundsQuantities(String text, String warranty, String battery, String verdict, String fixed) {
        Map<String, String> f = fields(warranty, battery);
        List<Violation> violations = correct.check(text, f);
        RuleOutcome outcome = correct.apply(text, f);
        if (verdict.equals("ok")) {
            assertThat(violations).isEmpty();
            assertThat(outcome.text()).isEqualTo(text);
            assertThat(outcome.changed()).isFalse();
        } else {
            assertThat(violations).isNotEmpty().allSatisfy(v -> {
                assertThat(v.message()).startsWith("factual-accuracy: states ");
                assertThat(v.ruleId()).isEqualTo("grounded-numbers");
            });
            assertThat(outcome.text()).isEqualTo(fixed);
            assertThat(outcome.remaining()).isEmpty();
            assertThat(outcome.rules().get(0).fixed()).isEqualTo(violations.size());
        }
    }

    @Test
    void messageNamesTheStatementAndTheSourceValue() {
        List<Violation> v = correct.check("Comes with a 5-year warranty.", fields("2", "30"));
        assertThat(v).singleElement().satisfies(x -> {
            assertThat(x.message()).isEqualTo("factual-accuracy: states \"5-year\" (warranty) but warranty_years is 2");
            assertThat("Comes with a 5-year warranty.".substring(x.start(), x.end())).isEqualTo("5-year");
        });
    }

    @Test
    void correctsSeveralQuantitiesAndLeavesTheRestByteIdentical() {
        String text = "Meet the Boom X200 ($49.99).  It has a 5-year warranty,\nand the battery gives 12 hours of play time. "
                + "Twelve hours, that is!";
        String fixed = correct.apply(text, fields("2", "30")).text();
        assertThat(fixed).isEqualTo("Meet the Boom X200 ($49.99).  It has a 2-year warranty,\n"
                + "and the battery gives 30 hours of play time. Twelve hours, that is!");
    }

    @Test
    void removeSentenceRemovesOnlyTheOffendingSentence() {
        String text = "A fine speaker. It has a 5-year warranty. Order today.";
        RuleOutcome o = remove.apply(text, fields("2", "30"));
        assertThat(o.text()).isEqualTo("A fine speaker. Order today.");
        assertThat(o.remaining()).isEmpty();
    }

    @Test
    void noneFixLeavesViolationUnfixable() {
        RuleEngine none = new RuleEngine(
                List.of(Fixtures.criterion("factual-accuracy", Fixtures.grounding(FixKind.NONE))));
        RuleOutcome o = none.apply("Comes with a 5-year warranty.", fields("2", "30"));
        assertThat(o.text()).isEqualTo("Comes with a 5-year warranty.");
        assertThat(o.mustEscalate()).isTrue();
        assertThat(o.rules().get(0).unfixable()).isEqualTo(1);
    }

    @Test
    void nonNumericSourceValueIsSkipped() {
        assertThat(correct.check("Comes with a 5-year warranty.", fields("lifetime", "30"))).isEmpty();
    }
}
