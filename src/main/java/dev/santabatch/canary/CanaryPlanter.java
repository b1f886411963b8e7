package dev.santabatch.canary;

import dev.santabatch.config.CanaryKind;
import dev.santabatch.text.SentenceSplitter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Builds a round's canaries from catalog items, deterministically from the run's seed and the
 * round: the same items in, the same canaries out (a restart draws the same ones).
 *
 * <ul>
 *   <li>{@code foreign-sentence}: a sentence of another item that names it (holds one of its
 *       text-valued source values that the copied item's source does not hold) is inserted after
 *       one of the copy's sentences;
 *   <li>{@code boilerplate}: the copy keeps its first sentence; the rest is another item's
 *       sentences that do not name that item and that its own text does not hold (at least two);
 *   <li>{@code changed-number}: a number the text states that equals one of the item's numeric
 *       source values (the columns {@code numberColumns} names, or any numeric one) is changed so
 *       that it no longer does;
 *   <li>clean: the text unchanged.
 * </ul>
 *
 * Of {@code n} canaries, a quarter (at least one) are clean copies; the planted ones cycle through
 * the criteria's kinds. A plant that no item allows (no naming sentence, no stated number) is
 * tried on the other items; when none allows it, the round has one canary fewer.
 */
final class CanaryPlanter {

    /** An item a canary may copy or take text from. */
    public record Item(String id, Map<String, String> source, String content) {}

    /** A planted canary's kind and the criterion it tests. */
    public record Plant(CanaryKind kind, String criterion) {}

    private static final Pattern NUMBER = Pattern.compile("(?<![\\d.,])\\d+(?:\\.\\d+)?(?![\\d])");

    private final List<Plant> plants;
    private final Collection<String> numberColumns;

    /**
     * @param plants every (kind, criterion) pair of the job, in rubric order
     * @param numberColumns source columns whose numbers a {@code changed-number} canary changes
     *     (the number-grounding rules' columns); empty: any column with a numeric value
     */
    public CanaryPlanter(List<Plant> plants, Collection<String> numberColumns) {
        this.plants = List.copyOf(plants);
        this.numberColumns = List.copyOf(numberColumns);
    }

    /** The clean copies among {@code n} canaries: a quarter, at least one. */
    static int cleanOf(int n) {
        return n <= 0 ? 0 : Math.max(1, Math.round(n / 4f));
    }

    /**
     * The round's canaries.
     *
     * @param sources the items canaries copy (the round's items the panel passed on first review),
     *     in a fixed order
     * @param donors the items foreign text is taken from (the round's sample), in a fixed order
     * @param n how many canaries
     */
    public List<Canary> plant(List<Item> sources, List<Item> donors, int n, long seed, int round) {
        List<Canary> out = new ArrayList<>();
        if (n <= 0 || sources.isEmpty()) {
            return out;
        }
        Random random = new Random(seed * 1_000_003L + round * 7_919L + 0x5A17AL);
        List<Item> order = new ArrayList<>(sources);
        java.util.Collections.shuffle(order, random);
        int clean = cleanOf(n);
        int planted = plants.isEmpty() ? 0 : n - clean;
        int next = 0; // the next source item to try
        int start = plants.isEmpty() ? 0 : random.nextInt(plants.size());
        for (int i = 0; i < planted; i++) {
            Plant p = plants.get((start + i) % plants.size());
            for (int tries = 0; tries < order.size(); tries++) {
                Item item = order.get(next++ % order.size());
                Canary c = plantOne(p, item, donors, random, out.size() + 1);
                if (c != null) {
                    out.add(c);
                    break;
                }
            }
        }
        for (int i = 0; i < clean; i++) {
            Item item = order.get(next++ % order.size());
            out.add(new Canary(out.size() + 1, item.id(), null, null, null, item.source(), item.content()));
        }
        // the reviewers see them in a drawn order, planted and clean mixed
        List<Canary> mixed = new ArrayList<>(out);
        java.util.Collections.shuffle(mixed, random);
        List<Canary> numbered = new ArrayList<>();
        for (Canary c : mixed) {
            numbered.add(new Canary(numbered.size() + 1, c.itemId(), c.kind(), c.criterion(), c.donorId(), c.source(),
                    c.content()));
        }
        return numbered;
    }

    private @Nullable Canary plantOne(Plant p, Item item, List<Item> donors, Random random, int seq) {
        return switch (p.kind()) {
            case FOREIGN_SENTENCE -> foreignSentence(p, item, donors, random, seq);
            case BOILERPLATE -> boilerplate(p, item, donors, random, seq);
            case CHANGED_NUMBER -> changedNumber(p, item, random, seq);
        };
    }

    private @Nullable Canary foreignSentence(Plant p, Item item, List<Item> donors, Random random, int seq) {
        for (Item donor : drawn(donors, item, random)) {
            List<String> naming = new ArrayList<>();
            for (String s : SentenceSplitter.sentences(donor.content())) {
                if (names(s, donor, item)) {
                    naming.add(s.strip());
                }
            }
            if (naming.isEmpty()) {
                continue;
            }
            String sentence = naming.get(random.nextInt(naming.size()));
            List<SentenceSplitter.Span> spans = SentenceSplitter.split(item.content());
            String text;
            if (spans.isEmpty()) {
                text = item.content().strip() + " " + sentence;
            } else {
                SentenceSplitter.Span after = spans.get(random.nextInt(spans.size()));
                text = item.content().substring(0, after.end()).stripTrailing() + " " + sentence + " "
                        + item.content().substring(after.end()).stripLeading();
            }
            return new Canary(seq, item.id(), p.kind(), p.criterion(), donor.id(), item.source(), text.strip());
        }
        return null;
    }

    private @Nullable Canary boilerplate(Plant p, Item item, List<Item> donors, Random random, int seq) {
        List<String> own = SentenceSplitter.sentences(item.content());
        if (own.isEmpty()) {
            return null;
        }
        for (Item donor : drawn(donors, item, random)) {
            List<String> generic = new ArrayList<>();
            for (String s : SentenceSplitter.sentences(donor.content())) {
                // sentences the item's own text already has are no one's boilerplate here
                if (!names(s, donor, item) && !item.content().contains(s.strip())) {
                    generic.add(s.strip());
                }
            }
            if (generic.size() < 2) {
                continue;
            }
            String text = own.get(0).strip() + " " + String.join(" ", generic);
            return new Canary(seq, item.id(), p.kind(), p.criterion(), donor.id(), item.source(), text);
        }
        return null;
    }

    private @Nullable Canary changedNumber(Plant p, Item item, Random random, int seq) {
        List<String> values = new ArrayList<>();
        item.source().forEach((column, value) -> {
            if (value != null && (numberColumns.isEmpty() || numberColumns.contains(column))
                    && value.strip().matches("\\d+(\\.\\d+)?")) {
                values.add(value.strip());
            }
        });
        List<int[]> spans = new ArrayList<>();
        Matcher m = NUMBER.matcher(item.content());
        while (m.find()) {
            if (values.contains(m.group())) {
                spans.add(new int[] {m.start(), m.end()});
            }
        }
        if (spans.isEmpty()) {
            return null;
        }
        int[] span = spans.get(random.nextInt(spans.size()));
        String was = item.content().substring(span[0], span[1]);
        String changed = changed(was, values, random);
        String text = item.content().substring(0, span[0]) + changed + item.content().substring(span[1]);
        return new Canary(seq, item.id(), p.kind(), p.criterion(), null, item.source(), text);
    }

    /** A different number of the same form, equal to none of the item's numeric source values. */
    private static String changed(String was, List<String> values, Random random) {
        boolean decimal = was.contains(".");
        double v = Double.parseDouble(was);
        for (int i = 0; ; i++) {
            double d = v <= 1 ? v + 1 + random.nextInt(3) : random.nextBoolean() ? v * 2 : Math.max(1, Math.floor(v / 2));
            String s = decimal ? String.format(Locale.ROOT, "%." + (was.length() - was.indexOf('.') - 1) + "f", d)
                    : String.valueOf((long) d);
            if (!s.equals(was) && !values.contains(s)) {
                return s;
            }
            v = v + 1 + i;
        }
    }

    /** Donors other than the item, in a drawn order. */
    private static List<Item> drawn(List<Item> donors, Item item, Random random) {
        List<Item> out = new ArrayList<>();
        for (Item d : donors) {
            if (!d.id().equals(item.id()) && !d.content().equals(item.content())) {
                out.add(d);
            }
        }
        java.util.Collections.shuffle(out, random);
        return out;
    }

    /**
     * Whether a sentence names the donor to the item's reader: it holds one of the donor's
     * text-valued source values (three letters or more, not a number) that none of the item's
     * source values holds.
     */
    static boolean names(String sentence, Item donor, Item item) {
        String s = sentence.toLowerCase(Locale.ROOT);
        for (String value : donor.source().values()) {
            if (value == null) {
                continue;
            }
            String v = value.strip().toLowerCase(Locale.ROOT);
            if (v.length() < 3 || !v.matches(".*\\p{L}.*") || v.matches("[\\d.,\\s]+")) {
                continue;
            }
            boolean own = item.source().values().stream()
                    .anyMatch(o -> o != null && o.toLowerCase(Locale.ROOT).contains(v));
            if (!own && containsWord(s, v)) {
                return true;
            }
        }
        return false;
    }

    private static boolean containsWord(String text, String phrase) {
        int i = text.indexOf(phrase);
        while (i >= 0) {
            boolean before = i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1));
            int end = i + phrase.length();
            boolean after = end >= text.length() || !Character.isLetterOrDigit(text.charAt(end));
            if (before && after) {
                return true;
            }
            i = text.indexOf(phrase, i + 1);
        }
        return false;
    }
}
