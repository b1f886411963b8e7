package dev.santabatch.prepass.rules;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/** English number words (0-999), "a"/"an", "half a", "... and a half", and digit formatting. */
public final class NumberWords {

    static final List<String> SMALL = List.of("zero", "one", "two", "three", "four", "five", "six", "seven",
            "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
            "eighteen", "nineteen");
    static final List<String> TENS = List.of("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
            "eighty", "ninety");

    private static final String UNITS_RE = "one|two|three|four|five|six|seven|eight|nine";
    private static final String TEENS_RE =
            "ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen";
    private static final String TENS_RE = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety";
    private static final String BELOW_100 =
            "(?:(?:" + TENS_RE + ")(?:[-\u2010\u2011 ](?:" + UNITS_RE + "))?|" + TEENS_RE + "|" + UNITS_RE + "|zero)";

    /** A number in words, e.g. "two", "twenty-four", "one hundred and twenty". */
    static final String WORDS_RE = "(?:(?:a|one|two|three|four|five|six|seven|eight|nine)\\s+hundred"
            + "(?:\\s+(?:and\\s+)?" + BELOW_100 + ")?|" + BELOW_100 + ")";

    private NumberWords() {}

    /** Parses digits (with grouping commas), words, "a"/"an", "half a(n)", "X and a half". */
    static OptionalDouble parse(String raw) {
        String s = raw.trim().toLowerCase(Locale.ROOT).replaceAll("[\\s\\-\u2010\u2011]+", " ");
        double extra = 0;
        if (s.endsWith(" and a half")) {
            extra = 0.5;
            s = s.substring(0, s.length() - " and a half".length()).trim();
        }
        if (s.matches("half an?")) {
            return OptionalDouble.of(0.5);
        }
        if (s.equals("a") || s.equals("an")) {
            return OptionalDouble.of(1 + extra);
        }
        if (s.matches("[0-9][0-9,]*(\\.[0-9]+)?")) {
            return OptionalDouble.of(Double.parseDouble(s.replace(",", "")) + extra);
        }
        int total = 0;
        int current = 0;
        boolean any = false;
        for (String w : s.split(" ")) {
            if (w.equals("and")) {
                continue;
            }
            if (w.equals("hundred")) {
                current = (current == 0 ? 1 : current) * 100;
                any = true;
                continue;
            }
            if (w.equals("a")) {
                current += 1;
                continue;
            }
            int small = SMALL.indexOf(w);
            int tens = TENS.indexOf(w);
            if (small >= 0) {
                current += small;
            } else if (tens >= 2) {
                current += tens * 10;
            } else {
                return OptionalDouble.empty();
            }
            any = true;
        }
        return any ? OptionalDouble.of(total + current + extra) : OptionalDouble.empty();
    }

    /** Whether the value is (within 1e-9) an integer. */
    static boolean isInteger(double v) {
        return Math.abs(v - Math.rint(v)) < 1e-9;
    }

    /** 0-999 in words; {@code sep} joins tens and units ("-" or " "). */
    public static String toWords(int n, String sep) {
        if (n < 20) {
            return SMALL.get(n);
        }
        if (n < 100) {
            return TENS.get(n / 10) + (n % 10 == 0 ? "" : sep + SMALL.get(n % 10));
        }
        String head = SMALL.get(n / 100) + " hundred";
        return n % 100 == 0 ? head : head + " " + toWords(n % 100, sep);
    }

    /** Digits: an integer (grouping commas when asked and the value is 1000+), else one decimal. */
    static String digits(double v, boolean grouping) {
        if (isInteger(v)) {
            long l = Math.round(v);
            return grouping ? String.format(Locale.US, "%,d", l) : Long.toString(l);
        }
        return BigDecimal.valueOf(v).setScale(1, RoundingMode.HALF_UP).toPlainString();
    }

    /**
     * Formats the value in the style of the original number, so that the rule then reads it as
     * matching. Digits stay digits (with grouping if the original had it), words stay words with
     * their case ("Two" → "Three"). An integer is written as one; so is a value within 1 % of an
     * integer when the original had no decimals (2.98 miles for "two miles" → "three"), as a
     * stated integer matches within 1 %. Any other value is written in digits with the original's
     * decimals, at least one (3.218688 km for "3.5 km" → "3.2").
     */
    static String formatLike(String original, double v) {
        int decimals = original.contains(".") ? original.length() - original.indexOf('.') - 1 : 0;
        double integer = Math.rint(v);
        if (isInteger(v) || decimals == 0 && Math.abs(v - integer) <= 0.01 * Math.abs(v)) {
            if (original.chars().noneMatch(Character::isDigit) && integer >= 0 && integer < 1000) {
                String sep = original.matches("(?is).*(" + TENS_RE + ") (" + UNITS_RE + ").*") ? " " : "-";
                return ForbiddenTermsRule.applyCase(original, toWords((int) integer, sep));
            }
            return digits(integer, original.contains(","));
        }
        return BigDecimal.valueOf(v).setScale(Math.max(1, decimals), RoundingMode.HALF_UP).toPlainString();
    }
}
