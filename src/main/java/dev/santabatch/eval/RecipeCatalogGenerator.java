package dev.santabatch.eval;

import dev.santabatch.eval.RecipeVocabulary.CalorieTemplate;
import dev.santabatch.eval.RecipeVocabulary.Claim;
import dev.santabatch.eval.RecipeVocabulary.Course;
import dev.santabatch.eval.RecipeVocabulary.Main;
import dev.santabatch.eval.RecipeVocabulary.TimeTemplate;
import dev.santabatch.eval.RecipeVocabulary.Tip;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

/**
 * Seeded generator of a third catalog domain, recipe cards written from each recipe's facts the way a language
 * model writes them, with planted systematic defects and a ground-truth file: issue 17's "third domain generated
 * by someone who has not read the induction or reviewer code". It has one pool, never used for tuning anything.
 *
 * <h2>Catalog</h2>
 * UTF-8 CSV (commons-csv {@code CSVFormat.DEFAULT}, LF record separator), header {@value #CATALOG_HEADER_LINE}:
 * <ul>
 *   <li>{@code id}: {@code R00001}, {@code R00002}, … in row order</li>
 *   <li>{@code title}; {@code region}: where the dish comes from (fourteen regions); {@code course}: the category
 *       (Soups, Salads, Curries, Stews, Cakes, Bakes)</li>
 *   <li>{@code servings} 2–8; {@code prep_minutes} 5–30; {@code cook_minutes} 10–120; {@code calories} per
 *       serving, 180–770; {@code main_ingredient} (one of seventeen, five of them nuts, each suiting sweet or
 *       savoury courses or both) and its weight {@code main_grams}, 100–800</li>
 *   <li>{@code card}: six to twelve sentences in this order: an introduction naming the title, course and region;
 *       servings and both times (servings in digits or number words); the ingredient list, the main ingredient
 *       first with its weight ({@code 250 g of …}, {@code 250 grams of …} or {@code 250 g (8.8 oz) of …}, ounces
 *       converted as {@code g / 28.349523125} to one decimal), then the staples its course's method uses and one
 *       or two more ingredients, in any order, each once; when the main ingredient is
 *       a nut, {@value RecipeVocabulary#NUT_NOTICE}; the method as three steps in the order they are done; the
 *       calories per serving; in 60 % of cards an English serving tip; a closing sentence without numbers</li>
 * </ul>
 *
 * <h2>Ground truth</h2>
 * Same CSV format, header {@value #TRUTH_HEADER_LINE} ({@code group} is always empty: this domain has no
 * groups), one row per planted defect per item in catalog order; kinds are drawn independently, so an item may
 * carry several. Rates are the chances per item the generator draws with.
 * <table>
 *   <caption>truth rows</caption>
 *   <tr><th>kind</th><th>rate</th><th>detail</th><th>wrong</th><th>truth</th></tr>
 *   <tr><td>{@value #WRONG_NUMBER}</td><td>6 %</td><td>the column contradicted: {@code servings},
 *       {@code prep_minutes}, {@code cook_minutes} or {@code calories}</td><td>the span as written, e.g.
 *       {@code serves six}, {@code about 520 calories}</td><td>the span with the source value</td></tr>
 *   <tr><td>{@value #UNIT_ERROR}</td><td>4 %</td><td>{@code main_grams}</td><td>the weight with the right number
 *       and the wrong unit, e.g. {@code 250 oz of chickpeas}, {@code 250 ounces of chickpeas}</td><td>the weight
 *       in grams in the same style, e.g. {@code 250 g of chickpeas}</td></tr>
 *   <tr><td>{@value #STEP_OUT_OF_ORDER}</td><td>4 %</td><td>the order written, e.g. {@code 3-1-2}</td><td>the
 *       method sentence as written</td><td>the sentence with its steps in order</td></tr>
 *   <tr><td>{@value #DUPLICATED_INGREDIENT}</td><td>4 %</td><td>the ingredient listed twice</td><td>its second
 *       mention with the ingredient before it, e.g. {@code garlic, olive oil}</td><td>the ingredient before it,
 *       e.g. {@code garlic}</td></tr>
 *   <tr><td>{@value #FOREIGN_LANGUAGE}</td><td>3.5 % (of cards with a tip: 5.8 %)</td><td>language code:
 *       {@code fr}, {@code es}, {@code de}, {@code it}</td><td>the serving tip written in that language (the fix
 *       removes it)</td><td>the English tip</td></tr>
 *   <tr><td>{@value #TRUNCATED_ENDING}</td><td>3 %</td><td>{@code closing}</td><td>the closing sentence cut after
 *       three or more words, without its full stop (the fix removes it)</td><td>the closing sentence in
 *       full</td></tr>
 *   <tr><td>{@value #FORBIDDEN_CLAIM}</td><td>5 %</td><td>base term: detox, cure, fat-burning, miracle</td><td>the
 *       variant as written in an added sentence (the fix removes the sentence)</td><td></td></tr>
 *   <tr><td>{@value #MISSING_REQUIRED_SENTENCE}</td><td>15 % of nut cards (about a third of the
 *       cards)</td><td>the nut notice</td><td>what stands instead: empty (omitted, 60 %) or a paraphrase
 *       that is not the notice</td><td></td></tr>
 * </table>
 * The first five shapes are outside issue 17's list (wrong number, missing sentence, forbidden claim, off-topic
 * sentence, boilerplate, contradiction, wrong currency): a unit swapped with the number kept (clean cards also
 * write ounces, correctly converted and in brackets), method steps out of order, a list item repeated, a sentence
 * in another language and a truncated ending. {@link #plantedDefects(Path)} reads the rows as
 * {@link PlantedDefect}s.
 */
