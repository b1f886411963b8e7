package dev.santabatch.prepass.rules;

import dev.santabatch.text.SentenceSplitter;
import dev.santabatch.config.RuleSpec.GroundedAttribute;
import dev.santabatch.config.Unit;
import dev.santabatch.prepass.rules.NumberGroundingRule.Candidate;
import dev.santabatch.prepass.rules.NumberGroundingRule.Keyword;
import dev.santabatch.prepass.rules.NumberGroundingRule.NumberPart;
import dev.santabatch.prepass.rules.NumberGroundingRule.Quantity;
import dev.santabatch.prepass.rules.NumberGroundingRule.TextUnit;
import dev.santabatch.prepass.rules.NumberGroundingRule.UnitWord;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * How number grounding finds counts: the quantities of the attributes whose unit is {@link
 * Unit#COUNT} (a rating in stars, a number of guests or bedrooms), which have no unit of their own
 * but a noun that depends on what is counted.
 *
 * <p>A count is a number in digits or words (never "a"/"an": "a star attraction" states nothing),
 * written
 * <ul>
 *   <li>before a count noun: "4 stars", "a 4-star rating", "4 out of 5 stars", "4.5/5 stars", "six
 *       guests", "3-4 bedrooms", "6+ guests";</li>
 *   <li>after a collective noun and "of": "groups of 8", "a party of 4-6";</li>
 *   <li>right after a keyword of the attribute, alone or after ":", "of", "at", "is", "up to" or
 *       "a maximum of": "sleeps 6", "rated 4.5", "Rating: 4/5", "capacity of 10". Only when
 *       punctuation, the end of the sentence or a word such as "in", "and", "with", "by" follows:
 *       in "two bedrooms for 10 guests" the 10 is the guests', not the bedrooms'.</li>
 * </ul>
 *
 * <p>The count nouns are the common ones, in classes, and the attributes' own: class <em>rating</em>
 * has "star"; class <em>people</em> has "guest", "person"/"people", "traveller", "traveler",
 * "visitor" and the collectives "group", "party", "family". A keyword whose last word is a cue of a
 * class selects it (rating: rating, rated, rate, score, star; people: sleep(s), guest, people,
 * person, capacity, accommodate(s), occupancy, group, party, family, traveller, traveler, visitor).
 * Any other last word of a keyword is the attribute's own noun ("bedrooms", "beds", "reviews").
 * An attribute accepts the nouns of the classes its keywords select and its own nouns. So keywords
 * need not equal the noun ("rated 4 stars" with the keyword "rated"), and a rating's stars and a
 * capacity's guests stay apart in one rule.
 *
 * <p>A count whose noun is one of an attribute's keywords ("6 guests" with the keyword "guests") is
 * that attribute's; a count after a keyword is that keyword's; any other count belongs, as every
 * quantity does, to the nearest keyword in its sentence, among the attributes that accept its
 * noun. Not checked: a count of people after "by" or "from" ("rated 4.8 by 120 guests" says who
 * rated, not how many the place sleeps), and the scale of "4 out of 5".
 */
final class CountForms {

    /** Common count nouns of one kind, their collectives, and the keyword words that select them. */
    private record NounClass(List<UnitWord> nouns, List<UnitWord> collectives, Set<String> cues) {}

    private static final NounClass RATING = new NounClass(List.of(word("star")), List.of(),
            Set.of("rating", "rated", "rate", "score", "star"));
    private static final NounClass PEOPLE = new NounClass(
            List.of(word("guest"), new UnitWord("person", "people"), word("person"), word("traveller"),
                    word("traveler"), word("visitor")),
            List.of(word("group"), word("party"), word("family")),
            Set.of("sleep", "guest", "people", "person", "capacity", "accommodate", "occupancy", "group", "party",
                    "family", "traveller", "traveler", "visitor"));
    private static final List<NounClass> CLASSES = List.of(RATING, PEOPLE);

    /** A number as a count states it: digits or words, no article. */
    private static final String NUMBER = "(?:" + NumberGroundingRule.DIGITS + "|" + NumberWords.WORDS_RE + ")";
    private static final String RANGE_LOW = "(?:(?<n1>" + NUMBER + ")(?:\\s*[-\u2013\u2014]\\s*|\\s+(?:to|or)\\s+))?";
    /** "out of 5", "/5": the scale of a rating. */
    private static final String SCALE = "(?<scale>\\s+out\\s+of\\s+" + NUMBER + "|\\s*/\\s*\\d+(?:\\.\\d+)?)?";
    private static final String PLUS = "(?<plus>(?<=\\d)\\+)?";
    /** What may stand between a keyword and its bare count ("sleeps up to 6", "Rating: 4.5"). */
    private static final Pattern AFTER_KEYWORD = Pattern.compile("(?:\\s*[:=]\\s*|\\s+)"
            + "(?:(?:of|at|is|up\\s+to|a\\s+maximum\\s+of)\\s+)?" + RANGE_LOW + "(?<n2>" + NUMBER + ")" + SCALE + PLUS
            + "(?=\\s*(?:$|[^\\p{L}\\p{N}\\s%]|(?:in|and|or|with|across|on|at|for|plus|but|from|by)(?![\\p{L}\\p{N}])))",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    /** "by", "from", up to two words before a number ("by over 300 guests"): who did something. */
    private static final Pattern AGENT = Pattern.compile("(?i)(?:^|[^\\p{L}])(?:by|from)\\s+(?:\\p{L}+\\s+){0,2}$");
    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;

    /** What one count attribute accepts: the classes its keywords select, and its own nouns. */
    private record Accepted(Set<NounClass> classes, List<UnitWord> own) {

        boolean accepts(UnitWord noun) {
            return own.contains(noun) || classes.stream().anyMatch(c -> c.nouns().contains(noun)
                    || c.collectives().contains(noun));
        }
    }

    /** Per attribute of the rule, in order; null for an attribute that is not a count. */
    private final List<@Nullable Accepted> accepted = new ArrayList<>();
    private final List<UnitWord> nouns;
    private final List<UnitWord> collectives;
    private final @Nullable Pattern nounForm;
    private final @Nullable Pattern collectiveForm;

    private CountForms(List<GroundedAttribute> attributes) {
        Set<UnitWord> allNouns = new LinkedHashSet<>();
        Set<UnitWord> allCollectives = new LinkedHashSet<>();
        for (GroundedAttribute a : attributes) {
            if (a.unit() != Unit.COUNT) {
                accepted.add(null);
                continue;
            }
            Set<NounClass> classes = new LinkedHashSet<>();
            List<UnitWord> own = new ArrayList<>();
            for (String keyword : a.keywords()) {
                String last = keyword.trim().toLowerCase(Locale.ROOT).replaceAll(".*[\\s\\-]", "");
                UnitWord noun = classNoun(last);
                boolean cue = false;
                for (NounClass c : CLASSES) {
                    if (c.cues().contains(singular(last)) || c.cues().contains(last)) {
                        classes.add(c);
                        cue = true;
                    }
                }
                if (noun != null) {
                    own.add(noun);
                } else if (!cue) {
                    own.add(new UnitWord(singular(last), plural(singular(last))));
                }
            }
            Accepted acc = new Accepted(classes, own);
            accepted.add(acc);
            for (NounClass c : classes) {
                allNouns.addAll(c.nouns());
                allCollectives.addAll(c.collectives());
            }
            for (UnitWord w : own) {
                (allCollectives.contains(w) || collectiveOfAnyClass(w) ? allCollectives : allNouns).add(w);
            }
        }
        this.nouns = List.copyOf(allNouns);
        this.collectives = List.copyOf(allCollectives);
        this.nounForm = nouns.isEmpty() ? null : Pattern.compile(NumberGroundingRule.LEAD + RANGE_LOW + "(?<n2>"
                + NUMBER + ")" + SCALE + PLUS + NumberGroundingRule.SEP + "(?<noun>" + alternatives(nouns) + ")"
                + NumberGroundingRule.END, FLAGS);
        this.collectiveForm = collectives.isEmpty() ? null : Pattern.compile("(?<![\\p{L}\\p{N}])(?<noun>"
                + alternatives(collectives) + ")\\s+of\\s+(?:up\\s+to\\s+)?" + RANGE_LOW + "(?<n2>" + NUMBER + ")" + PLUS
                + NumberGroundingRule.END, FLAGS);
    }

    /** The count forms of a rule's attributes, or null when none of them is a count. */
    static @Nullable CountForms of(List<GroundedAttribute> attributes) {
        return attributes.stream().anyMatch(a -> a.unit() == Unit.COUNT) ? new CountForms(attributes) : null;
    }

    /** The counts stated in one sentence, each with the attributes it may belong to. */
    List<Candidate> find(String text, SentenceSplitter.Span sentence, List<Keyword> keywords) {
        List<Candidate> out = new ArrayList<>();
        for (Keyword k : keywords) {
            if (accepted.get(k.attribute()) == null) {
                continue;
            }
            Matcher m = AFTER_KEYWORD.matcher(text).region(k.end(), sentence.end());
            if (m.lookingAt()) {
                Quantity q = quantity(m, m.end("n2"), m.end("n2"), UnitWord.NONE);
                if (q != null) {
                    out.add(new Candidate(q, a -> a == k.attribute(), k));
                }
            }
        }
        if (nounForm != null) {
            collect(text, sentence, nounForm, keywords, out, true);
        }
        if (collectiveForm != null) {
            collect(text, sentence, collectiveForm, keywords, out, false);
        }
        return out;
    }

    private void collect(String text, SentenceSplitter.Span sentence, Pattern form, List<Keyword> keywords,
            List<Candidate> out, boolean nounAfter) {
        Matcher m = form.matcher(text).region(sentence.start(), sentence.end());
        while (m.find()) {
            UnitWord noun = nounOf(m.group("noun"), nounAfter ? nouns : collectives);
            if (noun == null || PEOPLE.nouns().contains(noun)
                    && AGENT.matcher(text.substring(sentence.start(), m.start())).find()) {
                continue;
            }
            // the noun's grammar follows the scale in "1 out of 5 stars": it never changes with the number
            UnitWord grammar = nounAfter && m.group("scale") != null ? new UnitWord(m.group("noun"), m.group("noun")) : noun;
            Quantity q = nounAfter ? quantity(m, m.start("noun"), m.end("noun"), grammar)
                    : quantity(m, m.end("n2"), m.end("n2"), UnitWord.NONE);
            if (q == null) {
                continue;
            }
            Keyword own = ownKeyword(keywords, m.start("noun"), m.end("noun"));
            IntPredicate accepts = a -> accepted.get(a) != null && accepted.get(a).accepts(noun);
            out.add(new Candidate(q, accepts, own));
        }
    }

    /** The keyword that is the count's own noun ("guests" in "6 guests"), if an accepting attribute has one. */
    private @Nullable Keyword ownKeyword(List<Keyword> keywords, int nounStart, int nounEnd) {
        for (Keyword k : keywords) {
            if (k.start() == nounStart && k.end() == nounEnd && accepted.get(k.attribute()) != null) {
                return k;
            }
        }
        return null;
    }

    private static @Nullable Quantity quantity(Matcher m, int unitStart, int unitEnd, UnitWord word) {
        NumberPart high = part(m, "n2");
        if (high == null) {
            return null;
        }
        NumberPart low = m.group("n1") == null ? null : part(m, "n1");
        int start = low != null ? low.start() : high.start();
        int end = Math.max(unitEnd, m.group("plus") != null ? m.end("plus") : high.end());
        return new Quantity(start, end, low, high, TextUnit.COUNT, null, unitStart, unitEnd, false, start, word);
    }

    private static @Nullable NumberPart part(Matcher m, String group) {
        OptionalDouble v = NumberWords.parse(m.group(group));
        return v.isPresent() ? new NumberPart(m.group(group), m.start(group), m.end(group), v.getAsDouble()) : null;
    }

    private static @Nullable UnitWord nounOf(String text, List<UnitWord> words) {
        for (UnitWord w : words) {
            if (w.singular().equalsIgnoreCase(text) || w.plural().equalsIgnoreCase(text)) {
                return w;
            }
        }
        return null;
    }

    private static @Nullable UnitWord classNoun(String word) {
        for (NounClass c : CLASSES) {
            List<UnitWord> all = new ArrayList<>(c.nouns());
            all.addAll(c.collectives());
            UnitWord w = nounOf(word, all);
            if (w != null) {
                return w;
            }
        }
        return null;
    }

    private static boolean collectiveOfAnyClass(UnitWord w) {
        return CLASSES.stream().anyMatch(c -> c.collectives().contains(w));
    }

    private static String alternatives(List<UnitWord> words) {
        Set<String> alts = new LinkedHashSet<>();
        for (UnitWord w : words) {
            alts.add(Pattern.quote(w.plural()));
            alts.add(Pattern.quote(w.singular()));
        }
        return String.join("|", alts);
    }

    private static UnitWord word(String singular) {
        return new UnitWord(singular, plural(singular));
    }

    static String singular(String w) {
        if (w.length() > 4 && w.endsWith("ies")) {
            return w.substring(0, w.length() - 3) + "y";
        }
        if (w.matches(".*(?:ss|sh|ch|x)es")) {
            return w.substring(0, w.length() - 2);
        }
        if (w.length() > 2 && w.endsWith("s") && !w.endsWith("ss")) {
            return w.substring(0, w.length() - 1);
        }
        return w;
    }

    static String plural(String w) {
        if (w.length() > 2 && w.endsWith("y") && "aeiou".indexOf(w.charAt(w.length() - 2)) < 0) {
            return w.substring(0, w.length() - 1) + "ies";
        }
        if (w.matches(".*(?:s|sh|ch|x)")) {
            return w + "es";
        }
        return w + "s";
    }
}
