package dev.santabatch.eval;

import dev.santabatch.text.Shingles;
import dev.santabatch.eval.CatalogVocabulary.Cat;
import dev.santabatch.eval.CatalogVocabulary.Forbidden;
import dev.santabatch.eval.CatalogVocabulary.NumTpl;
import dev.santabatch.eval.CatalogVocabulary.Passage;
import dev.santabatch.eval.CatalogVocabulary.Pool;
import dev.santabatch.eval.CatalogVocabulary.Topic;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
import java.util.TreeMap;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Seeded generator of a sample catalog of LLM-style product descriptions with planted defects and a
 * ground-truth file, for demos, tests and benchmarks of the Santa job.
 *
 * <h2>Catalog ({@code products.csv})</h2>
 * UTF-8 CSV (commons-csv {@code CSVFormat.DEFAULT}: comma, double-quote quoting only where needed, LF record
 * separator; descriptions may hold commas, quotes, non-ASCII characters and embedded LF newlines), header
 * {@value #CATALOG_HEADER_LINE}:
 * <ul>
 *   <li>{@code id}: {@code P00001}, {@code P00002}, … (five digits at least, in row order)</li>
 *   <li>{@code name}, {@code brand}: product name and brand (brand lists are per category)</li>
 *   <li>{@code category}: headphones, laptops, kitchen, fitness, supplements, outdoor</li>
 *   <li>{@code price}: dollars with two decimals, e.g. {@code 49.99}</li>
 *   <li>{@code warranty_years}: integer 1–5</li>
 *   <li>{@code battery_hours}: integer for headphones, laptops, fitness, outdoor; empty for kitchen and
 *       supplements</li>
 *   <li>{@code description}: 2–5 sentences (defects may add one) naming the product, brand, price, warranty and,
 *       where there is a battery, battery life, in varied wordings (digits, number words, months).
 *       Supplements end with {@value CatalogVocabulary#DISCLAIMER}</li>
 * </ul>
 * About 70 % of the items are clean (no truth row). Clean items share at most 40 % of their lower-cased word
 * 3-shingles ({@link Shingles}) with any of the previous 250 clean items of the same category (texts are
 * regenerated until they do), so in catalogs of up to about 2,000 rows no two clean items exceed that; items of
 * different categories share little vocabulary, and beyond that size the phrase variety keeps it likely.
 *
 * <h2>Ground truth ({@code products.truth.csv})</h2>
 * Same CSV format, header {@value #TRUTH_HEADER_LINE}, one row per planted defect per item, in catalog order
 * (an item may carry several defects). Kinds and columns:
 * <table>
 *   <caption>truth rows</caption>
 *   <tr><th>kind</th><th>detail</th><th>wrong</th><th>truth</th><th>group</th></tr>
 *   <tr><td>{@value #FORBIDDEN_TERM}</td><td>base term from the rubric (miracle, cure, revolutionize, risk-free,
 *       clinically proven)</td><td>the variant exactly as written (e.g. {@code Cures}, {@code MIRACLE},
 *       {@code revolutionized})</td><td>the rubric's replacement (remarkable, relieve, transform, low-risk,
 *       tested)</td><td></td></tr>
 *   <tr><td>{@value #MISSING_DISCLAIMER}</td><td>the missing phrase (the FDA disclaimer)</td><td>what stands
 *       instead: empty (omitted) or a truncated / paraphrased non-compliant version</td><td></td><td></td></tr>
 *   <tr><td>{@value #WRONG_NUMBER}</td><td>the column: {@code warranty_years} or {@code battery_hours}</td>
 *       <td>the wrong value stated, in the column's unit (years / hours), e.g. {@code 5}; the text says it in
 *       digits, number words or (warranty) months</td><td>the true column value</td><td></td></tr>
 *   <tr><td>{@value #DRIFT_SENTENCE}</td><td>{@code sentence}</td><td>the drifted sentence</td>
 *       <td>{@code topic:<label>} for an off-topic sentence naming no product, or {@code product:<id>} for a
 *       sentence about another catalog product</td><td></td></tr>
 *   <tr><td>{@value #DRIFT_TEXT}</td><td>{@code whole text}</td><td>the whole description</td>
 *       <td>{@code topic:<label>} or {@code product:<id>}</td><td></td></tr>
 *   <tr><td>{@value #BOILERPLATE}</td><td>passage id, e.g. {@code S-BP2}</td><td>the passage as written in this
 *       item</td><td>{@code exact}, {@code edit} (light edits) or {@code paraphrase}</td><td>group id, e.g.
 *       {@code G003}; every member (3–6) of the group is listed</td></tr>
 * </table>
 * A supplement whose whole text drifted also gets a {@value #MISSING_DISCLAIMER} row. {@link #plantedDefects}
 * turns the rows into {@link PlantedDefect}s (evidence and correct fix per row).
 *
 * <h2>Vocabulary pools</h2>
 * A catalog is written from one of three disjoint {@link Vocabulary vocabulary pools}; columns, categories,
 * defect kinds and ground truth are the same whatever the pool:
 * <ul>
 *   <li>{@link Vocabulary#SAMPLE}: the bundled sample ({@code sample-data/}); the reviewers' thresholds are
 *       derived on it.</li>
 *   <li>{@link Vocabulary#HELD_OUT} ({@code heldOut = true}, {@code --held-out}): other sentence templates,
 *       names, brands, drift topics, boilerplate passages and defect sentences. The threshold sweeps and tuning
 *       tools cross-check on it, so it is no longer held out: it is a second tuning pool.</li>
 *   <li>{@link Vocabulary#FRESH} ({@code --pool fresh}): written after the thresholds, with its own templates,
 *       names, brands, model words, category vocabulary (product nouns, features, benefits, audiences,
 *       contexts), drift topics, boilerplate passages and defect wordings. The held-out floor tests use it;
 *       no tuning tool may (a figure on a catalog one has tuned on is not a held-out figure).</li>
 * </ul>
 * Generation streams: memory is bounded (a window of recent items) whatever the row count.
 */
public final class SampleCatalogGenerator {
    public static final long DEFAULT_SEED = 20261130L;
    public static final int DEFAULT_ROWS = 1200;

    static final String CATALOG_HEADER_LINE = "id,name,brand,category,price,warranty_years,battery_hours,description";
    static final String TRUTH_HEADER_LINE = "id,kind,detail,wrong,truth,group";
    public static final List<String> CATALOG_HEADER = List.of(CATALOG_HEADER_LINE.split(","));
    public static final List<String> TRUTH_HEADER = List.of(TRUTH_HEADER_LINE.split(","));

    public static final String FORBIDDEN_TERM = "forbidden-term";
    public static final String MISSING_DISCLAIMER = "missing-disclaimer";
    public static final String WRONG_NUMBER = "wrong-number";
    public static final String DRIFT_SENTENCE = "drift-sentence";
    public static final String DRIFT_TEXT = "drift-text";
    public static final String BOILERPLATE = "boilerplate";
    public static final List<String> KINDS =
            List.of(FORBIDDEN_TERM, MISSING_DISCLAIMER, WRONG_NUMBER, DRIFT_SENTENCE, DRIFT_TEXT, BOILERPLATE);

    /** The supplements disclaimer, verbatim. */
    public static final String DISCLAIMER = CatalogVocabulary.DISCLAIMER;

    /** Categories in the catalog; the first four have batteries. */
    public static final List<String> CATEGORIES = CatalogVocabulary.CATEGORIES.stream().map(Cat::id).toList();

    /** What a generation wrote. */
    public record Summary(int rows, int cleanRows, int truthRows) {}

    /** The vocabulary pool a catalog is written from (see the class comment). */
    public enum Vocabulary {
        /** The bundled sample's pool; thresholds are derived on it. */
        SAMPLE("sample", CatalogVocabulary.SAMPLE, 0L),
        /** The second pool, used to cross-check thresholds while tuning (so not held out any more). */
        HELD_OUT("held-out", CatalogVocabulary.HELD_OUT, 0x6A09E667F3BCC909L),
        /** The evaluation pool of the held-out floor tests; never tune on it. */
        FRESH("fresh", CatalogVocabulary.FRESH, 0xBB67AE8584CAA73BL);

        private final String option;
        private final Pool pool;
        private final long seedMix;

        Vocabulary(String option, Pool pool, long seedMix) {
            this.option = option;
            this.pool = pool;
            this.seedMix = seedMix;
        }

        /** The name on the command line ({@code --pool <option>}). */
        public String option() {
            return option;
        }

        /** The pool named {@code option} on the command line. */
        public static Vocabulary ofOption(String option) {
            for (Vocabulary v : values()) {
                if (v.option.equals(option)) {
                    return v;
                }
            }
            throw new IllegalArgumentException("unknown --pool " + option + " (sample, held-out or fresh)");
        }
    }

    private static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder().setRecordSeparator("\n").get();

    private SampleCatalogGenerator() {}

    /**
     * Writes a catalog and (if {@code truth} is not null) its ground truth, streaming.
     *
     * @param seed    random seed; the same seed, rows and mode give byte-identical files
     * @param rows    number of catalog rows, at least 1
     * @param heldOut use the held-out pool instead of the sample pool
     * @param csv     catalog file to write (parent folders are created)
     * @param truth   ground-truth file to write, or null for none
     */
    public static Summary write(long seed, int rows, boolean heldOut, Path csv, Path truth) throws IOException {
        return write(seed, rows, heldOut ? Vocabulary.HELD_OUT : Vocabulary.SAMPLE, csv, truth);
    }

    /**
     * Writes a catalog and (if {@code truth} is not null) its ground truth, streaming.
     *
     * @param seed  random seed; the same seed, rows and pool give byte-identical files
     * @param rows  number of catalog rows, at least 1
     * @param pool  the vocabulary pool
     * @param csv   catalog file to write (parent folders are created)
     * @param truth ground-truth file to write, or null for none
     */
    public static Summary write(long seed, int rows, Vocabulary pool, Path csv, Path truth) throws IOException {
        createParent(csv);
        if (truth != null) {
            createParent(truth);
        }
        try (BufferedWriter c = Files.newBufferedWriter(csv, StandardCharsets.UTF_8);
             BufferedWriter t = truth == null ? null : Files.newBufferedWriter(truth, StandardCharsets.UTF_8)) {
            return write(seed, rows, pool, c, t);
        }
    }

    /** Writes to appendables (truth may be null); see {@link #write(long, int, boolean, Path, Path)}. */
    public static Summary write(long seed, int rows, boolean heldOut, Appendable csv, Appendable truth)
            throws IOException {
        return write(seed, rows, heldOut ? Vocabulary.HELD_OUT : Vocabulary.SAMPLE, csv, truth);
    }

    /** Writes to appendables (truth may be null); see {@link #write(long, int, Vocabulary, Path, Path)}. */
    public static Summary write(long seed, int rows, Vocabulary pool, Appendable csv, Appendable truth)
            throws IOException {
        if (rows < 1) {
            throw new IllegalArgumentException("rows must be at least 1");
        }
        CSVPrinter c = new CSVPrinter(csv, FORMAT);
        c.printRecord(CATALOG_HEADER);
        CSVPrinter t = truth == null ? null : new CSVPrinter(truth, FORMAT);
        if (t != null) {
            t.printRecord(TRUTH_HEADER);
        }
        Engine e = new Engine(seed ^ pool.seedMix, rows, pool.pool);
        int clean = 0;
        int truthRows = 0;
        for (int i = 0; i < rows; i++) {
            Item item = e.next(i);
            Product p = item.product;
            c.printRecord(p.id, p.name, p.brand, p.cat.id(), p.price, p.years,
                    p.hours == 0 ? "" : Integer.toString(p.hours), item.description);
            if (item.truth.isEmpty()) {
                clean++;
            }
            for (String[] row : item.truth) {
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
     * The planted defects of a catalog this generator wrote, one per ground-truth row, for judges and
     * benchmarks that must tell whether a text still carries a defect:
     * <ul>
     *   <li>{@value #FORBIDDEN_TERM}: evidence the variant as written, correction the rubric's
     *       replacement, capitalised like the variant (the truth's {@code truth} column);</li>
     *   <li>{@value #WRONG_NUMBER}: the truth gives the wrong value in the column's unit, not the
     *       span, so the span is found in the item's description: the wrong value in digits or
     *       number words (for a warranty also twelve times it before "month"), then "year", "month"
     *       or "hour" (plural or not), hyphenated or spaced, with at most one word between (e.g.
     *       {@code 5-year}, {@code five years}, {@code 60 months}, {@code five full years}). The
     *       correction is that phrase with the true value in the same form and the unit's number
     *       agreeing ({@code one year} gives {@code three years}); when the correction would contain the
     *       evidence ({@code three hours}, {@code twenty-three hours}) both start a word earlier;</li>
     *   <li>{@value #DRIFT_SENTENCE}, {@value #DRIFT_TEXT}, {@value #BOILERPLATE}: evidence the
     *       drifted sentence, the whole text, the passage as written; correction empty (the
     *       sentences holding it are removed; for a whole text a fixer writes anew);</li>
     *   <li>{@value #MISSING_DISCLAIMER}: an absence, appendix the missing phrase (the truth's
     *       {@code detail}). A non-compliant stand-in the truth's {@code wrong} names is not the
     *       evidence: once the disclaimer is there, the item meets the rubric.</li>
     * </ul>
     *
     * @param truthCsv the ground truth ({@value #TRUTH_HEADER_LINE})
     * @param catalogCsv the catalog it belongs to (read only when the truth has wrong numbers)
     * @throws IllegalStateException when a wrong number's span is not in its item's description
     */
    public static List<PlantedDefect> plantedDefects(Path truthCsv, Path catalogCsv) throws IOException {
        return ProductPlantedDefects.read(truthCsv, catalogCsv);
    }

    /**
     * The criterion of the product benchmark job ({@code src/test/resources/bench/products-llm.yml},
     * the rubric of {@code jobs/product-descriptions.yml}) that each truth kind fails.
     */
    public static Map<String, String> benchmarkCriteria() {
        return Map.of(FORBIDDEN_TERM, "compliance", MISSING_DISCLAIMER, "disclaimer", WRONG_NUMBER, "factual-accuracy",
                DRIFT_SENTENCE, "on-specification", DRIFT_TEXT, "on-specification", BOILERPLATE, "original");
    }

    /**
     * Command-line entry: {@code --seed <long> --rows <n> --out <csv> [--truth <csv>] [--pool sample|held-out|fresh]};
     * {@code --held-out} is short for {@code --pool held-out}.
     */
    public static int run(String[] args) {
        return run(args, System.out, System.err);
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        long seed = DEFAULT_SEED;
        int rows = DEFAULT_ROWS;
        Path csv = null;
        Path truth = null;
        Vocabulary pool = Vocabulary.SAMPLE;
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--seed" -> seed = Long.parseLong(value(args, ++i, a));
                    case "--rows" -> rows = Integer.parseInt(value(args, ++i, a));
                    case "--out" -> csv = Path.of(value(args, ++i, a));
                    case "--truth" -> truth = Path.of(value(args, ++i, a));
                    case "--held-out" -> pool = Vocabulary.HELD_OUT;
                    case "--pool" -> pool = Vocabulary.ofOption(value(args, ++i, a));
                    case "--help", "-h" -> {
                        out.println(usage());
                        return 0;
                    }
                    default -> throw new IllegalArgumentException("unknown option: " + a);
                }
            }
            if (csv == null) {
                throw new IllegalArgumentException("--out is required");
            }
            if (rows < 1) {
                throw new IllegalArgumentException("--rows must be at least 1");
            }
        } catch (IllegalArgumentException ex) { // includes NumberFormatException
            err.println("generate: " + ex.getMessage());
            err.println(usage());
            return 2;
        }
        try {
            Summary s = write(seed, rows, pool, csv, truth);
            out.printf(Locale.ROOT, "generate: wrote %d rows (%d clean, %d planted defects) to %s%s%n", s.rows(),
                    s.cleanRows(), s.truthRows(), csv, truth == null ? "" : " and ground truth to " + truth);
            return 0;
        } catch (IOException ex) {
            err.println("generate: cannot write: " + ex.getMessage());
            return 1;
        }
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static String usage() {
        return "usage: generate --out <catalog.csv> [--truth <truth.csv>] [--seed <long>, default " + DEFAULT_SEED
                + "] [--rows <n>, default " + DEFAULT_ROWS + "] [--pool sample|held-out|fresh, default sample; --held-out = --pool held-out]";
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static void createParent(Path p) throws IOException {
        Path parent = p.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }

    // ------------------------------------------------------------------------------------------------------

    record Product(String id, String name, String brand, Cat cat, String noun, String price, int years, int hours) {}

    record Item(Product product, String description, List<String[]> truth) {}

    private record Member(String group, Passage passage, String variant, int index, int[] base) {}

    /** Words for 0–99, for "thirty hours of playback". */
    static String words(int n) {
        String[] small = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                "nineteen"};
        String[] tens = {"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"};
        if (n < 20) {
            return small[n];
        }
        if (n < 100) {
            return tens[n / 10] + (n % 10 == 0 ? "" : "-" + small[n % 10]);
        }
        return Integer.toString(n);
    }

    private static final class Engine {
        private static final double P_GROUP = 0.012;
        private static final int GROUP_WINDOW = 60;
        private static final double P_DEFECT = 0.26;
        private static final double P_OTHER_PRODUCT_DRIFT = 0.4;
        private static final double MAX_CLEAN_JACCARD = 0.4;
        private static final int WINDOW_PER_CATEGORY = 250;
        private static final String[] CENTS = {"99", "49", "95", "00", "99", "90"};
        private static final String[][] EDITS = {
                {" our ", " the "}, {" every ", " each "}, {"Every ", "Each "}, {" each ", " every "},
                {"Each ", "Every "}, {" and ", " & "}, {" small ", " little "}, {" quickly", " fast"},
                {" always ", " "}, {" you ", " you really "}, {" local ", " nearby "}, {" new ", " latest "}};

        private final Random r;
        private final int rows;
        private final Pool pool;
        private final TreeMap<Integer, Member> pending = new TreeMap<>();
        private final ArrayDeque<Product> recent = new ArrayDeque<>();
        private final Map<String, ShingleWindow> windows = new HashMap<>();
        private int groups;

        Engine(long seed, int rows, Pool pool) {
            this.r = new Random(seed);
            this.rows = rows;
            this.pool = pool;
        }

        Item next(int i) {
            Product p = product(i);
            List<String[]> truth = new ArrayList<>();
            Member m = pending.remove(i);
            if (m == null && i + GROUP_WINDOW < rows && r.nextDouble() < P_GROUP) {
                m = startGroup(i);
            }
            String text;
            if (m != null) {
                text = boilerplate(p, m, truth);
            } else {
                Set<String> kinds = kinds(p.cat);
                if (kinds.isEmpty()) {
                    text = clean(p);
                } else {
                    text = compose(p, kinds, truth);
                }
            }
            recent.addLast(p);
            if (recent.size() > 50) {
                recent.removeFirst();
            }
            return new Item(p, text, truth);
        }

        private Product product(int i) {
            Cat c = pick(pool.categories());
            String brand = pick(pool.brands().get(c.id()));
            String name = pick(pool.stems().get(c.id())) + " " + pick(pool.suffixes());
            String noun = pick(c.nouns());
            int dollars = c.minPrice() + r.nextInt(c.maxPrice() - c.minPrice() + 1);
            String price = dollars + "." + CENTS[r.nextInt(CENTS.length)];
            int years = 1 + r.nextInt(5);
            int hours = c.battery() ? c.minHours() + r.nextInt(c.maxHours() - c.minHours() + 1) : 0;
            return new Product(String.format(Locale.ROOT, "P%05d", i + 1), name, brand, c, noun, price, years, hours);
        }

        private Set<String> kinds(Cat c) {
            Set<String> kinds = new LinkedHashSet<>();
            if (r.nextDouble() >= P_DEFECT) {
                return kinds;
            }
            String first = weighted(c, null);
            kinds.add(first);
            if (!first.equals(DRIFT_TEXT) && r.nextDouble() < 0.18) {
                kinds.add(weighted(c, first));
            }
            return kinds;
        }

        private String weighted(Cat c, String exclude) {
            boolean supp = c.id().equals("supplements");
            String[] k = {FORBIDDEN_TERM, MISSING_DISCLAIMER, WRONG_NUMBER, DRIFT_SENTENCE, DRIFT_TEXT};
            double[] w = {supp ? 5 : c.id().equals("fitness") ? 4 : 1.2, supp ? 4 : 0, 3, 2.4, exclude == null ? 1.2 : 0};
            double total = 0;
            for (int j = 0; j < k.length; j++) {
                if (k[j].equals(exclude)) {
                    w[j] = 0;
                }
                total += w[j];
            }
            double x = r.nextDouble() * total;
            for (int j = 0; j < k.length; j++) {
                x -= w[j];
                if (x < 0 && w[j] > 0) {
                    return k[j];
                }
            }
            return WRONG_NUMBER;
        }

        // ---- text --------------------------------------------------------------------------------------

        private Map<String, String> vars(Product p, boolean allowTm) {
            Cat c = p.cat;
            Map<String, String> v = new HashMap<>();
            v.put("name", p.name);
            v.put("brand", allowTm && r.nextDouble() < 0.03 ? p.brand + "™" : p.brand);
            v.put("noun", p.noun);
            v.put("a_noun", article(p.noun) + " " + p.noun);
            String feat = pick(c.feats());
            String feat2 = pick(c.feats());
            while (feat2.equals(feat)) {
                feat2 = pick(c.feats());
            }
            String feat3 = pick(c.feats());
            while (feat3.equals(feat) || feat3.equals(feat2)) {
                feat3 = pick(c.feats());
            }
            String ben = pick(c.bens());
            String ben2 = pick(c.bens());
            while (ben2.equals(ben)) {
                ben2 = pick(c.bens());
            }
            v.put("feat", feat);
            v.put("feat2", feat2);
            v.put("feat3", feat3);
            v.put("ben", ben);
            v.put("ben2", ben2);
            v.put("aud", pick(c.auds()));
            v.put("ctx", pick(c.contexts()));
            v.put("price", p.price);
            v.put("problem", pick(c.problems()));
            v.put("use", c.use());
            return v;
        }

        private String clean(Product p) {
            String best = null;
            long[] bestSh = null;
            double bestScore = 2;
            for (int attempt = 0; attempt < 40; attempt++) {
                String text = compose(p, Set.of(), new ArrayList<>());
                long[] sh = hashes(text);
                double score = window(p).maxJaccard(sh);
                if (score < bestScore) {
                    best = text;
                    bestSh = sh;
                    bestScore = score;
                }
                if (score <= MAX_CLEAN_JACCARD) {
                    break;
                }
            }
            window(p).add(bestSh);
            return best;
        }

        /** Clean items are compared within their category (other categories share little vocabulary). */
        private ShingleWindow window(Product p) {
            return windows.computeIfAbsent(p.cat.id(), k -> new ShingleWindow(WINDOW_PER_CATEGORY));
        }

        private String compose(Product p, Set<String> kinds, List<String[]> truth) {
            if (kinds.contains(DRIFT_TEXT)) {
                return driftText(p, truth);
            }
            Map<String, String> v = vars(p, true);
            List<String> s = new ArrayList<>();
            s.add(fill(pick(pool.intros()), v));
            s.add(fill(pick(pool.prices()), v));
            boolean wrong = kinds.contains(WRONG_NUMBER);
            boolean wrongBattery = wrong && p.hours > 0 && r.nextBoolean();
            if (wrong && !wrongBattery) {
                int w = p.years;
                while (w == p.years) {
                    w = r.nextInt(8) == 0 ? 10 : 1 + r.nextInt(5);
                }
                char style = "DWM".charAt(r.nextInt(3));
                s.add(number(pickStyle(pool.warranties(), style), w, v, true));
                truth.add(row(p, WRONG_NUMBER, "warranty_years", Integer.toString(w), Integer.toString(p.years), ""));
            } else {
                s.add(number(pick(pool.warranties()), p.years, v, true));
            }
            if (p.hours > 0) {
                if (wrongBattery) {
                    int h = p.hours;
                    while (h == p.hours) {
                        int delta = 4 + r.nextInt(22);
                        h = r.nextBoolean() || p.hours - delta < 2 ? p.hours + delta : p.hours - delta;
                    }
                    char style = "DW".charAt(r.nextInt(2));
                    s.add(number(pickStyle(pool.batteries(), style), h, v, false));
                    truth.add(row(p, WRONG_NUMBER, "battery_hours", Integer.toString(h), Integer.toString(p.hours), ""));
                } else {
                    s.add(number(pick(pool.batteries()), p.hours, v, false));
                }
            }
            boolean supp = p.cat.id().equals("supplements");
            boolean forbidden = kinds.contains(FORBIDDEN_TERM);
            boolean drift = kinds.contains(DRIFT_SENTENCE);
            int room = 5 - s.size() - (supp ? 1 : 0) - (forbidden ? 1 : 0) - (drift ? 1 : 0);
            String firstCloser = null;
            if (room > 0 && r.nextDouble() < 0.7) {
                firstCloser = pick(pool.closers());
                s.add(fill(firstCloser, v));
                room--;
            }
            if (room > 0 && r.nextDouble() < 0.4) {
                String second = pick(pool.closers());
                if (!second.equals(firstCloser)) {
                    s.add(fill(second, v));
                }
            }
            if (forbidden) {
                Forbidden f = pick(pool.forbidden());
                s.add(1 + r.nextInt(s.size()), fill(f.template(), v));
                truth.add(row(p, FORBIDDEN_TERM, f.term(), f.variant(), f.replacement(), ""));
            }
            if (drift) {
                String[] d = driftSentence(p);
                s.add(1 + r.nextInt(s.size()), d[0]);
                truth.add(row(p, DRIFT_SENTENCE, "sentence", d[0], d[1], ""));
            }
            if (supp) {
                if (kinds.contains(MISSING_DISCLAIMER)) {
                    String instead = pick(pool.disclaimerMisses());
                    if (!instead.isEmpty()) {
                        s.add(instead);
                    }
                    truth.add(row(p, MISSING_DISCLAIMER, DISCLAIMER, instead, "", ""));
                } else {
                    s.add(DISCLAIMER);
                }
            }
            return join(s);
        }

        private String[] driftSentence(Product p) {
            Product o = other(p);
            if (o != null && r.nextDouble() < P_OTHER_PRODUCT_DRIFT) {
                Map<String, String> v = vars(p, false);
                v.put("oname", o.name);
                v.put("obrand", o.brand);
                v.put("ofeat", pick(o.cat.feats()));
                return new String[] {fill(pick(pool.driftOther()), v), "product:" + o.id};
            }
            Topic t = pick(pool.topics());
            return new String[] {pick(t.sentences()), "topic:" + t.label()};
        }

        private String driftText(Product p, List<String[]> truth) {
            Product o = other(p);
            String text;
            String label;
            if (o != null && r.nextDouble() < P_OTHER_PRODUCT_DRIFT) {
                Map<String, String> v = vars(o, false);
                text = join(List.of(fill(pick(pool.intros()), v), fill(pick(pool.closers()), v)));
                label = "product:" + o.id;
            } else {
                Topic t = pick(pool.topics());
                int start = r.nextInt(2);
                int count = start == 0 ? 3 + r.nextInt(2) : 3;
                text = join(t.sentences().subList(start, start + count));
                label = "topic:" + t.label();
            }
            truth.add(row(p, DRIFT_TEXT, "whole text", text, label, ""));
            if (p.cat.id().equals("supplements")) {
                truth.add(row(p, MISSING_DISCLAIMER, DISCLAIMER, "", "", ""));
            }
            return text;
        }

        private Product other(Product p) {
            if (recent.isEmpty()) {
                return null;
            }
            List<Product> list = new ArrayList<>(recent);
            for (int tries = 0; tries < 5; tries++) {
                Product o = list.get(r.nextInt(list.size()));
                if (!o.brand.equals(p.brand) && !o.name.equals(p.name)) {
                    return o;
                }
            }
            return null;
        }

        // ---- boilerplate -------------------------------------------------------------------------------

        private Member startGroup(int i) {
            // variants and passages cycle, so every catalog with a few groups has all of them
            String variant = new String[] {"exact", "edit", "paraphrase"}[groups % 3];
            int size = 3 + r.nextInt(4);
            if (variant.equals("paraphrase")) {
                size = Math.min(size, 4);
            }
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

        private String boilerplate(Product p, Member m, List<String[]> truth) {
            List<List<String>> slots = m.passage.slots();
            List<String> parts = new ArrayList<>();
            for (int j = 0; j < slots.size(); j++) {
                String text;
                switch (m.variant) {
                    case "paraphrase" -> text = slots.get(j).get((m.base[j] + m.index) % 4);
                    case "edit" -> {
                        text = slots.get(j).get(m.base[j]);
                        if (m.index > 0 && (j == (m.index - 1) % slots.size() || r.nextDouble() < 0.3)) {
                            text = lightEdit(text);
                        }
                    }
                    default -> text = slots.get(j).get(m.base[j]);
                }
                parts.add(text);
            }
            String passage = String.join(" ", parts);
            Map<String, String> v = vars(p, true);
            List<String> s = new ArrayList<>();
            s.add(fill(pick(pool.intros()), v));
            s.add(passage);
            if (p.cat.id().equals("supplements")) {
                s.add(DISCLAIMER);
            }
            truth.add(row(p, BOILERPLATE, m.passage.id(), passage, m.variant, m.group));
            return join(s);
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
                out = out.replaceFirst(java.util.regex.Pattern.quote(e[0]), java.util.regex.Matcher.quoteReplacement(e[1]));
            }
            if (out.equals(text) || r.nextBoolean()) {
                out = out.endsWith(".") ? out.substring(0, out.length() - 1) + "!" : out + "!";
            }
            return out;
        }

        // ---- helpers -----------------------------------------------------------------------------------

        private String number(NumTpl t, int n, Map<String, String> v, boolean years) {
            Map<String, String> w = new HashMap<>(v);
            w.put("n", Integer.toString(n));
            w.put("w", words(n));
            w.put("m", Integer.toString(n * 12));
            w.put("years", n == 1 ? "year" : "years");
            String s = fill(t.template(), w);
            if (!years && n == 1) {
                s = s.replace(" 1 hours", " 1 hour").replace(" one hours", " one hour");
            }
            return s;
        }

        private NumTpl pickStyle(List<NumTpl> list, char style) {
            List<NumTpl> ok = list.stream().filter(t -> t.style() == style).toList();
            return pick(ok);
        }

        private String join(List<String> sentences) {
            StringBuilder b = new StringBuilder();
            boolean newline = sentences.size() > 2 && r.nextDouble() < 0.03;
            for (int j = 0; j < sentences.size(); j++) {
                if (j > 0) {
                    b.append(newline && j == sentences.size() - 1 ? "\n" : " ");
                }
                b.append(sentences.get(j));
            }
            return b.toString();
        }

        private <T> T pick(List<T> list) {
            return list.get(r.nextInt(list.size()));
        }

        private long[] hashes(String text) {
            return Shingles.of(text).stream().mapToLong(Shingles::hash).sorted().distinct().toArray();
        }
    }

    private static String[] row(Product p, String kind, String detail, String wrong, String truth, String group) {
        return new String[] {p.id, kind, detail, wrong, truth, group};
    }

    static String article(String noun) {
        return "aeiou".indexOf(Character.toLowerCase(noun.charAt(0))) >= 0 ? "an" : "a";
    }

    /** Fills {key} placeholders and capitalizes the first letter. */
    static String fill(String template, Map<String, String> v) {
        StringBuilder b = new StringBuilder(template.length() + 64);
        int i = 0;
        while (i < template.length()) {
            char ch = template.charAt(i);
            if (ch == '{') {
                int end = template.indexOf('}', i);
                String key = template.substring(i + 1, end);
                String val = v.get(key);
                if (val == null) {
                    throw new IllegalStateException("no value for {" + key + "} in: " + template);
                }
                b.append(val);
                i = end + 1;
            } else {
                b.append(ch);
                i++;
            }
        }
        if (b.length() > 0) {
            b.setCharAt(0, Character.toUpperCase(b.charAt(0)));
        }
        return b.toString();
    }

    /** Bounded index of the shingle sets of the most recent clean items, for the similarity check. */
    static final class ShingleWindow {
        private final int cap;
        private final long[][] ring;
        private long first;
        private long next;
        private final HashMap<Long, ArrayDeque<Long>> postings = new HashMap<>();

        ShingleWindow(int cap) {
            this.cap = cap;
            this.ring = new long[cap][];
        }

        double maxJaccard(long[] cand) {
            int[] counts = new int[cap];
            int[] touched = new int[cap];
            int nTouched = 0;
            for (long h : cand) {
                ArrayDeque<Long> ids = postings.get(h);
                if (ids != null) {
                    for (Long id : ids) {
                        int slot = (int) (id % cap);
                        if (counts[slot]++ == 0) {
                            touched[nTouched++] = slot;
                        }
                    }
                }
            }
            double max = 0;
            for (int k = 0; k < nTouched; k++) {
                int slot = touched[k];
                int inter = counts[slot];
                max = Math.max(max, (double) inter / (cand.length + ring[slot].length - inter));
            }
            return max;
        }

        void add(long[] set) {
            if (next - first == cap) {
                long[] old = ring[(int) (first % cap)];
                for (long h : old) {
                    ArrayDeque<Long> ids = postings.get(h);
                    ids.pollFirst();
                    if (ids.isEmpty()) {
                        postings.remove(h);
                    }
                }
                first++;
            }
            ring[(int) (next % cap)] = set;
            for (long h : set) {
                postings.computeIfAbsent(h, k -> new ArrayDeque<>()).addLast(next);
            }
            next++;
        }
    }

}
