package dev.santabatch.prepass.rules;

import dev.santabatch.config.Unit;
import java.util.List;

/**
 * The quantities a text states, as number grounding finds them (a number or range with a unit it
 * can read): for code outside this package that reasons about numbers the way the rule does, such
 * as rule induction from before/after fixes.
 */
public final class StatedQuantities {

    /**
     * One stated quantity.
     *
     * @param start start offset of the quantity (its number, or its range's first number)
     * @param end end offset (after the unit)
     * @param number the number as written ("4", "four", "2.5"); for a range, its upper end
     * @param value the number's value; for a range, its upper end
     * @param family the unit's family
     * @param toBase the text unit's factor to the family's base unit (see {@link Unit#toBase})
     * @param range whether the text states a range
     */
    public record Stated(int start, int end, String number, double value, Unit.Family family, double toBase,
            boolean range) {

        /** The stated value in the family's base unit. */
        public double inBase() {
            return value * toBase;
        }

        /** Decimals the number is written with (0 for words). */
        public int decimals() {
            int dot = number.indexOf('.');
            return number.chars().anyMatch(Character::isDigit) && dot >= 0 ? number.length() - dot - 1 : 0;
        }
    }

    private StatedQuantities() {}

    /** Every quantity stated in the text, in order, non-overlapping. */
    public static List<Stated> in(String text) {
        return NumberGroundingRule.quantities(text).stream()
                .map(q -> new Stated(q.start(), q.end(), q.high().text(), q.high().value(), q.unit().family,
                        q.unit().toBase, q.range()))
                .toList();
    }
}
