package dev.santabatch.eval;

import static dev.santabatch.eval.ListingCatalogGenerator.BOILERPLATE;
import static dev.santabatch.eval.ListingCatalogGenerator.CONTRADICTION;
import static dev.santabatch.eval.ListingCatalogGenerator.FORBIDDEN_CLAIM;
import static dev.santabatch.eval.ListingCatalogGenerator.MISSING_REQUIRED_SENTENCE;
import static dev.santabatch.eval.ListingCatalogGenerator.OFF_TOPIC_SENTENCE;
import static dev.santabatch.eval.ListingCatalogGenerator.WRONG_CURRENCY;
import static dev.santabatch.eval.ListingCatalogGenerator.WRONG_NUMBER;

import dev.santabatch.eval.ListingVocabulary.Activity;
import dev.santabatch.eval.ListingVocabulary.Category;
import dev.santabatch.eval.ListingVocabulary.City;
import dev.santabatch.eval.ListingVocabulary.Forbidden;
import dev.santabatch.eval.ListingVocabulary.Passage;
import dev.santabatch.eval.ListingVocabulary.Pool;
import dev.santabatch.eval.ListingVocabulary.Practical;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Draws the listings of a catalog one at a time and writes each text from its facts, planting the defects of
 * {@link ListingCatalogGenerator}. Memory is bounded whatever the row count: the 50 most recent listings (for
 * off-topic sentences naming another item's city) and the pending members of open boilerplate groups, all
 * within {@value #GROUP_WINDOW} rows.
 */
final class ListingComposer {
    /** Kilometres in a mile: a distance in miles is the kilometres divided by this, to one decimal. */
    static final double KM_PER_MILE = 1.609344;

    private static final int MAX_SENTENCES = 6;
    /** Rows between the starts of two boilerplate groups: at least this, plus up to as many again. */
    private static final int GROUP_GAP = 70;
    private static final int GROUP_WINDOW = 60;
    private static final double P_MISSING_NOTICE = 0.22;
    private static final double P_DEFECT = 0.26;
    private static final double P_SECOND_KIND = 0.15;
    private static final double P_MILES = 0.35;
    private static final double P_NEWLINE = 0.03;
    /**
     * Share of listings (clean or not) that carry one of the pool's {@link Pool#houseStyle() house-style lines}:
     * each of a pool's five lines is in about 8 % of the catalog, legitimately (the shop's own wording, no facts).
     */
    static final double P_HOUSE_STYLE = 0.4;
    private static final String[] KINDS = {WRONG_NUMBER, FORBIDDEN_CLAIM, OFF_TOPIC_SENTENCE, CONTRADICTION, WRONG_CURRENCY};
    private static final double[] WEIGHTS = {3.9, 3.2, 3.0, 2.8, 2.4};
    private static final String[] CENTS = {"00", "00", "50", "90", "95"};
    private static final int[] RATING_WEIGHTS = {3, 7, 20, 40, 30};
    private static final String[][] EDITS = {
            {" our ", " the "}, {" your ", " the "}, {" every ", " each "}, {" each ", " every "}, {" and ", " & "},
            {" will ", " shall "}, {" quickly", " fast"}, {" is ", " is always "}, {" you ", " you really "}};

    /** A listing's facts, the source columns of its row. */
    record Listing(String id, String name, City city, Category category, int rating, int distanceTenths,
                   int groupSize, int halfHours, String price) {
        String distanceKm() {
            return tenths(distanceTenths);
        }

        String durationHours() {
            return halfHours % 2 == 0 ? Integer.toString(halfHours / 2) : halfHours / 2 + ".5";
        }

        boolean inPark(Pool pool) {
            return city.region().equals(pool.parkRegion());
        }
    }

    /** A listing, its text, and its ground-truth rows ({@link ListingCatalogGenerator#TRUTH_HEADER}). */
    record Item(Listing listing, String text, List<String[]> truth) {}

    private record Member(String group, Passage passage, String variant, int index, int[] base) {}

    /** The quantity phrases of one text, and the truth row of the planted wrong one if any. */
    private record Quantities(Map<String, String> phrases, String[] wrongRow) {}

    private final Random r;
    /** House-style draws: a stream of their own, so the rest of a catalog is what it was without them. */
    private final Random house;
    private final int rows;
    private final Pool pool;
    private final Map<Integer, Member> pending = new HashMap<>();
    private final ArrayDeque<Listing> recent = new ArrayDeque<>();
    private int groups;
    private int nextGroupStart;

    ListingComposer(long seed, int rows, Pool pool) {
        this.r = new Random(seed);
        this.house = new Random(seed ^ 0x6A09E667F3BCC908L);
        this.rows = rows;
        this.pool = pool;
        this.nextGroupStart = r.nextInt(GROUP_GAP);
    }

    /** The item of row {@code i} (0-based); rows must be asked for in order. */
    Item next(int i) {
        Listing l = listing(i);
        List<String[]> truth = new ArrayList<>();
        Member m = pending.remove(i);
        if (m == null && i >= nextGroupStart && i + GROUP_WINDOW < rows) {
            m = startGroup(i);
            nextGroupStart = i + GROUP_GAP + r.nextInt(GROUP_GAP);
        }
        String text = m != null ? boilerplate(l, m, truth) : compose(l, kinds(l), truth);
        recent.addLast(l);
        if (recent.size() > 50) {
            recent.removeFirst();
        }
        return new Item(l, text, truth);
    }

    private Listing listing(int i) {
        Category c = pick(pool.categories());
        Activity a = c.activity();
        String name = pick(c.stems()) + " " + pick(c.suffixes());
        int rating = 1;
        for (int x = r.nextInt(100); x >= RATING_WEIGHTS[rating - 1]; rating++) {
            x -= RATING_WEIGHTS[rating - 1];
        }
        int dist = between(a.minDistTenths, a.maxDistTenths);
        if (a == Activity.HIKE || (dist >= 10 && r.nextDouble() < 0.25)) {
            dist = Math.max(10, Math.round(dist / 10f) * 10); // a whole number of kilometres
        }
        String price = between(a.minPrice, a.maxPrice) + "." + CENTS[r.nextInt(CENTS.length)];
        return new Listing(String.format(Locale.ROOT, "A%05d", i + 1), name, pick(pool.cities()), c, rating, dist,
                between(a.minGroup, a.maxGroup), between(a.minHalfHours, a.maxHalfHours), price);
    }

    private Set<String> kinds(Listing l) {
        Set<String> kinds = new LinkedHashSet<>();
        if (l.inPark(pool) && r.nextDouble() < P_MISSING_NOTICE) {
            kinds.add(MISSING_REQUIRED_SENTENCE);
        }
        if (r.nextDouble() < P_DEFECT) {
            String first = weighted(null);
            kinds.add(first);
            if (r.nextDouble() < P_SECOND_KIND) {
                kinds.add(weighted(first));
            }
        }
        if (kinds.contains(OFF_TOPIC_SENTENCE) && recent.stream().allMatch(o -> o.city().equals(l.city()))) {
            kinds.remove(OFF_TOPIC_SENTENCE);
            kinds.add(WRONG_NUMBER);
        }
        if (3 + added(kinds) + (l.inPark(pool) ? 1 : 0) > MAX_SENTENCES) {
            kinds.remove(FORBIDDEN_CLAIM); // a contradiction and another added sentence do not fit beside the notice
            kinds.remove(OFF_TOPIC_SENTENCE);
        }
        return kinds;
    }

    /** Sentences the planted kinds add to a text (a contradiction needs the statement it contradicts). */
    private static int added(Set<String> kinds) {
        return (kinds.contains(FORBIDDEN_CLAIM) ? 1 : 0) + (kinds.contains(OFF_TOPIC_SENTENCE) ? 1 : 0)
                + (kinds.contains(CONTRADICTION) ? 2 : 0);
    }

    private String weighted(String exclude) {
        double total = 0;
        for (int k = 0; k < KINDS.length; k++) {
            total += KINDS[k].equals(exclude) ? 0 : WEIGHTS[k];
        }
        double x = r.nextDouble() * total;
        for (int k = 0; k < KINDS.length; k++) {
            if (!KINDS[k].equals(exclude)) {
                x -= WEIGHTS[k];
                if (x < 0) {
                    return KINDS[k];
                }
            }
        }
        return WRONG_NUMBER;
    }

    // ---- a listing's text ----------------------------------------------------------------------------------

    private String compose(Listing l, Set<String> kinds, List<String[]> truth) {
        Quantities q = quantities(l, kinds.contains(WRONG_NUMBER));
        Map<String, String> v = vars(l, q.phrases());
        if (q.wrongRow() != null) {
            truth.add(q.wrongRow());
        }
        if (kinds.contains(WRONG_CURRENCY)) {
            int style = r.nextInt(ListingVocabulary.PRICES.size());
            String wrong = price(pool.wrongPrices().get(style), l.price());
            String right = price(ListingVocabulary.PRICES.get(style), l.price());
            v.put("price", wrong);
            truth.add(row(l, WRONG_CURRENCY, "price", wrong, right, ""));
        }
        boolean contradiction = kinds.contains(CONTRADICTION);
        int added = added(kinds);
        String notice = notice(l, kinds, truth);
        int fixed = 3 + added + (notice.isEmpty() ? 0 : 1); // intro, logistics, value
        boolean distanceInIntro = fixed + 1 > MAX_SENTENCES || r.nextBoolean();
        List<String> s = new ArrayList<>();
        s.add(fill(pick(distanceInIntro ? pool.introsWithDistance() : pool.intros()), v));
        if (!distanceInIntro) {
            s.add(fill(pick(pool.wheres()), v));
        }
        int room = MAX_SENTENCES - s.size() - 2 - added - (notice.isEmpty() ? 0 : 1);
        String firstColor = room > 0 && r.nextDouble() < 0.8 ? pick(pool.colors()) : null;
        if (firstColor != null) {
            s.add(fill(firstColor, v));
            room--;
        }
        if (room > 0 && firstColor != null && !firstColor.contains("{hl2}") && r.nextDouble() < 0.3) {
            // a second colour sentence, about the second highlight
            String second = pick(pool.colors().stream().filter(x -> !x.contains("{hl2}") && !x.equals(firstColor)).toList());
            Map<String, String> w = new HashMap<>(v);
            w.put("hl", v.get("hl2"));
            s.add(fill(second, w));
            room--;
        }
        s.add(fill(pick(pool.logistics()), v));
        s.add(fill(pick(pool.values()), v));
        if (contradiction) {
            Practical stated = pick(pool.practicals());
            List<Practical> opposite = pool.practicals().stream()
                    .filter(p -> p.topic().equals(stated.topic()) && p.permissive() != stated.permissive()).toList();
            Practical against = pick(opposite);
            s.add(stated.sentence());
            s.add(1 + r.nextInt(s.size()), against.sentence());
            truth.add(row(l, CONTRADICTION, stated.topic(), against.sentence(), stated.sentence(), ""));
        } else if (room > 0 && r.nextDouble() < 0.55) {
            s.add(pick(pool.practicals()).sentence());
        }
        if (kinds.contains(FORBIDDEN_CLAIM)) {
            Forbidden f = pick(pool.forbidden());
            s.add(1 + r.nextInt(s.size()), fill(f.template(), v));
            truth.add(row(l, FORBIDDEN_CLAIM, f.term(), f.variant(), "", ""));
        }
        if (kinds.contains(OFF_TOPIC_SENTENCE)) {
            Listing o = otherCity(l);
            Map<String, String> w = new HashMap<>(v);
            w.put("ocity", o.city().name());
            String sentence = fill(pick(pool.offTopic()), w);
            s.add(1 + r.nextInt(s.size()), sentence);
            truth.add(row(l, OFF_TOPIC_SENTENCE, o.id(), sentence, o.city().name(), ""));
        }
        houseStyle(s, notice.isEmpty() ? 0 : 1);
        if (!notice.isEmpty()) {
            s.add(notice);
        }
        return join(s);
    }

    /** What stands where the park notice belongs: the notice, a planted non-compliant stand-in, or nothing. */
    private String notice(Listing l, Set<String> kinds, List<String[]> truth) {
        if (!l.inPark(pool)) {
            return "";
        }
        if (!kinds.contains(MISSING_REQUIRED_SENTENCE)) {
            return ListingVocabulary.NOTICE;
        }
        String instead = pick(pool.noticeMisses());
        truth.add(row(l, MISSING_REQUIRED_SENTENCE, ListingVocabulary.NOTICE, instead, "", ""));
        return instead;
    }

    private Map<String, String> vars(Listing l, Map<String, String> quantities) {
        Category c = l.category();
        String noun = pick(c.nouns());
        List<String> highlights = new ArrayList<>(c.highlights());
        java.util.Collections.shuffle(highlights, r);
        Map<String, String> v = new HashMap<>(quantities);
        v.put("name", l.name());
        v.put("a_noun", SampleCatalogGenerator.article(noun) + " " + noun);
        v.put("city", l.city().name());
        v.put("region", l.city().region());
        v.put("hl", highlights.get(0)); // the colour sentences
        v.put("hl2", highlights.get(1));
        v.put("hl3", highlights.get(2)); // the intro's
        v.put("price", price(pick(ListingVocabulary.PRICES), l.price()));
        return v;
    }

    // ---- quantities ----------------------------------------------------------------------------------------

    /**
     * The rating, distance, group-size and duration phrases in styles drawn at random; with {@code plantWrong}
     * one of them states a wrong value, and the truth row holds it and the true value in the same style.
     */
    private Quantities quantities(Listing l, boolean plantWrong) {
        ListingVocabulary.Styles st = pool.styles();
        String ratingStyle = pick(st.rating());
        boolean miles = r.nextDouble() < P_MILES;
        String distStyle = pick(miles ? st.miles() : st.km());
        String groupStyle = pick(st.group());
        List<String> durStyles = l.halfHours() <= 6 ? st.duration()
                : st.duration().stream().filter(x -> !x.contains("{min}")).toList();
        String durStyle = pick(durStyles);
        int milesTenths = (int) Math.round(l.distanceTenths() / KM_PER_MILE);
        Map<String, String> p = new HashMap<>();
        p.put("rating", count(ratingStyle, l.rating(), "star"));
        p.put("dist", miles ? distance(distStyle, milesTenths) : distance(distStyle, l.distanceTenths()));
        p.put("group", count(groupStyle, l.groupSize(), null));
        p.put("dur", duration(durStyle, l.halfHours()));
        if (!plantWrong) {
            return new Quantities(p, null);
        }
        String[] columns = {"rating", "distance_km", "group_size", "duration_hours"};
        String column = columns[r.nextInt(columns.length)];
        String wrong;
        String key;
        switch (column) {
            case "rating" -> {
                key = "rating";
                int w = l.rating();
                while (w == l.rating()) {
                    w = 1 + r.nextInt(5);
                }
                wrong = count(ratingStyle, w, "star");
            }
            case "distance_km" -> {
                key = "dist";
                int t = miles ? milesTenths : l.distanceTenths();
                int w = miles && t != l.distanceTenths() && r.nextBoolean()
                        ? l.distanceTenths() // the kilometres stated as miles
                        : wrongDistance(t, l.distanceTenths() % 10 == 0 && !miles);
                wrong = distance(distStyle, w);
            }
            case "group_size" -> {
                key = "group";
                int w = l.groupSize();
                while (w == l.groupSize() || w < 2) {
                    w = l.groupSize() + (r.nextBoolean() ? 1 : -1) * (2 + r.nextInt(9));
                }
                wrong = count(groupStyle, w, null);
            }
            default -> {
                key = "dur";
                int w = l.halfHours();
                while (w == l.halfHours() || w < 2 || (durStyle.contains("{min}") && w > 6)) {
                    w = l.halfHours() + (r.nextBoolean() ? 1 : -1) * (1 + r.nextInt(6));
                }
                wrong = duration(durStyle, w);
            }
        }
        String right = p.put(key, wrong);
        return new Quantities(p, row(l, WRONG_NUMBER, column, wrong, right, ""));
    }

    private int wrongDistance(int tenths, boolean whole) {
        int w = tenths;
        while (w == tenths || w < 2) {
            int delta = Math.max(whole ? 10 : 3, (int) Math.round(tenths * (0.3 + 0.7 * r.nextDouble())));
            w = r.nextBoolean() ? tenths + delta : tenths - delta;
            if (whole) {
                w = Math.round(w / 10f) * 10;
            }
        }
        return w;
    }

    /** A count in a style: {n} digits, {w} words; {@code unit} is made singular for one ("1 star"). */
    private static String count(String style, int n, String unit) {
        String s = style.replace("{n}", Integer.toString(n)).replace("{w}", SampleCatalogGenerator.words(n));
        return unit != null && n == 1 ? s.replaceFirst("\\b(1|one) " + unit + "s\\b", "$1 " + unit) : s;
    }

    /** A distance in tenths, in a style: {n} digits with at most one decimal, {w} words when whole. */
    private static String distance(String style, int tenths) {
        String words = tenths % 10 == 0 ? SampleCatalogGenerator.words(tenths / 10) : tenths(tenths);
        String s = style.replace("{n}", tenths(tenths)).replace("{w}", words);
        return tenths == 10 ? s.replaceFirst("\\b(1|one) (mile|kilometre)s\\b", "$1 $2") : s;
    }

    /** A duration in half hours: {n} digits ("2.5"), {w} words ("two and a half"), {min} minutes. */
    private static String duration(String style, int halfHours) {
        String digits = halfHours % 2 == 0 ? Integer.toString(halfHours / 2) : halfHours / 2 + ".5";
        String words = SampleCatalogGenerator.words(halfHours / 2) + (halfHours % 2 == 0 ? "" : " and a half");
        String s = style.replace("{n}", digits).replace("{w}", words).replace("{min}", Integer.toString(halfHours * 30));
        return halfHours == 2 ? s.replaceFirst("\\b(1|one) (hour|hr)s\\b", "$1 $2") : s;
    }

    private static String price(String style, String price) {
        return style.replace("{p}", price);
    }

    static String tenths(int tenths) {
        return tenths % 10 == 0 ? Integer.toString(tenths / 10) : tenths / 10 + "." + tenths % 10;
    }

    // ---- other items ---------------------------------------------------------------------------------------

    /** A recent listing of another city (there is one: {@link #kinds} checked). */
    private Listing otherCity(Listing l) {
        List<Listing> others = recent.stream().filter(o -> !o.city().name().equals(l.city().name())).toList();
        return pick(others);
    }

    // ---- boilerplate -----------------------------------------------------------------------------------------

    private Member startGroup(int i) {
        // variants and passages cycle, so every catalog with a few groups has all of them
        String variant = new String[] {"exact", "edit", "paraphrase"}[groups % 3];
        int size = 3 + r.nextInt(variant.equals("paraphrase") ? 2 : 4);
        Passage ps = pool.passages().get(groups % pool.passages().size());
        int[] base = new int[ps.slots().size()];
        for (int j = 0; j < base.length; j++) {
            base[j] = r.nextInt(4);
        }
        String gid = String.format(Locale.ROOT, "G%03d", ++groups);
        Set<Integer> chosen = new HashSet<>();
        for (int m = 1; m < size; m++) {
            for (int tries = 0; tries < 200; tries++) {
                int row = i + 1 + r.nextInt(GROUP_WINDOW);
                if (!pending.containsKey(row) && chosen.add(row)) {
                    pending.put(row, new Member(gid, ps, variant, m, base));
                    break;
                }
            }
        }
        return new Member(gid, ps, variant, 0, base);
    }

    /** A group member: its own intro and facts, with the group's passage in place of its own colour. */
    private String boilerplate(Listing l, Member m, List<String[]> truth) {
        List<List<String>> slots = m.passage().slots();
        List<String> parts = new ArrayList<>();
        for (int j = 0; j < slots.size(); j++) {
            String text = switch (m.variant()) {
                case "paraphrase" -> slots.get(j).get((m.base()[j] + m.index()) % 4);
                case "edit" -> m.index() > 0 && (j == (m.index() - 1) % slots.size() || r.nextDouble() < 0.3)
                        ? lightEdit(slots.get(j).get(m.base()[j]))
                        : slots.get(j).get(m.base()[j]);
                default -> slots.get(j).get(m.base()[j]);
            };
            parts.add(text);
        }
        String passage = String.join(" ", parts);
        Map<String, String> v = vars(l, quantities(l, false).phrases());
        List<String> s = new ArrayList<>();
        s.add(fill(pick(pool.introsWithDistance()), v));
        s.add(fill(pick(pool.logistics()), v));
        s.add(fill(pick(pool.values()), v));
        s.add(r.nextBoolean() ? 1 : 3, passage);
        houseStyle(s, (l.inPark(pool) ? 1 : 0) + slots.size() - 1); // the passage is one element of several sentences
        if (l.inPark(pool)) {
            s.add(ListingVocabulary.NOTICE);
        }
        truth.add(row(l, BOILERPLATE, m.passage().id(), passage, m.variant(), m.group()));
        return join(s);
    }

    /** Appends a house-style line to {@code s} now and then, when it fits beside the {@code reserved} sentences still to come. */
    private void houseStyle(List<String> s, int reserved) {
        if (house.nextDouble() < P_HOUSE_STYLE) {
            String line = pool.houseStyle().get(house.nextInt(pool.houseStyle().size()));
            if (s.size() + reserved < MAX_SENTENCES) {
                s.add(line);
            }
        }
    }

    private String lightEdit(String text) {
        List<String[]> applicable = new ArrayList<>();
        for (String[] e : EDITS) {
            if (text.contains(e[0])) {
                applicable.add(e);
            }
        }
        String out = text;
        if (!applicable.isEmpty()) {
            String[] e = applicable.get(r.nextInt(applicable.size()));
            out = out.replaceFirst(Pattern.quote(e[0]), Matcher.quoteReplacement(e[1]));
        }
        if (out.equals(text) || r.nextBoolean()) {
            out = out.substring(0, out.length() - 1) + "!";
        }
        return out;
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    private String fill(String template, Map<String, String> v) {
        return SampleCatalogGenerator.fill(template, v);
    }

    private String join(List<String> sentences) {
        boolean newline = sentences.size() > 3 && r.nextDouble() < P_NEWLINE;
        StringBuilder b = new StringBuilder();
        for (int j = 0; j < sentences.size(); j++) {
            if (j > 0) {
                b.append(newline && j == sentences.size() - 1 ? "\n" : " ");
            }
            b.append(sentences.get(j));
        }
        return b.toString();
    }

    private int between(int min, int max) {
        return min + r.nextInt(max - min + 1);
    }

    private <T> T pick(List<T> list) {
        return list.get(r.nextInt(list.size()));
    }

    private static String[] row(Listing l, String kind, String detail, String wrong, String truth, String group) {
        return new String[] {l.id(), kind, detail, wrong, truth, group};
    }
}
