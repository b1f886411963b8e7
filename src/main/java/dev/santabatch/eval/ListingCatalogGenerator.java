package dev.santabatch.eval;

import dev.santabatch.eval.ListingComposer.Item;
import dev.santabatch.eval.ListingComposer.Listing;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

/**
 * Seeded generator of a second catalog domain, tour-and-activity listings written from each listing's facts
 * the way a language model writes them, with planted systematic defects and a ground-truth file, for the
 * benchmarks of the Santa job on a catalog it was not built around. Clean listings share sentence templates
 * and differ in their facts: listings written from one template look alike, as a model's output does, so
 * likeness alone is no defect (unlike {@link SampleCatalogGenerator}, nothing makes clean texts differ).
 *
 * <h2>Catalog</h2>
 * UTF-8 CSV (commons-csv {@code CSVFormat.DEFAULT}, LF record separator; listings hold commas, quotes,
 * non-ASCII characters such as €, and now and then an embedded LF), header {@value #CATALOG_HEADER_LINE}:
 * <ul>
 *   <li>{@code id}: {@code A00001}, {@code A00002}, … in row order</li>
 *   <li>{@code name}, {@code city}, {@code region}: the listing's name, its city (each city lies in one region;
 *       one region per pool is a national park, named "… National Park")</li>
 *   <li>{@code category}: six activities (walks, boat trips, food tours, cycling, museum visits, hikes), labelled
 *       in the pool's own words</li>
 *   <li>{@code rating}: stars, integer 1–5; {@code distance_km}: from the city centre, integer or one decimal;
 *       {@code group_size}: maximum guests, integer; {@code duration_hours}: whole or half hours;
 *       {@code price}: euros per person, two decimals</li>
 *   <li>{@code listing}: 3–6 sentences stating the name, city, distance (in kilometres, or in miles converted
 *       as {@code km / 1.609344} to one decimal), duration, group size, rating and price (as {@code €45.00},
 *       {@code 45.00 euros} or {@code EUR 45.00}) in digits and number words; two in five listings (clean or
 *       not) carry one of the pool's five house-style lines ("Prices include all local taxes and booking fees."),
 *       fact-free sentences each shared by about 8 % of the catalog, legitimately; listings in the park region end
 *       with {@value ListingVocabulary#NOTICE}</li>
 * </ul>
 *
 * <h2>Ground truth</h2>
 * Same CSV format, header {@value #TRUTH_HEADER_LINE}, one row per planted defect per item, in catalog order
 * (an item may carry two). Rates are shares of all items, the mean of six tuning-pool catalogs of 1,500 rows
 * (each within about ±1.5 points); 68.5 % of the items are clean.
 * <table>
 *   <caption>truth rows</caption>
 *   <tr><th>kind</th><th>rate</th><th>detail</th><th>wrong</th><th>truth</th><th>group</th></tr>
 *   <tr><td>{@value #WRONG_NUMBER}</td><td>7.0 %</td><td>the column contradicted: {@code rating},
 *       {@code distance_km}, {@code group_size} or {@code duration_hours}</td><td>the quantity as written, e.g.
 *       {@code groups of twelve}, {@code 4.5 miles} (sometimes the kilometres stated as miles)</td><td>the true
 *       quantity in the same style, e.g. {@code groups of ten}, {@code 2.8 miles}</td><td></td></tr>
 *   <tr><td>{@value #MISSING_REQUIRED_SENTENCE}</td><td>3.5 % (22 % of the park region, a sixth of the
 *       items)</td><td>the notice</td><td>what stands instead: empty (omitted) or a non-compliant stand-in as
 *       written</td><td></td><td></td></tr>
 *   <tr><td>{@value #FORBIDDEN_CLAIM}</td><td>6.5 %</td><td>base term: guaranteed, once-in-a-lifetime, best in the
 *       world, life-changing</td><td>the variant as written (case, inflection, hyphenation)</td><td></td><td></td></tr>
 *   <tr><td>{@value #OFF_TOPIC_SENTENCE}</td><td>5.4 %</td><td>id of the other item whose city the sentence
 *       names</td><td>the sentence</td><td>that city</td><td></td></tr>
 *   <tr><td>{@value #BOILERPLATE}</td><td>3.8 %</td><td>passage id, e.g. {@code T-BP2}</td><td>the passage as
 *       written in this item</td><td>{@code exact}, {@code edit} or {@code paraphrase}</td><td>group id, e.g.
 *       {@code G003}; every member (3–6) is listed</td></tr>
 *   <tr><td>{@value #CONTRADICTION}</td><td>5.1 %</td><td>topic: schedule, access, children or pets</td><td>the
 *       contradicting sentence (e.g. "not suitable for wheelchairs" beside "wheelchair accessible")</td><td>the
 *       sentence it contradicts, which stays</td><td></td></tr>
 *   <tr><td>{@value #WRONG_CURRENCY}</td><td>4.8 %</td><td>{@code price}</td><td>the price as written in another
 *       currency, e.g. {@code $45.00}, {@code 45.00 dollars}</td><td>the same amount in euros in the same style,
 *       e.g. {@code €45.00}, {@code 45.00 euros}</td><td></td></tr>
 * </table>
 * The first five are the shapes rule induction knows; a contradiction inside one text and a wrong currency are
 * shapes it does not: each contradicting sentence also occurs alone in clean listings (so no rule on its
 * wording holds), and currency amounts are outside number grounding (only the word forms, "dollars" for
 * "euros", look like a substituted term). {@link #plantedDefects(Path)} reads the rows as
 * {@link PlantedDefect}s.
 *
 * <h2>Pools</h2>
 * A catalog is written from one of two disjoint {@link Pool}s: sentence templates, names, cities and regions,
 * category labels and wording, quantity phrasings, practical sentences, boilerplate passages, off-topic
 * sentences and defect wordings differ; columns, kinds, rates and the task's own text (the park notice, the
 * euro styles, the forbidden base terms) are the same. {@link Pool#HELD_OUT} is never used by any tuning: no
 * threshold, rate or parameter anywhere is chosen by looking at it, so figures on it are held-out figures.
 *
 * <p>Generation streams: memory is bounded (the 50 most recent listings and the open boilerplate groups, within
 * 60 rows; a group starts every 70–140 rows) whatever the row count.
 */