public final class RecipeCatalogGenerator {
    public static final long DEFAULT_SEED = 20261203L;
    public static final int DEFAULT_ROWS = 1500;

    static final String CATALOG_HEADER_LINE =
            "id,title,region,course,servings,prep_minutes,cook_minutes,calories,main_ingredient,main_grams,card";
    static final String TRUTH_HEADER_LINE = "id,kind,detail,wrong,truth,group";
    public static final List<String> CATALOG_HEADER = List.of(CATALOG_HEADER_LINE.split(","));
    public static final List<String> TRUTH_HEADER = List.of(TRUTH_HEADER_LINE.split(","));

    public static final String WRONG_NUMBER = "wrong-number";
    public static final String UNIT_ERROR = "unit-error";
    public static final String STEP_OUT_OF_ORDER = "step-out-of-order";
    public static final String DUPLICATED_INGREDIENT = "duplicated-ingredient";
    public static final String FOREIGN_LANGUAGE = "foreign-language";
    public static final String TRUNCATED_ENDING = "truncated-ending";
    public static final String FORBIDDEN_CLAIM = "forbidden-claim";
    public static final String MISSING_REQUIRED_SENTENCE = "missing-required-sentence";
    public static final List<String> KINDS = List.of(WRONG_NUMBER, UNIT_ERROR, STEP_OUT_OF_ORDER,
            DUPLICATED_INGREDIENT, FOREIGN_LANGUAGE, TRUNCATED_ENDING, FORBIDDEN_CLAIM, MISSING_REQUIRED_SENTENCE);

    /** The sentence every card whose main ingredient is a nut must carry, verbatim. */
    public static final String NUT_NOTICE = RecipeVocabulary.NUT_NOTICE;

    static final double WRONG_NUMBER_RATE = 0.06;
    static final double UNIT_ERROR_RATE = 0.04;
    static final double STEP_OUT_OF_ORDER_RATE = 0.04;
    static final double DUPLICATED_INGREDIENT_RATE = 0.04;
    static final double TIP_RATE = 0.60;
    static final double FOREIGN_LANGUAGE_RATE = 0.035;
    static final double TRUNCATED_ENDING_RATE = 0.03;
    static final double FORBIDDEN_CLAIM_RATE = 0.05;
    static final double MISSING_NOTICE_RATE = 0.15;
    static final double NOTICE_OMITTED_SHARE = 0.60;

    private static final double GRAMS_PER_OUNCE = 28.349523125;
    /** Every non-identity order of the three method steps (zero-based stage indices). */
    private static final int[][] WRONG_ORDERS = {{1, 0, 2}, {0, 2, 1}, {2, 0, 1}, {1, 2, 0}, {2, 1, 0}};

    private static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder().setRecordSeparator("\n").get();
    private static final CSVFormat READ = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();

    /** What a generation wrote. */
    public record Summary(int rows, int cleanRows, int truthRows) {}

    private RecipeCatalogGenerator() {}

    /**
     * Writes a catalog and (if {@code truth} is not null) its ground truth, streaming.
     *
     * @param seed  random seed; the same seed and rows give byte-identical files
     * @param rows  number of catalog rows, at least 1
     * @param csv   catalog file to write (parent folders are created)
     * @param truth ground-truth file to write, or null for none
     */
    public static Summary write(long seed, int rows, Path csv, Path truth) throws IOException {
        createParent(csv);
        if (truth != null) {
            createParent(truth);
        }
        try (BufferedWriter c = Files.newBufferedWriter(csv, StandardCharsets.UTF_8);
             BufferedWriter t = truth == null ? null : Files.newBufferedWriter(truth, StandardCharsets.UTF_8)) {
            return write(seed, rows, c, t);
        }
    }

