package dev.santabatch.eval;

import static dev.santabatch.eval.RecipeCatalogGenerator.DUPLICATED_INGREDIENT;
import static dev.santabatch.eval.RecipeCatalogGenerator.FORBIDDEN_CLAIM;
import static dev.santabatch.eval.RecipeCatalogGenerator.FOREIGN_LANGUAGE;
import static dev.santabatch.eval.RecipeCatalogGenerator.MISSING_REQUIRED_SENTENCE;
import static dev.santabatch.eval.RecipeCatalogGenerator.NUT_NOTICE;
import static dev.santabatch.eval.RecipeCatalogGenerator.STEP_OUT_OF_ORDER;
import static dev.santabatch.eval.RecipeCatalogGenerator.TRUNCATED_ENDING;
import static dev.santabatch.eval.RecipeCatalogGenerator.UNIT_ERROR;
import static dev.santabatch.eval.RecipeCatalogGenerator.WRONG_NUMBER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.santabatch.config.Criterion;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.config.RuleSpec;
import dev.santabatch.eval.RecipeVocabulary.CalorieTemplate;
import dev.santabatch.eval.RecipeVocabulary.Course;
import dev.santabatch.eval.RecipeVocabulary.Main;
import dev.santabatch.eval.RecipeVocabulary.TimeTemplate;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecipeCatalogGeneratorTests {

    static final int ROWS = 1500;
    static final CSVFormat READ = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();
    static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+");
    static final Pattern FORBIDDEN = Pattern.compile("(?i)de-?tox|\\bcur(e|es|ing)\\b|fat[- ]burning|miracl");
    static final Pattern WRONG_UNIT = Pattern.compile("\\d+ (oz|ounces) of ");
    static final Pattern GRAMS = Pattern.compile("(\\d+) (g|grams) (\\((\\d+\\.\\d) oz\\) )?of ");

    static Map<String, CSVRecord> rows;
    static List<PlantedDefect> defects;
    static Map<String, List<PlantedDefect>> byItem;

    @BeforeAll
    static void generate(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("recipes.csv");
        Path truth = dir.resolve("recipes.truth.csv");
        RecipeCatalogGenerator.Summary s = RecipeCatalogGenerator.write(RecipeCatalogGenerator.DEFAULT_SEED, ROWS, csv, truth);
        rows = new LinkedHashMap<>();
        try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8); CSVParser p = READ.parse(in)) {
            assertThat(p.getHeaderNames()).isEqualTo(RecipeCatalogGenerator.CATALOG_HEADER);
            p.forEach(r -> rows.put(r.get("id"), r));
        }
        defects = RecipeCatalogGenerator.plantedDefects(truth);
        byItem = defects.stream().collect(Collectors.groupingBy(PlantedDefect::itemId, LinkedHashMap::new, Collectors.toList()));
        assertThat(rows).hasSize(ROWS);
        assertThat(s.truthRows()).isEqualTo(defects.size());
        assertThat(s.cleanRows()).isEqualTo(ROWS - byItem.size());
    }

    @Test
    void theSameSeedWritesTheSameBytesAndAnotherSeedOtherCards() throws IOException {
        StringBuilder csv1 = new StringBuilder();
        StringBuilder truth1 = new StringBuilder();
        StringBuilder csv2 = new StringBuilder();
        StringBuilder truth2 = new StringBuilder();
        StringBuilder other = new StringBuilder();
        RecipeCatalogGenerator.write(7, 300, csv1, truth1);
        RecipeCatalogGenerator.write(7, 300, csv2, truth2);
        RecipeCatalogGenerator.write(8, 300, other, null);
        assertThat(csv2.toString()).isEqualTo(csv1.toString());
        assertThat(truth2.toString()).isEqualTo(truth1.toString());
        assertThat(other.toString()).isNotEqualTo(csv1.toString());
        assertThat(truth1.toString()).startsWith(RecipeCatalogGenerator.TRUTH_HEADER_LINE + "\n");
    }

    @Test
    void everyEvidenceIsOneExactSpanOfItsCardAndEveryAbsenceIsAbsent() {
        assertThat(defects).isNotEmpty();
        for (PlantedDefect d : defects) {
            String card = rows.get(d.itemId()).get("card");
            if (d.evidence().isEmpty()) {
                assertThat(d.kind()).isEqualTo(MISSING_REQUIRED_SENTENCE);
                assertThat(d.appendix()).isEqualTo(NUT_NOTICE);
                assertThat(card).doesNotContain(NUT_NOTICE);
            } else {
                assertThat(card).as(d.toString()).contains(d.evidence());
                assertThat(card.indexOf(d.evidence())).as(d.toString()).isEqualTo(card.lastIndexOf(d.evidence()));
                assertThat(d.correction()).as(d.toString()).isNotEqualTo(d.evidence());
            }
        }
    }

    /**
     * An independent fact check of each card against its source finds exactly the planted kinds in every card
     * (none in a clean one), and none once every planted defect's correction is applied.
     */
    @Test
    void theCorrectionsMakeEveryCardConsistentWithItsSource() {
        for (CSVRecord r : rows.values()) {
            List<PlantedDefect> planted = byItem.getOrDefault(r.get("id"), List.of());
            String card = r.get("card");
            assertThat(problems(r, card)).as(r.get("id") + ": " + card)
                    .isEqualTo(planted.stream().map(PlantedDefect::kind).collect(Collectors.toCollection(TreeSet::new)));
            String fixed = corrected(card, planted);
            assertThat(problems(r, fixed)).as(r.get("id") + ": " + fixed).isEmpty();
        }
    }

    @Test
    void eachKindIsPlantedAtAboutItsRate() {
        Map<String, Double> rates = Map.of(WRONG_NUMBER, RecipeCatalogGenerator.WRONG_NUMBER_RATE,
                UNIT_ERROR, RecipeCatalogGenerator.UNIT_ERROR_RATE * 2 / 3,
                STEP_OUT_OF_ORDER, RecipeCatalogGenerator.STEP_OUT_OF_ORDER_RATE,
                DUPLICATED_INGREDIENT, RecipeCatalogGenerator.DUPLICATED_INGREDIENT_RATE,
                FOREIGN_LANGUAGE, RecipeCatalogGenerator.FOREIGN_LANGUAGE_RATE,
                TRUNCATED_ENDING, RecipeCatalogGenerator.TRUNCATED_ENDING_RATE,
                FORBIDDEN_CLAIM, RecipeCatalogGenerator.FORBIDDEN_CLAIM_RATE,
                MISSING_REQUIRED_SENTENCE, RecipeCatalogGenerator.MISSING_NOTICE_RATE * nutCards() / ROWS);
        assertThat(rates.keySet()).containsExactlyInAnyOrderElementsOf(RecipeCatalogGenerator.KINDS);
        for (Map.Entry<String, Double> e : rates.entrySet()) {
            long items = defects.stream().filter(d -> d.kind().equals(e.getKey())).map(PlantedDefect::itemId).distinct().count();
            assertThat(items / (double) ROWS).as(e.getKey()).isBetween(e.getValue() * 0.6, e.getValue() * 1.4);
        }
    }

    static long nutCards() {
        return rows.values().stream().filter(r -> RecipeVocabulary.MAINS.stream()
                .anyMatch(m -> m.nut() && m.name().equals(r.get("main_ingredient")))).count();
    }

    @Test
    void plantedDefectsRejectsAKindItDoesNotKnow(@TempDir Path dir) throws IOException {
        Path truth = dir.resolve("t.csv");
        Files.writeString(truth, RecipeCatalogGenerator.TRUTH_HEADER_LINE + "\nR00001,boilerplate,x,y,z,\n");
        assertThatThrownBy(() -> RecipeCatalogGenerator.plantedDefects(truth))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(":1: unknown kind 'boilerplate'");
        assertThatThrownBy(() -> RecipeCatalogGenerator.write(1, 0, new StringBuilder(), null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // ---- the benchmark job file --------------------------------------------------------------------------------

    /**
     * The template loads once its placeholders are substituted, for the sampled and the full run: two model
     * reviewers, a model fixer and matcher, every kind judged under a Santa criterion, and no rule but the length
     * rule.
     */
    @Test
    void theBenchmarkJobTemplateLoadsWithModelsAndNoRuleAimedAtTheDefects(@TempDir Path dir) throws Exception {
        for (String rate : List.of("0.10", "1.0")) {
            JobDefinition job = loadBenchJob(dir, rate, "7");
            assertThat(job.sampling().rate()).isEqualTo(Double.parseDouble(rate));
            assertThat(job.santa().maxRounds()).isEqualTo(7);
            assertThat(job.input().contentColumn()).isEqualTo("card");
            assertThat(job.reviewers()).extracting(ReviewerSpec::id).containsExactly("B", "C");
            assertThat(job.reviewers()).allSatisfy(rv -> {
                assertThat(rv.type()).isEqualTo("llm");
                assertThat(rv.model().baseUrl()).isEqualTo("http://127.0.0.1:9/v1");
                assertThat(rv.model().apiKeyEnv()).isEqualTo("BENCH_MODEL_KEY");
            });
            assertThat(job.reviewers()).extracting(rv -> rv.model().model()).containsExactly("model-b", "model-c");
            assertThat(job.fixer().type()).isEqualTo("llm");
            assertThat(job.fixer().model().model()).isEqualTo("model-fix");
            assertThat(job.matcher().model().model()).isEqualTo("model-match");
            List<RuleSpec> rules = job.rubric().stream().flatMap(k -> k.rules().stream()).toList();
            assertThat(rules).singleElement().isInstanceOf(RuleSpec.Length.class);
            Set<String> santa = job.rubric().stream().filter(Criterion::reviewedBySanta).map(Criterion::id)
                    .collect(Collectors.toSet());
            assertThat(RecipeCatalogGenerator.benchmarkCriteria().keySet())
                    .containsExactlyInAnyOrderElementsOf(RecipeCatalogGenerator.KINDS);
            assertThat(santa).containsExactlyInAnyOrderElementsOf(Set.copyOf(RecipeCatalogGenerator.benchmarkCriteria().values()));
            assertThat(job.taskSpec()).contains(NUT_NOTICE);
        }
    }

    static JobDefinition loadBenchJob(Path dir, String rate, String maxRounds) throws Exception {
        Path csv = dir.resolve("recipes.csv");
        RecipeCatalogGenerator.write(1, 20, csv, null);
        String template = Files.readString(Path.of("src/test/resources/bench/recipes-llm.yml"), StandardCharsets.UTF_8);
        String yaml = template.replace("@CSV@", csv.toAbsolutePath().toString()).replace("@BASE_URL@", "http://127.0.0.1:9/v1")
                .replace("@RATE@", rate).replace("@MAX_ROUNDS@", maxRounds);
        assertThat(yaml).doesNotContain("@");
        Path job = dir.resolve("recipes-llm.yml");
        Files.writeString(job, yaml, StandardCharsets.UTF_8);
        JobFileLoader.Result loaded = JobFileLoader.loadWithWarnings(job);
        assertThat(loaded.warnings()).isEmpty();
        return loaded.definition();
    }

    // ---- an independent fact check -----------------------------------------------------------------------------

    /** A correct fix: evidence replaced by its correction, or its sentence removed; an absence appended. */
    static String corrected(String card, List<PlantedDefect> planted) {
        String text = card;
        for (PlantedDefect d : planted) {
            if (!d.evidence().isEmpty() && !d.correction().isEmpty()) {
                text = text.replace(d.evidence(), d.correction());
            }
        }
        for (PlantedDefect d : planted) {
            if (!d.evidence().isEmpty() && d.correction().isEmpty()) {
                text = SENTENCE_END.splitAsStream(text).filter(s -> !s.contains(d.evidence())).collect(Collectors.joining(" "));
            }
        }
        for (PlantedDefect d : planted) {
            if (!d.appendix().isEmpty()) {
                text = text + " " + d.appendix();
            }
        }
        return text;
    }

    /** The kinds of defect a reader checking the card against its source and the task finds. */
    static Set<String> problems(CSVRecord r, String card) {
        Set<String> found = new TreeSet<>();
        if (!numbersAgree(r, card)) {
            found.add(WRONG_NUMBER);
        }
        Matcher grams = GRAMS.matcher(card);
        boolean weightRight = grams.find() && grams.group(1).equals(r.get("main_grams"))
                && (grams.group(4) == null || grams.group(4).equals(RecipeCatalogGenerator.ounces(Integer.parseInt(r.get("main_grams")))));
        if (WRONG_UNIT.matcher(card).find() || !weightRight) {
            found.add(UNIT_ERROR);
        }
        Course course = RecipeVocabulary.COURSES.stream().filter(c -> c.category().equals(r.get("course"))).findFirst().orElseThrow();
        if (!stepsInOrder(course, r.get("main_ingredient"), card)) {
            found.add(STEP_OUT_OF_ORDER);
        }
        String list = SENTENCE_END.splitAsStream(card).filter(s -> GRAMS.matcher(s).find() || WRONG_UNIT.matcher(s).find())
                .findFirst().orElse("");
        if (RecipeVocabulary.OTHER_INGREDIENTS.stream().anyMatch(i -> occurrences(list, i) > 1)) {
            found.add(DUPLICATED_INGREDIENT);
        }
        if (RecipeVocabulary.TIPS.stream().flatMap(t -> t.translations().values().stream()).anyMatch(card::contains)) {
            found.add(FOREIGN_LANGUAGE);
        }
        if (!card.endsWith(".")) {
            found.add(TRUNCATED_ENDING);
        }
        if (FORBIDDEN.matcher(card).find()) {
            found.add(FORBIDDEN_CLAIM);
        }
        boolean nut = RecipeVocabulary.MAINS.stream().filter(Main::nut).anyMatch(m -> m.name().equals(r.get("main_ingredient")));
        if (nut != card.contains(NUT_NOTICE)) {
            found.add(MISSING_REQUIRED_SENTENCE);
        }
        return found;
    }

    /** Servings, both times and calories are each stated, and only as their columns' values. */
    static boolean numbersAgree(CSVRecord r, String card) {
        Map<String, String> columnBySpan = new LinkedHashMap<>();
        for (TimeTemplate t : RecipeVocabulary.TIMES) {
            columnBySpan.put(t.servingsSpan().replace("{s}", "{n}"), "servings");
            columnBySpan.put(t.prepSpan().replace("{p}", "{n}"), "prep_minutes");
            columnBySpan.put(t.cookSpan().replace("{c}", "{n}"), "cook_minutes");
        }
        for (CalorieTemplate c : RecipeVocabulary.CALORIES) {
            columnBySpan.put(c.span().replace("{k}", "{n}"), "calories");
        }
        Map<String, Set<Integer>> stated = new LinkedHashMap<>();
        columnBySpan.forEach((span, column) -> {
            String[] parts = span.split("\\{n}", -1);
            Matcher m = Pattern.compile("\\b" + Pattern.quote(parts[0]) + "(\\w+)" + Pattern.quote(parts[1]) + "\\b").matcher(card);
            while (m.find()) {
                String n = m.group(1);
                int value = n.chars().allMatch(Character::isDigit) ? Integer.parseInt(n) : RecipeVocabulary.NUMBER_WORDS.indexOf(n);
                stated.computeIfAbsent(column, k -> new TreeSet<>()).add(value);
            }
        });
        return Set.copyOf(columnBySpan.values()).stream()
                .allMatch(column -> Set.of(Integer.parseInt(r.get(column))).equals(stated.get(column)));
    }

    /** The method's steps occur in the course's stage order, one of each stage. */
    static boolean stepsInOrder(Course course, String main, String card) {
        Map<Integer, Integer> stageAt = new TreeMap<>();
        for (int stage = 0; stage < course.stages().size(); stage++) {
            for (String step : course.stages().get(stage)) {
                int at = card.indexOf(step.replace("{main}", main));
                if (at >= 0) {
                    stageAt.put(at, stage);
                }
            }
        }
        return List.copyOf(stageAt.values()).equals(List.of(0, 1, 2));
    }

    static int occurrences(String text, String word) {
        int n = 0;
        for (int at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
            n++;
        }
        return n;
    }
}