public final class ListingCatalogGenerator {
    public static final long DEFAULT_SEED = 20261202L;
    public static final int DEFAULT_ROWS = 1500;

    static final String CATALOG_HEADER_LINE =
            "id,name,city,region,category,rating,distance_km,group_size,duration_hours,price,listing";
    static final String TRUTH_HEADER_LINE = "id,kind,detail,wrong,truth,group";
    public static final List<String> CATALOG_HEADER = List.of(CATALOG_HEADER_LINE.split(","));
    public static final List<String> TRUTH_HEADER = List.of(TRUTH_HEADER_LINE.split(","));

    public static final String WRONG_NUMBER = "wrong-number";
    public static final String MISSING_REQUIRED_SENTENCE = "missing-required-sentence";
    public static final String FORBIDDEN_CLAIM = "forbidden-claim";
    public static final String OFF_TOPIC_SENTENCE = "off-topic-sentence";
    public static final String BOILERPLATE = "boilerplate";
    public static final String CONTRADICTION = "contradiction";
    public static final String WRONG_CURRENCY = "wrong-currency";
    public static final List<String> KINDS = List.of(WRONG_NUMBER, MISSING_REQUIRED_SENTENCE, FORBIDDEN_CLAIM,
            OFF_TOPIC_SENTENCE, BOILERPLATE, CONTRADICTION, WRONG_CURRENCY);

    /** The sentence every listing of the park region must carry, verbatim. */
    public static final String NOTICE = ListingVocabulary.NOTICE;

    /** What a generation wrote. */
    public record Summary(int rows, int cleanRows, int truthRows) {}

    /** The vocabulary pool a catalog is written from (see the class comment). */
    public enum Pool {
        /** The pool anything may be tuned on. */
        TUNING("tuning", ListingVocabulary.TUNING, 0L),
        /** The evaluation pool: never used by any tuning. */
        HELD_OUT("held-out", ListingVocabulary.HELD_OUT, 0x3C6EF372FE94F82BL);

        private final String option;
        private final ListingVocabulary.Pool vocabulary;
        private final long seedMix;

        Pool(String option, ListingVocabulary.Pool vocabulary, long seedMix) {
            this.option = option;
            this.vocabulary = vocabulary;
            this.seedMix = seedMix;
        }

        /** The pool's name (as in file names). */
        public String option() {
            return option;
        }

        ListingVocabulary.Pool vocabulary() {
            return vocabulary;
        }
    }

    private static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder().setRecordSeparator("\n").get();
    private static final CSVFormat READ = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();

    private ListingCatalogGenerator() {}

