package dev.santabatch.prepass.rules;

import dev.santabatch.text.SentenceSplitter;
import dev.santabatch.config.RuleSpec;
import dev.santabatch.config.RuleSpec.GroundedAttribute;
import dev.santabatch.config.Unit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Number grounding: every quantity the text states for a grounded attribute must equal the
 * attribute's source value.
 *
 * <p>A quantity is a number (digits "2", "2.5", "1,000"; words "two", "twenty-four", "a"/"an" = 1,
 * "half a" = 0.5, "X and a half") followed by a unit of some family ("years", "yrs", "-year",
 * "24-month", "30h", "3.5 km", "2 miles", ...), or a range of two numbers ("20-30 hours", "20 to 30
 * hours", "between 20 and 30 hours"). A count (unit {@code count}: "4 stars", "sleeps 6 guests")
 * has a noun instead of a unit; how it is found and which attribute it belongs to is {@link
 * CountForms}'s. A quantity belongs to the attribute whose keyword is nearest in the same sentence
 * (in words, a comma/semicolon or a conjunction between them counting as 3 words, at most 8, and
 * no other quantity between them) among the attributes whose unit has the quantity's family. Not
 * checked: a quantity with no such keyword; one (other than a count) preceded by "in"/"within" (time to do something: "charges in 2 hours") or "every"/"each"/"per"
 * (a frequency); "a day" after "once"/"twice"/"times" or a unit (a rate: "3 hours a day"); a
 * hyphenated adjective followed by a noun phrase without the keyword ("30-day returns"); a keyword
 * after "money-back", "satisfaction", "price", "refund" or "return(s)" does not count. Numbers
 * without a unit or count noun (prices, model numbers, years, percentages) are never quantities.
 * "at least", "more than", "over", "minimum of" and a trailing "+" ("30+ hours") state a lower
 * bound; "up to 30 hours" states 30. A comparison word between quantity and keyword ("versus",
 * "than", "unlike", "while", ...) breaks the tie. The keyword "charge" counts only as a noun ("per
 * charge", "on a single charge"), not as the verb ("charge it for 2 hours"). A quantity in another
 * unit than the attribute's that is off by more than a factor of 10 ("12 hours" next to a 2-year
 * warranty) is taken to be about something else.
 *
 * <p>A stated value matches when it equals the source value converted to the text's unit (relative
 * tolerance 1e-6), or equals it rounded to the stated precision within 1 % (52 weeks for 1 year). A
 * range matches when the source value lies inside it. CORRECT replaces only the number, keeping the
 * text's unit and style ({@link NumberWords#formatLike}: digits or words, sensible decimals, so that
 * the correction then matches); a singular/plural unit word is adjusted when the number changes to
 * or from one; "a year", "half a year" and "a year and a half" are rewritten with the unit; a wrong range
 * becomes the single true value. An empty or non-numeric source value skips the attribute.
 */
final class NumberGroundingRule extends Rule {

    /** Units as written in text. {@code toBase} is in the base unit of the family ({@link Unit}). */
    enum TextUnit {
        DECADE(Unit.Family.DURATION, Unit.YEAR.toBase() * 10, "decade", "decades", "decades?"),
        YEAR(Unit.YEAR, "year", "years", "years?|yrs?\\.?|yr"),
        MONTH(Unit.MONTH, "month", "months", "months?|mos?\\.?"),
        WEEK(Unit.WEEK, "week", "weeks", "weeks?|wks?\\.?"),
        DAY(Unit.DAY, "day", "days", "days?"),
        HOUR(Unit.HOUR, "hour", "hours", "hours?|hrs?\\.?|(?-i:h)"),
        MINUTE(Unit.MINUTE, "minute", "minutes", "minutes?|mins?\\.?"),
        KILOGRAM(Unit.KILOGRAM, "kilogram", "kilograms", "kilo(?:gram)?s?|kgs?"),
        GRAM(Unit.GRAM, "gram", "grams", "grams?|(?-i:g)"),
        POUND(Unit.POUND, "pound", "pounds", "pounds?|lbs?\\.?"),
        OUNCE(Unit.OUNCE, "ounce", "ounces", "ounces?|oz\\.?"),
        MILLILITRE(Unit.MILLILITRE, "millilitre", "millilitres", "millilit(?:re|er)s?|(?-i:ml|mL)"),
        LITRE(Unit.LITRE, "litre", "litres", "lit(?:re|er)s?|(?-i:l|L)"),
        MILLIMETRE(Unit.MILLIMETRE, "millimetre", "millimetres", "millimet(?:re|er)s?|(?-i:mm)"),
        CENTIMETRE(Unit.CENTIMETRE, "centimetre", "centimetres", "centimet(?:re|er)s?|(?-i:cm)"),
        METRE(Unit.METRE, "metre", "metres", "met(?:re|er)s?|(?-i:m)"),
        INCH(Unit.INCH, "inch", "inches", "inch(?:es)?"),
        KILOWATT(Unit.Family.POWER, 1000, "kilowatt", "kilowatts", "kilowatts?|(?-i:kW)"),
        WATT(Unit.WATT, "watt", "watts", "watts?|(?-i:W)"),
        KILOMETRE(Unit.KILOMETRE, "kilometre", "kilometres", "kilomet(?:re|er)s?|kms|(?-i:km|KM)"),
        MILE(Unit.MILE, "mile", "miles", "miles?|(?-i:mi)"),
        /** A number of things: its nouns depend on the attribute ({@link CountForms}), so it has no fixed forms. */
        COUNT(Unit.COUNT, "", "", null);

