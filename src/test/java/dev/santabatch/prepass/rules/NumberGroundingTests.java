package dev.santabatch.prepass.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.RuleSpec;
import dev.santabatch.config.RuleSpec.FixKind;
import dev.santabatch.config.RuleSpec.GroundedAttribute;
import dev.santabatch.config.Unit;
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

    /**
     * A listing's facts: a rating, a capacity and bedrooms (counts, no keyword equal to "stars" or
     * "people"), a distance in kilometres and one in miles.
     */
    private final RuleEngine listings = new RuleEngine(List.of(Fixtures.criterion("facts",
            new RuleSpec.NumberGrounding("grounded-facts", List.of(
                    new GroundedAttribute("rating", Unit.COUNT, List.of("rating", "rated")),
                    new GroundedAttribute("sleeps", Unit.COUNT, List.of("sleeps", "guests")),
                    new GroundedAttribute("bedrooms", Unit.COUNT, List.of("bedroom")),
                    new GroundedAttribute("centre_km", Unit.KILOMETRE, List.of("centre")),
                    new GroundedAttribute("airport_mi", Unit.MILE, List.of("airport"))), FixKind.CORRECT))));

    /** text | rating | sleeps | bedrooms | centre_km | airport_mi | verdict | fixed text (empty: unchanged). */
    @ParameterizedTest(name = "[{index}] {0} ({1}/{2}/{3}/{4}/{5}) -> {6}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # a rating in stars: the keyword need not be the noun
            Rated 4 stars by our guests.                        | 4   | 6  | 2 | 3   | 10 | ok        |
            Rated 4 stars by our guests.                        | 4.5 | 6  | 2 | 3   | 10 | violation | Rated 4.5 stars by our guests.
            Rated 4.7 stars.                                    | 4.7 | 6  | 2 | 3   | 10 | ok        |
            It holds a 4-star rating.                           | 3   | 6  | 2 | 3   | 10 | violation | It holds a 3-star rating.
            It holds a four-star rating.                        | 5   | 6  | 2 | 3   | 10 | violation | It holds a five-star rating.
            Its rating is 4 out of 5 stars.                     | 4   | 6  | 2 | 3   | 10 | ok        |
            Its rating is 4 out of 5 stars.                     | 1   | 6  | 2 | 3   | 10 | violation | Its rating is 1 out of 5 stars.
            'Rating: 4/5.'                                      | 3   | 6  | 2 | 3   | 10 | violation | 'Rating: 3/5.'
            Rated 4.8 by 120 guests.                            | 4.8 | 6  | 2 | 3   | 10 | ok        |
            # a capacity: after its keyword, before a people noun, after a collective
            It sleeps 6 guests.                                 | 4   | 6  | 2 | 3   | 10 | ok        |
            It sleeps 6 guests.                                 | 4   | 8  | 2 | 3   | 10 | violation | It sleeps 8 guests.
            The house sleeps up to twelve people.               | 4   | 10 | 2 | 3   | 10 | violation | The house sleeps up to ten people.
            It sleeps groups of 8.                              | 4   | 8  | 2 | 3   | 10 | ok        |
            It sleeps groups of 8.                              | 4   | 10 | 2 | 3   | 10 | violation | It sleeps groups of 10.
            Welcome, 6 guests!                                  | 4   | 4  | 2 | 3   | 10 | violation | Welcome, 4 guests!
            # several counts in one sentence stay with their own attributes
            Sleeps six in two bedrooms.                         | 4   | 6  | 2 | 3   | 10 | ok        |
            Sleeps six in two bedrooms.                         | 4   | 4  | 3 | 3   | 10 | violation | Sleeps four in three bedrooms.
            Five bedrooms for up to 10 guests.                  | 4   | 10 | 5 | 3   | 10 | ok        |
            Five bedrooms for up to 10 guests.                  | 4   | 8  | 4 | 3   | 10 | violation | Four bedrooms for up to 8 guests.
            'Rated 4.8, it sleeps 6 guests in 3 bedrooms.'      | 4.8 | 6  | 3 | 3   | 10 | ok        |
            'Rated 4.8, it sleeps 6 guests in 3 bedrooms.'      | 4.5 | 6  | 2 | 3   | 10 | violation | 'Rated 4.5, it sleeps 6 guests in 2 bedrooms.'
            A 4-star home that sleeps 6.                        | 3   | 6  | 2 | 3   | 10 | ok        |
            One bedroom, sleeps 2.                              | 4   | 2  | 2 | 3   | 10 | violation | Two bedrooms, sleeps 2.
            A cosy one-bedroom flat.                            | 4   | 2  | 2 | 3   | 10 | violation | A cosy two-bedroom flat.
            # numbers that are not counts of the attribute
            Loved by over 300 guests.                           | 4   | 6  | 2 | 3   | 10 | ok        |
            A star attraction, it sleeps 6.                     | 4   | 6  | 2 | 3   | 10 | ok        |
            It has 3 bathrooms and sleeps 6.                    | 4   | 6  | 2 | 3   | 10 | ok        |
            # kilometres: digits, decimals, words; and the miles of a kilometre column
            The centre is 3 km away.                            | 4   | 6  | 2 | 3   | 10 | ok        |
            The centre is 3 km away.                            | 4   | 6  | 2 | 3.5 | 10 | violation | The centre is 3.5 km away.
            The centre is 3.5 kilometres away.                  | 4   | 6  | 2 | 2.2 | 10 | violation | The centre is 2.2 kilometres away.
            The centre is three kilometres away.                | 4   | 6  | 2 | 5   | 10 | violation | The centre is five kilometres away.
            The centre is 2 miles away.                         | 4   | 6  | 2 | 3.2 | 10 | ok        |
            The centre is 2 miles away.                         | 4   | 6  | 2 | 5   | 10 | violation | The centre is 3.1 miles away.
            The centre is two miles away.                       | 4   | 6  | 2 | 4.8 | 10 | violation | The centre is three miles away.
            'The centre: 1.2 mi.'                               | 4   | 6  | 2 | 1.9 | 10 | ok        |
            'The centre: 1.2 mi.'                               | 4   | 6  | 2 | 3   | 10 | violation | 'The centre: 1.9 mi.'
            # miles, and the kilometres of a mile column
            The airport is 10 miles away.                       | 4   | 6  | 2 | 3   | 10 | ok        |
            The airport is 16 km away.                          | 4   | 6  | 2 | 3   | 10 | ok        |
            The airport is 16 km away.                          | 4   | 6  | 2 | 3   | 12 | violation | The airport is 19.3 km away.
            The airport is 16 kilometres away, a 20-minute drive. | 4 | 6  | 2 | 3   | 5  | violation | The airport is 8 kilometres away, a 20-minute drive.
            """)
    void groundsCountsAndDistances(String text, String rating, String sleeps, String bedrooms, String centreKm,
            String airportMi, String verdict, String fixed) {
        Map<String, String> f = Fixtures.fields("rating", rating, "sleeps", sleeps, "bedrooms", bedrooms,
                "centre_km", centreKm, "airport_mi", airportMi);
        List<Violation> violations = listings.check(text, f);
        RuleOutcome outcome = listings.apply(text, f);
        if (verdict.equals("ok")) {
            assertThat(violations).isEmpty();
            assertThat(outcome.text()).isEqualTo(text);
        } else {
            assertThat(violations).isNotEmpty().allSatisfy(v -> assertThat(v.message()).startsWith("facts: states "));
            assertThat(outcome.text()).isEqualTo(fixed);
            assertThat(outcome.remaining()).isEmpty();
        }
    }

    /** Every unit the job file accepts is one the rule finds in text: a wrong value in it is flagged. */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(Unit.class)
    void everyUnitTheJobFileAcceptsIsFoundInText(Unit unit) {
        String noun = unit == Unit.COUNT ? "guests" : java.util.Arrays.stream(NumberGroundingRule.TextUnit.values())
                .filter(t -> t.family == unit.family() && t.toBase == unit.toBase()).findFirst()
                .map(t -> t.word.plural()).orElse("(no text form)");
        RuleEngine engine = new RuleEngine(List.of(Fixtures.criterion("facts", new RuleSpec.NumberGrounding("g",
                List.of(new GroundedAttribute("size", unit, List.of("capacity"))), FixKind.CORRECT))));
        String text = "The capacity is 3 " + noun + ".";
        assertThat(engine.check(text, Fixtures.fields("size", "2"))).as(text).hasSize(1);
        assertThat(engine.apply(text, Fixtures.fields("size", "2")).text()).isEqualTo("The capacity is 2 " + noun + ".");
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