    /**
     * Writes a catalog and (if {@code truth} is not null) its ground truth, streaming.
     *
     * @param seed  random seed; the same seed, rows and pool give byte-identical files
     * @param rows  number of catalog rows, at least 1
     * @param pool  the vocabulary pool
     * @param csv   catalog file to write (parent folders are created)
     * @param truth ground-truth file to write, or null for none
     */
    public static Summary write(long seed, int rows, Pool pool, Path csv, Path truth) throws IOException {
        createParent(csv);
        if (truth != null) {
            createParent(truth);
        }
        try (BufferedWriter c = Files.newBufferedWriter(csv, StandardCharsets.UTF_8);
             BufferedWriter t = truth == null ? null : Files.newBufferedWriter(truth, StandardCharsets.UTF_8)) {
            return write(seed, rows, pool, c, t);
        }
    }

    /** Writes to appendables (truth may be null); see {@link #write(long, int, Pool, Path, Path)}. */
    public static Summary write(long seed, int rows, Pool pool, Appendable csv, Appendable truth) throws IOException {
        if (rows < 1) {
            throw new IllegalArgumentException("rows must be at least 1");
        }
        CSVPrinter c = new CSVPrinter(csv, FORMAT);
        c.printRecord(CATALOG_HEADER);
        CSVPrinter t = truth == null ? null : new CSVPrinter(truth, FORMAT);
        if (t != null) {
            t.printRecord(TRUTH_HEADER);
        }
        ListingComposer composer = new ListingComposer(seed ^ pool.seedMix, rows, pool.vocabulary());
        int clean = 0;
        int truthRows = 0;
        for (int i = 0; i < rows; i++) {
            Item item = composer.next(i);
            Listing l = item.listing();
            c.printRecord(l.id(), l.name(), l.city().name(), l.city().region(), l.category().label(), l.rating(),
                    l.distanceKm(), l.groupSize(), l.durationHours(), l.price(), item.text());
            if (item.truth().isEmpty()) {
                clean++;
            }
            for (String[] row : item.truth()) {
                truthRows++;
                if (t != null) {
                    t.printRecord((Object[]) row);
                }
            }
        }
        c.flush();
        if (t != null) {
            t.flush();
        }
        return new Summary(rows, clean, truthRows);
    }

    /**
     * The planted defects of a ground-truth file this generator wrote, in file order. Evidence is an exact
     * substring of the item's listing: the wrong quantity or price (corrected to the true one in the same
     * style), the forbidden variant, the off-topic sentence, the boilerplate passage or the contradicting
     * sentence (each removed: correction ""), a non-compliant stand-in for the notice (replaced by the notice);
     * an omitted notice has no evidence and the notice as its appendix.
     */
    public static List<PlantedDefect> plantedDefects(Path truthCsv) throws IOException {
        List<PlantedDefect> out = new ArrayList<>();
        try (Reader in = Files.newBufferedReader(truthCsv, StandardCharsets.UTF_8); CSVParser p = READ.parse(in)) {
            for (CSVRecord r : p) {
                String id = r.get("id");
                String kind = r.get("kind");
                String wrong = r.get("wrong");
                out.add(switch (kind) {
                    case WRONG_NUMBER, WRONG_CURRENCY -> new PlantedDefect(id, kind, wrong, r.get("truth"), "");
                    case MISSING_REQUIRED_SENTENCE -> wrong.isEmpty()
                            ? new PlantedDefect(id, kind, "", "", r.get("detail"))
                            : new PlantedDefect(id, kind, wrong, r.get("detail"), "");
                    case FORBIDDEN_CLAIM, OFF_TOPIC_SENTENCE, BOILERPLATE, CONTRADICTION ->
                            new PlantedDefect(id, kind, wrong, "", "");
                    default -> throw new IllegalArgumentException(
                            truthCsv + ":" + r.getRecordNumber() + ": unknown kind '" + kind + "'");
                });
            }
        }
        return out;
    }

    /** Truth kind → id of the criterion of {@code bench/listings-llm.yml} that a reviewer fails it under. */
    public static Map<String, String> benchmarkCriteria() {
        return Map.of(WRONG_NUMBER, "factual-accuracy", WRONG_CURRENCY, "factual-accuracy",
                MISSING_REQUIRED_SENTENCE, "park-notice", FORBIDDEN_CLAIM, "no-forbidden-claims",
                OFF_TOPIC_SENTENCE, "on-specification", BOILERPLATE, "original",
                CONTRADICTION, "internal-consistency");
    }

    private static void createParent(Path p) throws IOException {
        Path parent = p.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }
}