        final Unit.Family family;
        final double toBase;
        final UnitWord word;
        final @Nullable Pattern exact;
        final @Nullable String regex;

        TextUnit(Unit unit, String singular, String plural, @Nullable String regex) {
            this(unit.family(), unit.toBase(), singular, plural, regex);
        }

        TextUnit(Unit.Family family, double toBase, String singular, String plural, @Nullable String regex) {
            this.family = family;
            this.toBase = toBase;
            this.word = new UnitWord(singular, plural);
            this.regex = regex;
            this.exact = regex == null ? null : Pattern.compile("(?:" + regex + ")", Pattern.CASE_INSENSITIVE);
        }

        static @Nullable TextUnit of(String text) {
            for (TextUnit u : values()) {
                if (u.exact != null && u.exact.matcher(text).matches()) {
                    return u;
                }
            }
            return null;
        }
    }

    /** A unit's word in the singular and the plural ("year"/"years", "person"/"people"). */
    record UnitWord(String singular, String plural) {

        /** No unit word: a count stated without a noun ("sleeps 6"). */
        static final UnitWord NONE = new UnitWord("", "");

        boolean is(String text) {
            return !text.isEmpty() && (text.equalsIgnoreCase(singular) || text.equalsIgnoreCase(plural));
        }
    }

    static final String DIGITS = "\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?";
    private static final String WORDNUM = "(?:half\\s+an?|" + NumberWords.WORDS_RE + "(?:\\s+and\\s+a\\s+half)?|an?)";
    private static final String NUM = "(?:" + DIGITS + "|" + WORDNUM + ")";
    static final String LEAD = "(?<![\\p{L}\\p{N}$€£¥#.,/_\\-\u2010\u2011])";
    static final String SEP = "(?:\\s*[-\u2010\u2011]\\s*|[ \\t\u00A0]+|(?<=[\\d+]))";
    private static final String UNIT;
    static final String END = "(?![\\p{L}\\p{N}])";

