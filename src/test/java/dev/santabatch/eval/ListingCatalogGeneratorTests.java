package dev.santabatch.eval;

import dev.santabatch.text.Shingles;
import static dev.santabatch.eval.ListingCatalogGenerator.BOILERPLATE;
import static dev.santabatch.eval.ListingCatalogGenerator.CONTRADICTION;
import static dev.santabatch.eval.ListingCatalogGenerator.FORBIDDEN_CLAIM;
import static dev.santabatch.eval.ListingCatalogGenerator.MISSING_REQUIRED_SENTENCE;
import static dev.santabatch.eval.ListingCatalogGenerator.NOTICE;
import static dev.santabatch.eval.ListingCatalogGenerator.OFF_TOPIC_SENTENCE;
import static dev.santabatch.eval.ListingCatalogGenerator.WRONG_CURRENCY;
import static dev.santabatch.eval.ListingCatalogGenerator.WRONG_NUMBER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.Criterion;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.config.RuleSpec;
import dev.santabatch.eval.ListingCatalogGenerator.Pool;
import dev.santabatch.eval.ListingVocabulary.Practical;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListingCatalogGeneratorTests {

    static final int ROWS = 600;
    static final CSVFormat READ = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();

    record Row(String id, String name, String city, String region, String category, int rating, BigDecimal distanceKm,
               int groupSize, BigDecimal durationHours, String price, String listing) {}

    record Catalog(Pool pool, Path csv, Path truthCsv, List<String> header, List<String> truthHeader,
                   Map<String, Row> rows, List<CSVRecord> truth, List<PlantedDefect> defects, Pattern cityPattern) {
        Set<String> kindsOf(String id) {
            return truth.stream().filter(t -> t.get("id").equals(id)).map(t -> t.get("kind")).collect(Collectors.toSet());
        }

        List<Row> clean() {
            Set<String> d = truth.stream().map(t -> t.get("id")).collect(Collectors.toSet());
            return rows.values().stream().filter(r -> !d.contains(r.id())).toList();
        }

        List<CSVRecord> of(String kind) {
            return truth.stream().filter(t -> t.get("kind").equals(kind)).toList();
        }

        ListingVocabulary.Pool vocabulary() {
            return pool.vocabulary();
        }
    }

    static final Map<Pool, Catalog> CATALOGS = new EnumMap<>(Pool.class);

    @BeforeAll
    static void generate(@TempDir Path dir) throws IOException {
        for (Pool p : Pool.values()) {
            Path csv = dir.resolve(p.option() + ".csv");
            Path truth = dir.resolve(p.option() + ".truth.csv");
            ListingCatalogGenerator.write(ListingCatalogGenerator.DEFAULT_SEED, ROWS, p, csv, truth);
            CATALOGS.put(p, read(p, csv, truth));
        }
    }

    static Catalog read(Pool pool, Path csv, Path truth) throws IOException {
        Map<String, Row> rows = new LinkedHashMap<>();
        List<String> header;
        try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8); CSVParser p = READ.parse(in)) {
            header = p.getHeaderNames();
            for (CSVRecord r : p) {
                Row old = rows.put(r.get("id"), new Row(r.get("id"), r.get("name"), r.get("city"), r.get("region"),
                        r.get("category"), Integer.parseInt(r.get("rating")), new BigDecimal(r.get("distance_km")),
                        Integer.parseInt(r.get("group_size")), new BigDecimal(r.get("duration_hours")), r.get("price"),
                        r.get("listing")));
                assertThat(old).as("duplicate id " + r.get("id")).isNull();
            }
        }
        List<CSVRecord> records;
        List<String> truthHeader;
        try (Reader in = Files.newBufferedReader(truth, StandardCharsets.UTF_8); CSVParser p = READ.parse(in)) {
            truthHeader = p.getHeaderNames();
            records = p.getRecords();
        }
        String cities = rows.values().stream().map(Row::city).distinct().map(Pattern::quote).collect(Collectors.joining("|"));
        return new Catalog(pool, csv, truth, header, truthHeader, rows, records, ListingCatalogGenerator.plantedDefects(truth),
                Pattern.compile("\\b(?:" + cities + ")\\b"));
    }

    // ---- determinism, columns, CSV ------------------------------------------------------------------------

    @Test
    void theSameSeedWritesTheSameBytesAndOtherSeedsOrPoolsDiffer() throws IOException {
        StringBuilder a = new StringBuilder();
        StringBuilder aTruth = new StringBuilder();
        StringBuilder b = new StringBuilder();
        StringBuilder bTruth = new StringBuilder();
        ListingCatalogGenerator.write(7, 300, Pool.TUNING, a, aTruth);
        ListingCatalogGenerator.write(7, 300, Pool.TUNING, b, bTruth);
        StringBuilder otherSeed = new StringBuilder();
        ListingCatalogGenerator.write(8, 300, Pool.TUNING, otherSeed, null);
        StringBuilder otherPool = new StringBuilder();
        ListingCatalogGenerator.write(7, 300, Pool.HELD_OUT, otherPool, null);
        assertThat(a.toString()).isEqualTo(b.toString()).isNotEqualTo(otherSeed.toString()).isNotEqualTo(otherPool.toString());
        assertThat(aTruth.toString()).isEqualTo(bTruth.toString());
    }

    @Test
    void catalogAndTruthHaveTheContractColumnsAndValues() {
        for (Catalog c : CATALOGS.values()) {
            assertThat(c.header()).containsExactly("id", "name", "city", "region", "category", "rating", "distance_km",
                    "group_size", "duration_hours", "price", "listing");
            assertThat(c.truthHeader()).containsExactly("id", "kind", "detail", "wrong", "truth", "group");
            assertThat(c.rows()).hasSize(ROWS);
            Map<String, String> regionOfCity = new HashMap<>();
            for (Row r : c.rows().values()) {
                assertThat(r.id()).matches("A\\d{5}");
                assertThat(r.rating()).isBetween(1, 5);
                assertThat(r.distanceKm().scale()).isLessThanOrEqualTo(1);
                assertThat(r.distanceKm().signum()).isPositive();
                assertThat(r.groupSize()).isBetween(2, 60);
                assertThat(r.durationHours().remainder(new BigDecimal("0.5")).signum()).as(r.id()).isZero();
                assertThat(r.price()).matches("\\d+\\.\\d\\d");
                assertThat(regionOfCity.computeIfAbsent(r.city(), k -> r.region())).as(r.city()).isEqualTo(r.region());
                assertThat(sentences(r.listing())).as(r.id() + ": " + r.listing()).hasSizeBetween(3, 6);
            }
            assertThat(c.rows().values().stream().map(Row::category).distinct()).hasSize(6);
            assertThat(c.rows().values().stream().map(Row::region).filter(x -> x.endsWith(" National Park")).distinct())
                    .containsExactly(c.vocabulary().parkRegion());
        }
    }

    @Test
    void catalogRoundTripsThroughCommonsCsvAndExercisesQuoting() throws IOException {
        for (Catalog c : CATALOGS.values()) {
            String written = Files.readString(c.csv(), StandardCharsets.UTF_8);
            StringBuilder reprinted = new StringBuilder();
            try (CSVParser p = CSVFormat.DEFAULT.parse(new StringReader(written));
                 CSVPrinter out = new CSVPrinter(reprinted, CSVFormat.DEFAULT.builder().setRecordSeparator("\n").get())) {
                for (CSVRecord r : p) {
                    out.printRecord(r.values());
                }
            }
            assertThat(reprinted.toString()).isEqualTo(written);
            List<String> texts = c.rows().values().stream().map(Row::listing).toList();
            assertThat(texts).anyMatch(t -> t.contains(",")).anyMatch(t -> t.contains("\""))
                    .anyMatch(t -> t.contains("\n")).anyMatch(t -> t.contains("€"));
        }
    }

    // ---- pools -------------------------------------------------------------------------------------------------

    /**
     * The pools share no string of their vocabulary and no word of their names, cities and regions; their
     * catalogs share almost no word 3-shingle once what they share by design is left out: numbers (facts, not
     * wording), the park notice and the forbidden base terms (the task's own text).
     */
    @Test
    void thePoolsAreDisjoint() {
        ListingVocabulary.Pool t = ListingVocabulary.TUNING;
        ListingVocabulary.Pool h = ListingVocabulary.HELD_OUT;
        assertThat(strings(t)).doesNotContainAnyElementsOf(strings(h));
        assertThat(nameWords(t)).doesNotContainAnyElementsOf(nameWords(h));
        Set<String> tuning = shingles(CATALOGS.get(Pool.TUNING));
        Set<String> heldOut = shingles(CATALOGS.get(Pool.HELD_OUT));
        Set<String> shared = new TreeSet<>(tuning);
        shared.retainAll(heldOut);
        double share = shared.size() / (double) Math.min(tuning.size(), heldOut.size());
        System.out.printf("listing pools: %d of %d / %d distinct word 3-shingles shared (%.2f %%): %s%n", shared.size(),
                tuning.size(), heldOut.size(), share * 100, shared);
        assertThat(share).isLessThan(0.01);
    }

    static Set<String> shingles(Catalog c) {
        Set<String> out = new HashSet<>();
        c.rows().values().forEach(r -> out.addAll(Shingles.of(BY_DESIGN.matcher(r.listing().replace(NOTICE, " ")).replaceAll(" "))));
        return out;
    }

    static final Pattern BY_DESIGN = Pattern.compile("(?i)\\d+(?:\\.\\d+)?|\\b(?:"
            + java.util.stream.IntStream.range(0, 100).mapToObj(SampleCatalogGenerator::words).collect(Collectors.joining("|"))
            + ")\\b(?: and a half)?|guarantee\\w*|once[- ]in[- ]a[- ]lifetime|best in the world|life[- ]chang\\w*");

    static Set<String> strings(ListingVocabulary.Pool p) {
        Set<String> out = new HashSet<>();
        for (ListingVocabulary.Category c : p.categories()) {
            out.add(c.label());
            List.of(c.nouns(), c.highlights(), c.stems(), c.suffixes()).forEach(out::addAll);
        }
        p.cities().forEach(c -> {
            out.add(c.name());
            out.add(c.region());
        });
        List.of(p.intros(), p.introsWithDistance(), p.wheres(), p.logistics(), p.values(), p.colors(), p.offTopic(),
                p.wrongPrices(), p.houseStyle()).forEach(out::addAll);
        p.noticeMisses().stream().filter(s -> !s.isEmpty()).forEach(out::add);
        p.practicals().forEach(x -> out.add(x.sentence()));
        p.forbidden().forEach(f -> out.add(f.template()));
        p.passages().forEach(ps -> {
            out.add(ps.id());
            ps.slots().forEach(out::addAll);
        });
        ListingVocabulary.Styles s = p.styles();
        List.of(s.rating(), s.km(), s.miles(), s.group(), s.duration()).forEach(out::addAll);
        return out;
    }

    static Set<String> nameWords(ListingVocabulary.Pool p) {
        Set<String> out = new HashSet<>();
        p.categories().forEach(c -> {
            c.stems().forEach(s -> out.addAll(Shingles.words(s)));
            c.suffixes().forEach(s -> out.addAll(Shingles.words(s)));
        });
        p.cities().forEach(c -> {
            out.addAll(Shingles.words(c.name()));
            out.addAll(Shingles.words(c.region()));
        });
        out.removeAll(Set.of("and", "of", "on", "national", "park")); // function words; the park's own words
        return out;
    }

    // ---- clean listings and planted defects --------------------------------------------------------------------

    @Test
    void cleanListingsStateTheirOwnFactsAndNothingWrong() {
        for (Catalog c : CATALOGS.values()) {
            assertThat(c.clean()).hasSizeGreaterThan(ROWS / 2);
            for (Row r : c.clean()) {
                assertThat(problems(c, r, r.listing())).as(r.id() + ": " + r.listing()).isEmpty();
            }
        }
    }

    /**
     * Every planted defect's evidence is in its item's listing, once; the re-derived facts show the item's
     * planted kinds (all but boilerplate, which only the group shows) and nothing else; and applying every
     * defect's correction or appendix leaves a listing consistent with its source.
     */
    @Test
    void everyPlantedDefectIsInItsListingAndItsFixMakesTheListingConsistent() {
        for (Catalog c : CATALOGS.values()) {
            Map<String, List<PlantedDefect>> byItem = c.defects().stream()
                    .collect(Collectors.groupingBy(PlantedDefect::itemId, LinkedHashMap::new, Collectors.toList()));
            assertThat(c.defects()).hasSize(c.truth().size());
            for (Map.Entry<String, List<PlantedDefect>> e : byItem.entrySet()) {
                Row r = c.rows().get(e.getKey());
                assertThat(r).as(e.getKey()).isNotNull();
                String text = r.listing();
                Set<String> planted = c.kindsOf(r.id());
                Set<String> visible = new TreeSet<>(planted);
                visible.remove(BOILERPLATE);
                assertThat(problems(c, r, text)).as(r.id() + ": " + text).isEqualTo(visible);
                String fixed = text;
                for (PlantedDefect d : e.getValue()) {
                    assertThat(d.evidence().isEmpty()).as(d.toString()).isEqualTo(!d.appendix().isEmpty());
                    if (!d.evidence().isEmpty()) {
                        assertThat(count(text, d.evidence())).as(d + " in " + text).isEqualTo(1);
                    }
                    fixed = apply(fixed, d);
                }
                assertThat(problems(c, r, fixed)).as(r.id() + " fixed: " + fixed).isEmpty();
                assertThat(sentences(fixed)).as(fixed).hasSizeGreaterThanOrEqualTo(3);
            }
        }
    }

    @Test
    void boilerplateComesInGroupsOfThreeToSixInThreeVariants() {
        for (Catalog c : CATALOGS.values()) {
            Map<String, List<CSVRecord>> groups = c.of(BOILERPLATE).stream()
                    .collect(Collectors.groupingBy(t -> t.get("group")));
            assertThat(groups).isNotEmpty();
            for (List<CSVRecord> members : groups.values()) {
                assertThat(members).hasSizeBetween(3, 6);
                assertThat(members.stream().map(t -> t.get("truth")).distinct()).hasSize(1);
                assertThat(members.stream().map(t -> t.get("detail")).distinct()).hasSize(1);
                Set<String> passages = members.stream().map(t -> t.get("wrong")).collect(Collectors.toSet());
                switch (members.get(0).get("truth")) {
                    case "exact" -> assertThat(passages).hasSize(1);
                    case "paraphrase" -> assertThat(passages).hasSize(members.size());
                    default -> assertThat(passages).hasSizeGreaterThan(1);
                }
            }
            assertThat(distinct(c.of(BOILERPLATE), t -> t.get("truth"))).containsExactlyInAnyOrder("exact", "edit", "paraphrase");
        }
    }

    @Test
    void wrongNumbersCoverEveryColumnInDigitsWordsKilometresAndMiles() {
        for (Catalog c : CATALOGS.values()) {
            List<CSVRecord> wrong = c.of(WRONG_NUMBER);
            assertThat(distinct(wrong, t -> t.get("detail")))
                    .containsExactlyInAnyOrder("rating", "distance_km", "group_size", "duration_hours");
            List<String> distances = wrong.stream().filter(t -> t.get("detail").equals("distance_km"))
                    .map(t -> t.get("wrong")).toList();
            assertThat(distances).anyMatch(s -> s.matches(".* mi(les?)?")).anyMatch(s -> s.matches(".* (km|kilometres?)"));
            assertThat(wrong).anyMatch(t -> t.get("wrong").matches(".*\\d.*"))
                    .anyMatch(t -> t.get("wrong").matches("[^\\d]*"));
            assertThat(distinct(c.of(FORBIDDEN_CLAIM), t -> t.get("detail")))
                    .containsExactlyInAnyOrder("guaranteed", "once-in-a-lifetime", "best in the world", "life-changing");
            assertThat(distinct(c.of(FORBIDDEN_CLAIM), t -> t.get("wrong"))).hasSizeGreaterThan(4);
            assertThat(distinct(c.of(CONTRADICTION), t -> t.get("detail"))).hasSizeGreaterThanOrEqualTo(3);
            assertThat(distinct(c.of(MISSING_REQUIRED_SENTENCE), t -> t.get("wrong"))).contains("").hasSizeGreaterThan(1);
            for (CSVRecord t : c.of(OFF_TOPIC_SENTENCE)) {
                Row other = c.rows().get(t.get("detail"));
                assertThat(other.city()).isEqualTo(t.get("truth")).isNotEqualTo(c.rows().get(t.get("id")).city());
            }
        }
    }

    /** Rates on the tuning pool only (the held-out pool is not looked at for any figure of the generator). */
    @Test
    void ratesAreWithinTolerance() {
        Catalog c = CATALOGS.get(Pool.TUNING);
        double clean = c.clean().size() / (double) ROWS;
        assertThat(clean).isBetween(0.60, 0.76);
        for (String kind : ListingCatalogGenerator.KINDS) {
            double share = c.of(kind).stream().map(t -> t.get("id")).distinct().count() / (double) ROWS;
            assertThat(share).as(kind).isBetween(kind.equals(WRONG_NUMBER) ? 0.04 : 0.015, kind.equals(WRONG_NUMBER) ? 0.11 : 0.09);
        }
    }

    @Test
    void everyKindHasABenchmarkCriterionOfTheJobFile(@TempDir Path dir) throws Exception {
        JobDefinition job = loadBenchJob(dir, "0.10", "5");
        Set<String> criteria = job.rubric().stream().map(Criterion::id).collect(Collectors.toSet());
        assertThat(ListingCatalogGenerator.benchmarkCriteria().keySet())
                .containsExactlyInAnyOrderElementsOf(ListingCatalogGenerator.KINDS);
        assertThat(criteria).containsAll(ListingCatalogGenerator.benchmarkCriteria().values());
    }

    // ---- the benchmark job file --------------------------------------------------------------------------------

    /**
     * The template loads once its placeholders are substituted, for the sampled and the full run: two model
     * reviewers judging every Santa criterion, a model fixer and matcher, and no rule but the length rule.
     */
    @Test
    void theBenchmarkJobTemplateLoadsWithModelsAndNoRuleAimedAtTheDefects(@TempDir Path dir) throws Exception {
        for (String rate : List.of("0.10", "1.0")) {
            JobDefinition job = loadBenchJob(dir, rate, "7");
            assertThat(job.sampling().rate()).isEqualTo(Double.parseDouble(rate));
            assertThat(job.santa().maxRounds()).isEqualTo(7);
            assertThat(job.input().contentColumn()).isEqualTo("listing");
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
            assertThat(job.rubric().stream().filter(Criterion::reviewedBySanta).map(Criterion::id))
                    .containsExactlyInAnyOrder("factual-accuracy", "park-notice", "no-forbidden-claims",
                            "on-specification", "original", "internal-consistency");
            assertThat(job.taskSpec()).contains(NOTICE);
        }
    }

    static JobDefinition loadBenchJob(Path dir, String rate, String maxRounds) throws Exception {
        Path csv = dir.resolve("listings.csv");
        ListingCatalogGenerator.write(1, 20, Pool.TUNING, csv, null);
        String template = Files.readString(Path.of("src/test/resources/bench/listings-llm.yml"), StandardCharsets.UTF_8);
        String yaml = template.replace("@CSV@", csv.toAbsolutePath().toString()).replace("@BASE_URL@", "http://127.0.0.1:9/v1")
                .replace("@RATE@", rate).replace("@MAX_ROUNDS@", maxRounds);
        assertThat(yaml).doesNotContain("@");
        Path job = dir.resolve("listings-llm.yml");
        Files.writeString(job, yaml, StandardCharsets.UTF_8);
        JobFileLoader.Result loaded = JobFileLoader.loadWithWarnings(job);
        assertThat(loaded.warnings()).isEmpty();
        return loaded.definition();
    }

    // ---- re-deriving facts from a listing ----------------------------------------------------------------------

    static final String NUM = "(\\d+(?:\\.\\d)?|[a-z]+(?:-[a-z]+)?(?: and a half)?)";
    static final Pattern RATING = Pattern.compile("(?i)\\b" + NUM + "(?:(?: stars?)? out of (?:5|five)(?: stars)?|/5| stars?\\b)");
    static final Pattern DISTANCE = Pattern.compile("\\b" + NUM + " (km|kilometres?|miles?|mi)\\b");
    static final Pattern GROUP = Pattern.compile("(?:up to|groups of|a maximum of|no more than|parties of up to) " + NUM
            + "|" + NUM + " participants at most");
    static final Pattern DURATION = Pattern.compile("\\b" + NUM + " (hours?|hrs?|minutes|mins)\\b");
    static final Pattern FORBIDDEN = Pattern.compile("(?i)guarantee|lifetime|best in the world|world's best|life[- ]chang");
    static final Pattern FOREIGN_MONEY = Pattern.compile("[$£]|\\b(USD|GBP|dollars?|pounds?)\\b");

    /**
     * The kinds of problem the listing shows against its row, re-derived from the text: a stated quantity
     * other than its column (miles as km / 1.609344 to one decimal), a price not in euros or not the column's,
     * a forbidden claim, the park notice missing where required (or present elsewhere), another catalog city,
     * and two practical statements of one topic that contradict each other.
     */
    static Set<String> problems(Catalog c, Row r, String text) {
        Set<String> out = new TreeSet<>();
        if (!values(RATING, text).equals(List.of(new BigDecimal(r.rating())))) {
            out.add(WRONG_NUMBER);
        }
        Matcher d = DISTANCE.matcher(text);
        int distances = 0;
        while (d.find()) {
            BigDecimal stated = number(d.group(1));
            if (stated == null) {
                continue;
            }
            distances++;
            BigDecimal expected = d.group(2).startsWith("mi")
                    ? r.distanceKm().divide(new BigDecimal("1.609344"), 1, RoundingMode.HALF_UP)
                    : r.distanceKm();
            if (stated.compareTo(expected) != 0) {
                out.add(WRONG_NUMBER);
            }
        }
        if (distances != 1 || !values(GROUP, text).equals(List.of(new BigDecimal(r.groupSize())))) {
            out.add(WRONG_NUMBER);
        }
        Matcher h = DURATION.matcher(text);
        List<BigDecimal> hours = new ArrayList<>();
        while (h.find()) {
            BigDecimal n = number(h.group(1));
            if (n != null) {
                hours.add(h.group(2).startsWith("min") ? n.divide(new BigDecimal(60), 1, RoundingMode.UNNECESSARY) : n);
            }
        }
        if (hours.size() != 1 || hours.get(0).compareTo(r.durationHours()) != 0) {
            out.add(WRONG_NUMBER);
        }
        boolean euros = text.contains("€" + r.price()) || text.contains(r.price() + " euros") || text.contains("EUR " + r.price());
        if (!euros || FOREIGN_MONEY.matcher(text).find()) {
            out.add(WRONG_CURRENCY);
        }
        if (FORBIDDEN.matcher(text).find()) {
            out.add(FORBIDDEN_CLAIM);
        }
        if (text.contains(NOTICE) != r.region().equals(c.vocabulary().parkRegion())) {
            out.add(MISSING_REQUIRED_SENTENCE);
        }
        Matcher city = c.cityPattern().matcher(text);
        while (city.find()) {
            if (!city.group().equals(r.city())) {
                out.add(OFF_TOPIC_SENTENCE);
            }
        }
        Map<String, Set<Boolean>> stances = new HashMap<>();
        for (Practical p : c.vocabulary().practicals()) {
            if (text.contains(p.sentence())) {
                stances.computeIfAbsent(p.topic(), k -> new HashSet<>()).add(p.permissive());
            }
        }
        if (stances.values().stream().anyMatch(s -> s.size() == 2)) {
            out.add(CONTRADICTION);
        }
        if (!text.contains(r.name()) || !text.contains(r.city())) {
            out.add("unnamed");
        }
        return out;
    }

    static List<BigDecimal> values(Pattern p, String text) {
        List<BigDecimal> out = new ArrayList<>();
        Matcher m = p.matcher(text);
        while (m.find()) {
            String g = m.group(1) != null ? m.group(1) : m.group(2);
            BigDecimal n = number(g);
            if (n != null) { // "up to the day before" states no group size
                out.add(n);
            }
        }
        return out;
    }

    static final Map<String, Integer> WORDS = new HashMap<>();

    static {
        for (int i = 0; i < 100; i++) {
            WORDS.put(SampleCatalogGenerator.words(i), i);
        }
    }

    /** A number in digits or words ("two and a half"), or null if it is none. */
    static BigDecimal number(String s) {
        String t = s.toLowerCase(java.util.Locale.ROOT);
        if (t.matches("\\d+(\\.\\d)?")) {
            return new BigDecimal(t);
        }
        boolean half = t.endsWith(" and a half");
        Integer whole = WORDS.get(half ? t.substring(0, t.length() - " and a half".length()) : t);
        return whole == null ? null : new BigDecimal(whole).add(half ? new BigDecimal("0.5") : BigDecimal.ZERO);
    }

    // ---- applying a fix ----------------------------------------------------------------------------------------

    /** The text with the defect fixed as its truth says: evidence replaced, its sentences removed, or appended to. */
    static String apply(String text, PlantedDefect d) {
        String out = text;
        if (!d.evidence().isEmpty()) {
            int at = out.indexOf(d.evidence());
            assertThat(at).as(d + " in " + out).isNotNegative();
            out = d.correction().isEmpty() ? removeSentences(out, at, at + d.evidence().length())
                    : out.substring(0, at) + d.correction() + out.substring(at + d.evidence().length());
        }
        return d.appendix().isEmpty() ? out : out + " " + d.appendix();
    }

    static String removeSentences(String text, int from, int to) {
        List<String> kept = new ArrayList<>();
        Matcher m = SENTENCE.matcher(text);
        while (m.find()) {
            if (m.end() <= from || m.start() >= to) {
                kept.add(m.group().strip());
            }
        }
        return String.join(" ", kept);
    }

    static final Pattern SENTENCE = Pattern.compile("[^\\s].*?[.!?](?=\\s|$)", Pattern.DOTALL);

    static List<String> sentences(String text) {
        return SENTENCE.matcher(text).results().map(m -> m.group()).toList();
    }

    static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    static <T> Set<String> distinct(List<T> list, Function<T, String> f) {
        return list.stream().map(f).collect(Collectors.toCollection(TreeSet::new));
    }
}