    /** Writes to appendables (truth may be null); see {@link #write(long, int, Path, Path)}. */
    public static Summary write(long seed, int rows, Appendable csv, Appendable truth) throws IOException {
        if (rows < 1) {
            throw new IllegalArgumentException("rows must be at least 1");
        }
        CSVPrinter c = new CSVPrinter(csv, FORMAT);
        c.printRecord(CATALOG_HEADER);
        CSVPrinter t = truth == null ? null : new CSVPrinter(truth, FORMAT);
        if (t != null) {
            t.printRecord(TRUTH_HEADER);
        }
        Random random = new Random(seed);
        int clean = 0;
        int truthRows = 0;
        for (int i = 0; i < rows; i++) {
            Card card = new CardWriter(random, String.format("R%05d", i + 1)).write();
            Recipe r = card.recipe();
            c.printRecord(r.id(), r.title(), r.region(), r.course().category(), r.servings(), r.prepMinutes(),
                    r.cookMinutes(), r.calories(), r.main().name(), r.mainGrams(), card.text());
            if (card.truth().isEmpty()) {
                clean++;
            }
            for (List<String> row : card.truth()) {
                truthRows++;
                if (t != null) {
                    t.printRecord(row);
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
     * substring of the item's card: a wrong number, wrong unit, misordered method sentence or repeated ingredient
     * (each corrected to the truth column's span), a foreign-language tip, truncated ending or forbidden variant
     * (each removed with its sentence: correction ""), a paraphrase of the nut notice (replaced by the notice); an
     * omitted notice has no evidence and the notice as its appendix.
     */
    public static List<PlantedDefect> plantedDefects(Path truthCsv) throws IOException {
        List<PlantedDefect> out = new ArrayList<>();
        try (Reader in = Files.newBufferedReader(truthCsv, StandardCharsets.UTF_8); CSVParser p = READ.parse(in)) {
            for (CSVRecord r : p) {
                String id = r.get("id");
                String kind = r.get("kind");
                String wrong = r.get("wrong");
                out.add(switch (kind) {
                    case WRONG_NUMBER, UNIT_ERROR, STEP_OUT_OF_ORDER, DUPLICATED_INGREDIENT ->
                            new PlantedDefect(id, kind, wrong, r.get("truth"), "");
                    case FOREIGN_LANGUAGE, TRUNCATED_ENDING, FORBIDDEN_CLAIM -> new PlantedDefect(id, kind, wrong, "", "");
                    case MISSING_REQUIRED_SENTENCE -> wrong.isEmpty()
                            ? new PlantedDefect(id, kind, "", "", r.get("detail"))
                            : new PlantedDefect(id, kind, wrong, r.get("detail"), "");
                    default -> throw new IllegalArgumentException(
                            truthCsv + ":" + r.getRecordNumber() + ": unknown kind '" + kind + "'");
                });
            }
        }
        return out;
    }

    /** Truth kind → id of the criterion of {@code bench/recipes-llm.yml} that a reviewer fails it under. */
    public static Map<String, String> benchmarkCriteria() {
        return Map.of(WRONG_NUMBER, "factual-accuracy", UNIT_ERROR, "factual-accuracy",
                STEP_OUT_OF_ORDER, "method-order", DUPLICATED_INGREDIENT, "ingredient-list",
                FOREIGN_LANGUAGE, "english-only", TRUNCATED_ENDING, "complete-text",
                FORBIDDEN_CLAIM, "no-health-claims", MISSING_REQUIRED_SENTENCE, "nut-notice");
    }

    /** One recipe's source facts. */
    record Recipe(String id, String title, String region, Course course, Main main, int servings, int prepMinutes,
                  int cookMinutes, int calories, int mainGrams) {}

    /** A written card: its facts, its text, and its ground-truth rows. */
    record Card(Recipe recipe, String text, List<List<String>> truth) {}

    /** Writes one card, drawing its facts, wording and defects from a shared random source in a fixed order. */
    private static final class CardWriter {
        private final Random random;
        private final String id;
        private final List<List<String>> truth = new ArrayList<>();

        CardWriter(Random random, String id) {
            this.random = random;
            this.id = id;
        }

        Card write() {
            Course course = pick(RecipeVocabulary.COURSES);
            Main main = pick(RecipeVocabulary.MAINS.stream().filter(m -> m.suits(course)).toList());
            String region = pick(RecipeVocabulary.REGIONS);
            String title = pick(RecipeVocabulary.TITLE_PREFIXES) + " " + main.titleWord() + " " + course.titleWord();
            Recipe r = new Recipe(id, title, region, course, main, 2 + random.nextInt(7), 5 * (1 + random.nextInt(6)),
                    5 * (2 + random.nextInt(23)), 10 * (18 + random.nextInt(60)), 50 * (2 + random.nextInt(15)));

            String wrongColumn = random.nextDouble() < WRONG_NUMBER_RATE
                    ? pick(List.of("servings", "prep_minutes", "cook_minutes", "calories")) : "";
            List<String> sentences = new ArrayList<>();
            sentences.add(fill(pick(RecipeVocabulary.INTROS), Map.of("{title}", title, "{noun}", course.noun(),
                    "{region}", region)));
            sentences.add(times(r, wrongColumn));
            sentences.add(ingredients(r));
            if (main.nut()) {
                notice().ifPresent(sentences::add);
            }
            sentences.add(method(r));
            sentences.add(calories(r, wrongColumn.equals("calories")));
            if (random.nextDouble() < FORBIDDEN_CLAIM_RATE) {
                sentences.add(claim());
            }
            if (random.nextDouble() < TIP_RATE) {
                sentences.add(tip());
            }
            sentences.add(closing());
            String text = String.join(" ", sentences);
            for (List<String> row : truth) {
                String wrong = row.get(3);
                if (!wrong.isEmpty() && (text.indexOf(wrong) < 0 || text.indexOf(wrong) != text.lastIndexOf(wrong))) {
                    throw new IllegalStateException(id + ": evidence '" + wrong + "' is not a unique span of its card");
                }
            }
            return new Card(r, text, truth);
        }

        private String times(Recipe r, String wrongColumn) {
            TimeTemplate t = pick(RecipeVocabulary.TIMES);
            boolean words = random.nextBoolean();
            int servings = r.servings();
            int prep = r.prepMinutes();
            int cook = r.cookMinutes();
            switch (wrongColumn) {
                case "servings" -> servings = wrong(servings, new int[] {-2, -1, 1, 2, 4}, 1);
                case "prep_minutes" -> prep = wrong(prep, new int[] {-5, 5, 10, 15}, 5);
                case "cook_minutes" -> cook = wrong(cook, new int[] {-10, 10, 15, 30}, 5);
                default -> { }
            }
            String span = switch (wrongColumn) {
                case "servings" -> t.servingsSpan();
                case "prep_minutes" -> t.prepSpan();
                case "cook_minutes" -> t.cookSpan();
                default -> "";
            };
            if (!span.isEmpty()) {
                plant(WRONG_NUMBER, wrongColumn, timeValues(span, servings, prep, cook, words),
                        timeValues(span, r.servings(), r.prepMinutes(), r.cookMinutes(), words));
            }
            return timeValues(t.sentence(), servings, prep, cook, words);
        }

        private String timeValues(String template, int servings, int prep, int cook, boolean words) {
            return fill(template, Map.of("{s}", words ? RecipeVocabulary.NUMBER_WORDS.get(servings) : String.valueOf(servings),
                    "{p}", String.valueOf(prep), "{c}", String.valueOf(cook)));
        }

        private String ingredients(Recipe r) {
            int style = random.nextInt(3);
            String weight = switch (style) {
                case 0 -> r.mainGrams() + " g of " + r.main().name();
                case 1 -> r.mainGrams() + " grams of " + r.main().name();
                default -> r.mainGrams() + " g (" + ounces(r.mainGrams()) + " oz) of " + r.main().name();
            };
            if (style < 2 && random.nextDouble() < UNIT_ERROR_RATE) {
                String wrong = r.mainGrams() + (style == 0 ? " oz of " : " ounces of ") + r.main().name();
                plant(UNIT_ERROR, "main_grams", wrong, weight);
                weight = wrong;
            }
            List<String> extras = new ArrayList<>(RecipeVocabulary.OTHER_INGREDIENTS);
            extras.removeAll(r.course().staples());
            Collections.shuffle(extras, random);
            List<String> others = new ArrayList<>(r.course().staples());
            others.addAll(extras.subList(0, 1 + random.nextInt(2)));
            Collections.shuffle(others, random);
            if (random.nextDouble() < DUPLICATED_INGREDIENT_RATE) {
                String before = others.get(others.size() - 2);
                String repeated = others.get(random.nextInt(others.size() - 2));
                plant(DUPLICATED_INGREDIENT, repeated, before + ", " + repeated, before);
                others.add(others.size() - 1, repeated);
            }
            String list = weight + ", " + String.join(", ", others.subList(0, others.size() - 1)) + " and "
                    + others.get(others.size() - 1);
            return pick(RecipeVocabulary.INGREDIENT_LINES).replace("{list}", list);
        }

        private Optional<String> notice() {
            if (random.nextDouble() >= MISSING_NOTICE_RATE) {
                return Optional.of(NUT_NOTICE);
            }
            if (random.nextDouble() < NOTICE_OMITTED_SHARE) {
                plant(MISSING_REQUIRED_SENTENCE, NUT_NOTICE, "", "");
                return Optional.empty();
            }
            String standIn = pick(RecipeVocabulary.NOTICE_STAND_INS);
            plant(MISSING_REQUIRED_SENTENCE, NUT_NOTICE, standIn, "");
            return Optional.of(standIn);
        }

        private String method(Recipe r) {
            String template = pick(RecipeVocabulary.METHODS);
            List<String> steps = new ArrayList<>();
            for (List<String> stage : r.course().stages()) {
                steps.add(pick(stage).replace("{main}", r.main().name()));
            }
            String right = steps(template, steps, new int[] {0, 1, 2});
            if (random.nextDouble() >= STEP_OUT_OF_ORDER_RATE) {
                return right;
            }
            int[] order = WRONG_ORDERS[random.nextInt(WRONG_ORDERS.length)];
            String wrong = steps(template, steps, order);
            plant(STEP_OUT_OF_ORDER, (order[0] + 1) + "-" + (order[1] + 1) + "-" + (order[2] + 1), wrong, right);
            return wrong;
        }

        private static String steps(String template, List<String> steps, int[] order) {
            return fill(template, Map.of("{1}", steps.get(order[0]), "{2}", steps.get(order[1]), "{3}", steps.get(order[2])));
        }

        private String calories(Recipe r, boolean wrong) {
            CalorieTemplate t = pick(RecipeVocabulary.CALORIES);
            int k = r.calories();
            if (wrong) {
                k = wrong(k, new int[] {-100, -50, 50, 100, 150}, 100);
                plant(WRONG_NUMBER, "calories", t.span().replace("{k}", String.valueOf(k)),
                        t.span().replace("{k}", String.valueOf(r.calories())));
            }
            return t.sentence().replace("{k}", String.valueOf(k));
        }

        private String claim() {
            Claim c = pick(RecipeVocabulary.CLAIMS);
            String variant = pick(c.variants());
            plant(FORBIDDEN_CLAIM, c.base(), variant, "");
            return c.sentence().replace("{v}", variant);
        }

        private String tip() {
            Tip tip = pick(RecipeVocabulary.TIPS);
            if (random.nextDouble() >= FOREIGN_LANGUAGE_RATE / TIP_RATE) {
                return tip.english();
            }
            String language = pick(List.copyOf(new TreeMap<>(tip.translations()).keySet()));
            String foreign = tip.translations().get(language);
            plant(FOREIGN_LANGUAGE, language, foreign, tip.english());
            return foreign;
        }

        private String closing() {
            String closing = pick(RecipeVocabulary.CLOSINGS);
            if (random.nextDouble() >= TRUNCATED_ENDING_RATE) {
                return closing;
            }
            String[] words = closing.split(" ");
            int kept = 3 + random.nextInt(words.length - 4);
            String cut = String.join(" ", List.of(words).subList(0, kept)).replaceAll("[,;]$", "");
            plant(TRUNCATED_ENDING, "closing", cut, closing);
            return cut;
        }

        private int wrong(int value, int[] deltas, int min) {
            int w;
            do {
                w = value + deltas[random.nextInt(deltas.length)];
            } while (w < min || w == value);
            return w;
        }

        private void plant(String kind, String detail, String wrong, String right) {
            truth.add(List.of(id, kind, detail, wrong, right, ""));
        }

        private <T> T pick(List<T> options) {
            return options.get(random.nextInt(options.size()));
        }
    }

    /** Grams as ounces to one decimal, as clean cards write them in brackets. */
    static String ounces(int grams) {
        return BigDecimal.valueOf(grams).divide(BigDecimal.valueOf(GRAMS_PER_OUNCE), 1, RoundingMode.HALF_UP).toPlainString();
    }

    private static String fill(String template, Map<String, String> values) {
        String out = template;
        for (Map.Entry<String, String> e : new TreeMap<>(values).entrySet()) {
            out = out.replace(e.getKey(), e.getValue());
        }
        return out;
    }

    private static void createParent(Path p) throws IOException {
        Path parent = p.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }
}