    static {
        List<String> alts = new ArrayList<>();
        for (TextUnit u : TextUnit.values()) {
            if (u.regex != null) {
                alts.add(u.regex);
            }
        }
        UNIT = "(?:" + String.join("|", alts) + ")";
    }

    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
    private static final Pattern BETWEEN = Pattern.compile("\\b(?<pre>between|from)\\s+" + LEAD + "(?<n1>" + NUM
            + ")(?:" + SEP + "(?<u1>" + UNIT + "))?\\s+(?:and|to)\\s+(?<n2>" + NUM + ")" + SEP + "(?<u2>" + UNIT + ")"
            + END, FLAGS);
    private static final Pattern DASH_RANGE = Pattern.compile(LEAD + "(?<n1>" + DIGITS + ")(?:\\s*(?<u1>" + UNIT
            + "))?\\s*[-\u2010\u2011\u2012\u2013\u2014]\\s*(?<n2>" + DIGITS + ")" + SEP + "(?<u2>" + UNIT + ")" + END, FLAGS);
    private static final Pattern TO_RANGE = Pattern.compile(LEAD + "(?<n1>" + NUM + ")(?:" + SEP + "(?<u1>" + UNIT
            + "))?\\s+(?:to|or)\\s+(?<n2>" + NUM + ")" + SEP + "(?<u2>" + UNIT + ")" + END, FLAGS);
    /**
     * "three full years", "24 straight hours": an intensifier between a number and its unit. Not
     * after "a"/"an" ("a full day", "a long day" are ways of speaking, not stated quantities).
     */
    private static final String INTENSIFIER =
            "(?:(?<!(?<![\\p{L}\\p{N}])[Aa][Nn]?\\s)(?:full|whole|straight|solid|continuous|consecutive)\\s+)?";
    private static final Pattern SINGLE = Pattern.compile(LEAD + "(?<n2>" + NUM + ")(?<plus>(?<=\\d)\\+)?" + SEP + INTENSIFIER + "(?<u2>" + UNIT + ")"
            + END + "(?<half>\\s+and\\s+a\\s+half" + END + ")?", FLAGS);
    /** Time to do something ("charges in 2 hours") or a frequency ("every 2 hours"): not an attribute. */
    private static final Pattern NOT_AN_ATTRIBUTE =
            Pattern.compile("(?i)(?:^|[^\\p{L}])(?:in|within|every|each|per)\\s+$");
    /** "a day" after these is a rate ("twice a day", "3 hours a day"), not a quantity. */
    private static final Pattern RATE = Pattern.compile(
            "(?i)(?:^|[^\\p{L}])(?:once|twice|thrice|times|" + TextUnit.YEAR.regex + "|" + TextUnit.MONTH.regex + "|"
                    + TextUnit.WEEK.regex + "|" + TextUnit.DAY.regex + "|" + TextUnit.HOUR.regex + "|"
                    + TextUnit.MINUTE.regex + ")\\s+$");
    /** "at least 30 hours", "over 30 hours": the true value may be larger. */
    private static final Pattern LOWER_BOUND = Pattern.compile(
            "(?i)(?:^|[^\\p{L}])(?:at\\s+least|more\\s+than|over|in\\s+excess\\s+of|minimum\\s+of|a\\s+minimum\\s+of)\\s+$");
    /** Keywords after these name something else ("money-back guarantee", "price guarantee"). */
    private static final Pattern OTHER_THING = Pattern.compile(
            "(?i)(?:money[\\s\\-]*back|satisfaction|price(?:[\\s\\-]*match)?|refund|return|returns|lowest[\\s\\-]*price)[\\s\\-]+$");
    private static final Pattern SEPARATOR = Pattern.compile("(?i)[,;]|\\b(?:and|but|while|plus|whereas|or)\\b");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    /** A comparison between quantity and keyword: the quantity is about something else. */
    private static final Pattern COMPARISON = Pattern.compile(
            "(?i)\\b(?:versus|vs|compared|than|unlike|whereas|while|instead)\\b");
    /** "charge" is a keyword only as the noun of "per/a/one/single/full/each charge". */
    private static final Pattern CHARGE = Pattern.compile("(?i)charges?");
    private static final Pattern CHARGE_NOUN = Pattern.compile(
            "(?i)(?:^|[^\\p{L}])(?:per|a|one|single|full|each|every|the|its|on)\\s+$");
    /** Beyond this ratio a quantity in another unit is taken to be about something else. */
    private static final double PLAUSIBLE_RATIO = 10;
    private static final int MAX_DISTANCE = 8;

    /** A stated quantity: one number, or a range of two. */
    record Quantity(int start, int end, @Nullable NumberPart low, NumberPart high, TextUnit unit,
            @Nullable TextUnit lowUnit, int unitStart, int unitEnd, boolean halfAfterUnit, int rangeStart,
            UnitWord word) {

        boolean range() {
            return low != null;
        }
    }

    record NumberPart(String text, int start, int end, double value) {}

    record Keyword(int attribute, int start, int end, String text) {}

    /**
     * A quantity found in a sentence, the attributes it may belong to, and the keyword it belongs to
     * when its form decides that (a count's own noun, a count right after a keyword), else null.
     */
    record Candidate(Quantity quantity, IntPredicate accepts, @Nullable Keyword own) {}

    private final RuleSpec.NumberGrounding spec;
    private final List<@Nullable Pattern> keywordPatterns = new ArrayList<>();
    private final @Nullable CountForms counts;

    NumberGroundingRule(String criterionId, RuleSpec.NumberGrounding spec) {
        super(criterionId);
        this.spec = spec;
        this.counts = CountForms.of(spec.attributes());
        for (GroundedAttribute a : spec.attributes()) {
            List<String> alts = new ArrayList<>();
            for (String k : a.keywords()) {
                String kw = k.trim().toLowerCase(Locale.ROOT);
                String last = kw.replaceAll(".*[\\s\\-]", "");
                String head = kw.substring(0, kw.length() - last.length());
                String headRe = head.isEmpty() ? "" : Pattern.quote(head.trim()).replace(" ", "\\E[\\s\\-]+\\Q")
                        + "[\\s\\-\u2010\u2011]*";
                String lastRe;
                if (last.endsWith("y") && last.length() > 2 && "aeiou".indexOf(last.charAt(last.length() - 2)) < 0) {
                    lastRe = "(?:" + Pattern.quote(last) + "|" + Pattern.quote(last.substring(0, last.length() - 1))
                            + "ies)";
                } else {
                    lastRe = Pattern.quote(last) + "(?:s|es)?";
                }
                alts.add(headRe + lastRe);
            }
            alts.sort(Comparator.comparingInt(String::length).reversed());
            keywordPatterns.add(alts.isEmpty() ? null
                    : Pattern.compile("(?<![\\p{L}\\p{N}])(?:" + String.join("|", alts) + ")(?![\\p{L}\\p{N}])", FLAGS));
        }
    }

    @Override
    RuleSpec spec() {
        return spec;
    }

    // ------------------------------------------------------------------ finding quantities

    /** Every quantity stated in the text with a unit (counts aside), non-overlapping, in order. */
    static List<Quantity> quantities(String text) {
        List<Quantity> all = new ArrayList<>();
        collect(BETWEEN, text, all);
        collect(DASH_RANGE, text, all);
        collect(TO_RANGE, text, all);
        collect(SINGLE, text, all);
        return nonOverlapping(all, q -> q);
    }

    /** The sentence's quantities with the attributes each may belong to: those with a unit, and the counts. */
    private List<Candidate> candidates(String text, SentenceSplitter.Span sentence, List<Keyword> keywords) {
        List<Candidate> all = new ArrayList<>();
        for (Quantity q : quantities(sentence.of(text))) {
            Quantity at = shift(q, sentence.start());
            all.add(new Candidate(at, a -> spec.attributes().get(a).unit().family() == at.unit().family, null));
        }
        if (counts != null) {
            all.addAll(counts.find(text, sentence, keywords));
        }
        return nonOverlapping(all, Candidate::quantity);
    }

    /** In text order; of overlapping quantities the earlier, then the longer, wins. */
    private static <T> List<T> nonOverlapping(List<T> items, Function<T, Quantity> quantity) {
        List<T> sorted = new ArrayList<>(items);
        sorted.sort(Comparator.comparingInt((T t) -> quantity.apply(t).start()).thenComparing(Comparator.comparingInt(
                (T t) -> quantity.apply(t).end() - quantity.apply(t).start()).reversed()));
        List<T> out = new ArrayList<>();
        int end = -1;
        for (T t : sorted) {
            if (quantity.apply(t).start() >= end) {
                out.add(t);
                end = quantity.apply(t).end();
            }
        }
        return out;
    }

    private static void collect(Pattern p, String text, List<Quantity> out) {
        Matcher m = p.matcher(text);
        int from = 0;
        while (from <= text.length() && m.find(from)) {
            Quantity q = toQuantity(m);
            if (q != null) {
                out.add(q);
            }
            from = m.start() + 1; // overlapping candidates are resolved by the caller
            if (q != null) {
                from = m.end();
            }
        }
    }

    private static @Nullable Quantity toQuantity(Matcher m) {
        TextUnit unit = TextUnit.of(m.group("u2"));
        if (unit == null) {
            return null;
        }
        NumberPart high = part(m, "n2");
        if (high == null) {
            return null;
        }
        NumberPart low = null;
        TextUnit lowUnit = null;
        int rangeStart = m.start();
        boolean half = false;
        if (m.pattern() != SINGLE) {
            low = part(m, "n1");
            if (low == null) {
                return null;
            }
            if (m.group("u1") != null) {
                lowUnit = TextUnit.of(m.group("u1"));
                if (lowUnit == null || lowUnit.family != unit.family) {
                    return null;
                }
            }
            if (m.pattern() == BETWEEN) {
                rangeStart = m.start("pre");
            }
        } else {
            if (isArticle(high) && !unit.word.is(m.group("u2"))) {
                return null;
            }
            half = m.group("half") != null;
            if (half) {
                high = new NumberPart(high.text(), high.start(), high.end(), high.value() + 0.5);
            }
        }
        int start = m.pattern() == BETWEEN ? m.start("n1") : m.start();
        return new Quantity(start, m.end(), low, high, unit, lowUnit, m.start("u2"), m.end("u2"), half, rangeStart,
                unit.word);
    }

    private static @Nullable NumberPart part(Matcher m, String group) {
        String t = m.group(group);
        OptionalDouble v = NumberWords.parse(t);
        return v.isPresent() ? new NumberPart(t, m.start(group), m.end(group), v.getAsDouble()) : null;
    }

    // ------------------------------------------------------------------ checking

    @Override
    List<Finding> find(String text, Map<String, String> sourceFields) {
        List<Finding> out = new ArrayList<>();
        List<SentenceSplitter.Span> sentences = SentenceSplitter.split(text);
        for (SentenceSplitter.Span sentence : sentences) {
            List<Keyword> keywords = keywords(text, sentence);
            if (keywords.isEmpty()) {
                continue;
            }
            List<Candidate> candidates = candidates(text, sentence, keywords);
            List<Quantity> inSentence = candidates.stream().map(Candidate::quantity).toList();
            for (Candidate c : candidates) {
                Quantity q = c.quantity();
                String before = text.substring(sentence.start(), q.rangeStart());
                if (q.unit() != TextUnit.COUNT && (NOT_AN_ATTRIBUTE.matcher(before).find()
                        || isArticle(q.high()) && RATE.matcher(before).find())) {
                    continue;
                }
                Keyword k = c.own() != null ? c.own() : nearest(text, c, keywords, inSentence);
                if (k == null || c.own() == null && !modifiesKeyword(text, q, k, sentence)) {
                    continue;
                }
                GroundedAttribute attr = spec.attributes().get(k.attribute());
                Double truth = sourceValue(sourceFields.get(attr.column()));
                if (truth == null) {
                    continue;
                }
                double trueInText = truth * attr.unit().toBase() / q.unit().toBase;
                if (!plausible(q, attr, trueInText)) {
                    continue;
                }
                boolean atLeast = !q.range() && (LOWER_BOUND.matcher(before).find()
                        || text.startsWith("+", q.high().end()));
                if (atLeast && trueInText >= q.high().value() - 1e-6 * Math.max(1, Math.abs(trueInText))
                        || holds(q, trueInText)) {
                    continue;
                }
                String stated = text.substring(q.range() ? q.rangeStart() : q.start(), q.end());
                Violation v = violation(q.start(), q.end(), "states \"" + stated + "\" (" + k.text() + ") but "
                        + attr.column() + " is " + sourceFields.get(attr.column()).trim());
                out.add(correction(text, q, trueInText, v, truth, attr.unit()));
            }
        }
        return out;
    }

    private static final Pattern SOURCE_NUMBER = Pattern.compile("^\\s*([0-9][0-9,]*(?:\\.[0-9]+)?|\\.[0-9]+)");

    /** The source value: its leading number ("2", "2.5", "1,800", "30h"); null when there is none. */
    static @Nullable Double sourceValue(@Nullable String raw) {
        if (raw == null) {
            return null;
        }
        Matcher m = SOURCE_NUMBER.matcher(raw);
        return m.find() ? Double.valueOf(m.group(1).replace(",", "")) : null;
    }

    /**
     * A quantity in another unit than the attribute's that is off by more than a factor of 10 (12
     * hours against a 2-year warranty) is about something else: it is not checked.
     */
    private static boolean plausible(Quantity q, GroundedAttribute attr, double trueInText) {
        if (Math.abs(q.unit().toBase - attr.unit().toBase()) < 1e-12 || trueInText <= 0) {
            return true;
        }
        double stated = q.high().value();
        if (stated <= 0) {
            return true;
        }
        double ratio = stated / trueInText;
        return ratio <= PLAUSIBLE_RATIO && ratio >= 1 / PLAUSIBLE_RATIO;
    }

    private static boolean isArticle(NumberPart n) {
        String t = n.text().toLowerCase(Locale.ROOT).trim();
        return t.equals("a") || t.equals("an") || t.startsWith("half");
    }

    /**
     * A hyphenated quantity followed by a word is an adjective of the noun after it ("30-day
     * returns"): it belongs to the attribute only when that noun phrase (the next three words)
     * holds the keyword.
     */
    private static boolean modifiesKeyword(String text, Quantity q, Keyword k, SentenceSplitter.Span sentence) {
        boolean hyphenated = text.substring(q.high().end(), q.unitStart()).matches("\\s*[-\u2010\u2011]\\s*");
        if (!hyphenated || q.unitEnd() >= sentence.end()) {
            return true;
        }
        String rest = text.substring(q.unitEnd(), sentence.end());
        if (!rest.matches("(?s)(?:-long|-plus)?\\s+\\p{L}.*")) {
            return true; // not followed by a word: predicative ("Warranty: 2-year.")
        }
        if (k.start() < q.unitEnd()) {
            return false;
        }
        return count(WORD, text.substring(q.unitEnd(), k.start())) < 3;
    }

    private static Quantity shift(Quantity q, int by) {
        NumberPart low = q.low() == null ? null
                : new NumberPart(q.low().text(), q.low().start() + by, q.low().end() + by, q.low().value());
        NumberPart high = new NumberPart(q.high().text(), q.high().start() + by, q.high().end() + by, q.high().value());
        return new Quantity(q.start() + by, q.end() + by, low, high, q.unit(), q.lowUnit(), q.unitStart() + by,
                q.unitEnd() + by, q.halfAfterUnit(), q.rangeStart() + by, q.word());
    }

    private List<Keyword> keywords(String text, SentenceSplitter.Span sentence) {
        List<Keyword> out = new ArrayList<>();
        for (int i = 0; i < keywordPatterns.size(); i++) {
            Pattern p = keywordPatterns.get(i);
            if (p == null) {
                continue;
            }
            Matcher m = p.matcher(text).region(sentence.start(), sentence.end());
            while (m.find()) {
                String before = text.substring(sentence.start(), m.start());
                if (CHARGE.matcher(m.group()).matches() && !CHARGE_NOUN.matcher(before).find()) {
                    continue;
                }
                if (!OTHER_THING.matcher(before).find()) {
                    out.add(new Keyword(i, m.start(), m.end(), m.group()));
                }
            }
        }
        return out;
    }

    /** The nearest keyword of an attribute the quantity may belong to, or null when none is near. */
    private static @Nullable Keyword nearest(String text, Candidate c, List<Keyword> keywords, List<Quantity> all) {
        Quantity q = c.quantity();
        Keyword best = null;
        int bestDistance = Integer.MAX_VALUE;
        boolean bestAfter = false;
        for (Keyword k : keywords) {
            if (!c.accepts().test(k.attribute())) {
                continue;
            }
            if (k.start() < q.end() && k.end() > q.rangeStart()) {
                continue;
            }
            boolean after = k.start() >= q.end();
            int gapStart = after ? q.end() : k.end();
            int gapEnd = after ? k.start() : q.rangeStart();
            if (all.stream().anyMatch(o -> o != q && o.rangeStart() >= gapStart && o.end() <= gapEnd)) {
                continue; // another quantity sits between them: the keyword is that one's
            }
            String gap = after ? text.substring(q.end(), k.start()) : text.substring(k.end(), q.rangeStart());
            if (COMPARISON.matcher(gap).find()) {
                continue;
            }
            int d = count(WORD, gap) + 3 * count(SEPARATOR, gap);
            if (d > MAX_DISTANCE) {
                continue;
            }
            if (d < bestDistance || d == bestDistance && after && !bestAfter) {
                best = k;
                bestDistance = d;
                bestAfter = after;
            }
        }
        return best;
    }

    private static int count(Pattern p, String s) {
        Matcher m = p.matcher(s);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static boolean holds(Quantity q, double trueInText) {
        if (q.range()) {
            double lo = q.low().value();
            if (q.lowUnit() != null) {
                lo = lo * q.lowUnit().toBase / q.unit().toBase;
            }
            double hi = q.high().value();
            double eps = 1e-6 * Math.max(1, Math.abs(trueInText));
            return trueInText >= Math.min(lo, hi) - eps && trueInText <= Math.max(lo, hi) + eps;
        }
        return matches(q.high(), trueInText);
    }

    /**
     * Equal within 1e-6 relative; or, for a stated decimal, equal to the truth rounded half-up to the
     * stated decimals (what CORRECT writes); or, for a stated integer, equal to the rounded truth
     * within 1 % (52 weeks for 1 year).
     */
    static boolean matches(NumberPart stated, double truth) {
        double s = stated.value();
        if (Math.abs(s - truth) <= 1e-6 * Math.max(1, Math.abs(truth))) {
            return true;
        }
        String t = stated.text();
        int decimals = t.contains(".") ? t.length() - t.indexOf('.') - 1 : 0;
        double rounded = java.math.BigDecimal.valueOf(truth)
                .setScale(decimals, java.math.RoundingMode.HALF_UP).doubleValue();
        if (Math.abs(s - rounded) >= 1e-9) {
            return false;
        }
        return decimals > 0 || Math.abs(s - truth) <= 0.01 * Math.abs(truth);
    }

    // ------------------------------------------------------------------ correcting

    private Finding correction(String text, Quantity q, double truth, Violation v, double truthInAttr, Unit attrUnit) {
        if (q.range()) {
            int from = q.rangeStart();
            return new Finding(v, from, q.high().end(), NumberWords.formatLike(q.high().text(), truth));
        }
        NumberPart n = q.high();
        String numLower = n.text().toLowerCase(Locale.ROOT).trim();
        boolean article = numLower.equals("a") || numLower.equals("an") || numLower.startsWith("half ")
                || numLower.endsWith(" half") || q.halfAfterUnit();
        String unitText = text.substring(q.unitStart(), q.unitEnd());
        boolean fullWord = q.word().is(unitText);
        boolean adjective = text.substring(n.end(), q.unitStart()).contains("-")
                || text.startsWith("-", q.unitEnd()) || text.startsWith("\u2010", q.unitEnd());
        if (article) {
            TextUnit unit = q.unit();
            if (!NumberWords.isInteger(truth) && NumberWords.isInteger(truthInAttr) && fullWord) {
                // "a decade" against 2 years: say "two years", not "0.2 decades"
                for (TextUnit u : TextUnit.values()) {
                    if (u.family == attrUnit.family() && Math.abs(u.toBase - attrUnit.toBase()) < 1e-12) {
                        unit = u;
                        truth = truthInAttr;
                        break;
                    }
                }
            }
            String number;
            if (NumberWords.isInteger(truth) && truth < 1000) {
                number = NumberWords.toWords((int) Math.round(truth), "-");
            } else {
                number = NumberWords.digits(truth, false);
            }
            String unitWord = fullWord ? (adjective || isOne(truth) ? unit.word.singular() : unit.word.plural()) : unitText;
            String sep = adjective ? "-" : " ";
            int end = q.halfAfterUnit() ? q.end() : q.unitEnd();
            return new Finding(v, n.start(), end,
                    ForbiddenTermsRule.applyCase(n.text(), number + sep + matchCase(unitText, unitWord)));
        }
        String number = NumberWords.formatLike(n.text(), truth);
        if (fullWord && !adjective) {
            boolean plural = unitText.equalsIgnoreCase(q.word().plural());
            String after = text.substring(q.unitEnd());
            boolean nounUse = after.isEmpty() || after.matches("(?s)\\s*(?:[^\\p{L}\\s].*|(?:of|and|or|for|on|in|with)\\b.*)");
            String unitWord = null;
            if (plural && isOne(truth)) {
                unitWord = q.word().singular();
            } else if (!plural && isOne(n.value()) && !isOne(truth) && nounUse) {
                unitWord = q.word().plural();
            }
            if (unitWord != null) {
                return new Finding(v, n.start(), q.unitEnd(),
                        number + text.substring(n.end(), q.unitStart()) + matchCase(unitText, unitWord));
            }
        }
        return new Finding(v, n.start(), n.end(), number);
    }

    private static boolean isOne(double v) {
        return Math.abs(v - 1) < 1e-9;
    }

    private static String matchCase(String model, String word) {
        return ForbiddenTermsRule.applyCase(model, word);
    }
}
