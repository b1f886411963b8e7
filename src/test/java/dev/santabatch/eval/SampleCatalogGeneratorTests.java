package dev.santabatch.eval;

import dev.santabatch.text.Shingles;
import static dev.santabatch.eval.SampleCatalogGenerator.BOILERPLATE;
import static dev.santabatch.eval.SampleCatalogGenerator.DISCLAIMER;
import static dev.santabatch.eval.SampleCatalogGenerator.DRIFT_SENTENCE;
import static dev.santabatch.eval.SampleCatalogGenerator.DRIFT_TEXT;
import static dev.santabatch.eval.SampleCatalogGenerator.FORBIDDEN_TERM;
import static dev.santabatch.eval.SampleCatalogGenerator.MISSING_DISCLAIMER;
import static dev.santabatch.eval.SampleCatalogGenerator.WRONG_NUMBER;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SampleCatalogGeneratorTests {

    static final Path SAMPLE = Path.of("sample-data/products.csv");
    static final Path SAMPLE_TRUTH = Path.of("sample-data/products.truth.csv");
    static final Pattern FORBIDDEN_STEMS =
            Pattern.compile("(?i)miracle|\\bcur(e|es|ed|ing)\\b|revolutioniz|risk-free|clinically proven");

    record Product(String id, String name, String brand, String category, String price, int years, Integer hours,
                   String description) {}

    record Truth(String id, String kind, String detail, String wrong, String truth, String group) {}

    record Catalog(List<String> header, Map<String, Product> products, List<String> truthHeader, List<Truth> truth) {
        Set<String> defective() {
            return truth.stream().map(Truth::id).collect(Collectors.toSet());
        }

        List<Product> clean() {
            Set<String> d = defective();
            return products.values().stream().filter(p -> !d.contains(p.id())).toList();
        }

        List<Truth> of(String kind) {
            return truth.stream().filter(t -> t.kind().equals(kind)).toList();
        }
    }

    static Catalog sample;
    static Catalog heldOut;
    static Catalog fresh;

    @BeforeAll
    static void load(@TempDir Path dir) throws IOException {
        sample = read(SAMPLE, SAMPLE_TRUTH);
        Path csv = dir.resolve("held-out.csv");
        Path truth = dir.resolve("held-out.truth.csv");
        SampleCatalogGenerator.write(SampleCatalogGenerator.DEFAULT_SEED, 1200, true, csv, truth);
        heldOut = read(csv, truth);
        Path freshCsv = dir.resolve("fresh.csv");
        Path freshTruth = dir.resolve("fresh.truth.csv");
        SampleCatalogGenerator.write(SampleCatalogGenerator.DEFAULT_SEED, 1200, SampleCatalogGenerator.Vocabulary.FRESH, freshCsv, freshTruth);
        fresh = read(freshCsv, freshTruth);
    }

    static Catalog read(Path csv, Path truth) throws IOException {
        CSVFormat f = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();
        Map<String, Product> products = new LinkedHashMap<>();
        List<String> header;
        try (Reader r = Files.newBufferedReader(csv, StandardCharsets.UTF_8); CSVParser p = f.parse(r)) {
            header = p.getHeaderNames();
            for (CSVRecord rec : p) {
                String h = rec.get("battery_hours");
                Product old = products.put(rec.get("id"), new Product(rec.get("id"), rec.get("name"), rec.get("brand"),
                        rec.get("category"), rec.get("price"), Integer.parseInt(rec.get("warranty_years")),
                        h.isEmpty() ? null : Integer.valueOf(h), rec.get("description")));
                assertThat(old).as("duplicate id " + rec.get("id")).isNull();
            }
        }
        List<Truth> rows = new ArrayList<>();
        List<String> truthHeader;
        try (Reader r = Files.newBufferedReader(truth, StandardCharsets.UTF_8); CSVParser p = f.parse(r)) {
            truthHeader = p.getHeaderNames();
            for (CSVRecord rec : p) {
                rows.add(new Truth(rec.get("id"), rec.get("kind"), rec.get("detail"), rec.get("wrong"), rec.get("truth"),
                        rec.get("group")));
            }
        }
        return new Catalog(header, products, truthHeader, rows);
    }

    // ---- the committed sample ------------------------------------------------------------------------------

    @Test
    void regeneratingTheSampleReproducesTheCommittedFilesByteForByte(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("products.csv");
        Path truth = dir.resolve("products.truth.csv");
        int rc = SampleCatalogGenerator.run(new String[] {"--seed", "20261130", "--rows", "1200", "--out", csv.toString(),
                "--truth", truth.toString()});
        assertThat(rc).isZero();
        assertThat(Files.mismatch(csv, SAMPLE)).as("products.csv differs from the committed sample").isEqualTo(-1L);
        assertThat(Files.mismatch(truth, SAMPLE_TRUTH)).as("products.truth.csv differs").isEqualTo(-1L);
    }

    @Test
    void catalogHasTheContractColumnsAndValues() {
        for (Catalog c : List.of(sample, heldOut, fresh)) {
            assertThat(c.header()).containsExactly("id", "name", "brand", "category", "price", "warranty_years",
                    "battery_hours", "description");
            assertThat(c.truthHeader()).containsExactly("id", "kind", "detail", "wrong", "truth", "group");
            assertThat(c.products()).hasSizeGreaterThanOrEqualTo(1000);
            assertThat(c.products().values().stream().map(Product::category).distinct().count()).isGreaterThanOrEqualTo(5);
            for (Product p : c.products().values()) {
                assertThat(p.id()).matches("P\\d{5,}");
                assertThat(p.price()).matches("\\d+\\.\\d\\d");
                assertThat(p.years()).isBetween(1, 5);
                boolean noBattery = p.category().equals("kitchen") || p.category().equals("supplements");
                if (noBattery) {
                    assertThat(p.hours()).as(p.id()).isNull();
                } else {
                    assertThat(p.hours()).as(p.id()).isNotNull().isBetween(8, 60);
                }
                assertThat(p.description().length()).as(p.id()).isBetween(40, 2000);
            }
        }
    }

    @Test
    void descriptionsExerciseCsvQuoting() {
        List<String> d = sample.products().values().stream().map(Product::description).toList();
        assertThat(d).anyMatch(s -> s.contains(","));
        assertThat(d).anyMatch(s -> s.contains("\""));
        assertThat(d).anyMatch(s -> s.contains("\n"));
        assertThat(d).anyMatch(s -> s.contains("é"));
        assertThat(d).anyMatch(s -> s.contains("™"));
        assertThat(d).anyMatch(s -> s.contains("–"));
    }

    @Test
    void cleanShareIsBetweenSixtyAndEightyPercent() {
        for (Catalog c : List.of(sample, heldOut, fresh)) {
            double share = (double) c.clean().size() / c.products().size();
            assertThat(share).isBetween(0.60, 0.80);
        }
    }

    @Test
    void cleanItemsAreSoundDescriptionsOfTheirOwnProduct() {
        for (Catalog c : List.of(sample, heldOut, fresh)) {
            for (Product p : c.clean()) {
                String d = p.description();
                assertThat(d).as(p.id()).contains(p.name()).contains(p.brand()).contains("$" + p.price());
                assertThat(FORBIDDEN_STEMS.matcher(d).find()).as(p.id() + ": " + d).isFalse();
                assertThat(statesYears(d, p.years())).as(p.id() + " warranty: " + d).isTrue();
                if (p.hours() != null) {
                    assertThat(statesHours(d, p.hours())).as(p.id() + " battery: " + d).isTrue();
                } else {
                    assertThat(d.toLowerCase(Locale.ROOT)).doesNotContain("battery").doesNotContain("charge");
                }
                if (p.category().equals("supplements")) {
                    assertThat(d).as(p.id()).endsWith(DISCLAIMER);
                }
                long sentences = Pattern.compile("[.!?](\\s|$)").matcher(d).results().count();
                assertThat(sentences).as(p.id() + ": " + d).isBetween(2L, 5L);
            }
        }
    }

    @Test
    void noTwoCleanItemsShareMoreThanHalfOfTheirShingles() {
        for (Catalog c : List.of(sample, heldOut, fresh)) {
            List<Product> clean = c.clean();
            List<Set<String>> sets = new ArrayList<>();
            Map<String, List<Integer>> postings = new HashMap<>();
            double worst = 0;
            String worstPair = "";
            for (int i = 0; i < clean.size(); i++) {
                Set<String> s = Shingles.of(clean.get(i).description());
                Map<Integer, Integer> inter = new HashMap<>();
                for (String sh : s) {
                    for (int j : postings.getOrDefault(sh, List.of())) {
                        inter.merge(j, 1, Integer::sum);
                    }
                }
                for (Map.Entry<Integer, Integer> e : inter.entrySet()) {
                    int n = e.getValue();
                    double jac = (double) n / (s.size() + sets.get(e.getKey()).size() - n);
                    if (jac > worst) {
                        worst = jac;
                        worstPair = clean.get(e.getKey()).id() + "/" + clean.get(i).id();
                    }
                }
                sets.add(s);
                for (String sh : s) {
                    postings.computeIfAbsent(sh, k -> new ArrayList<>()).add(i);
                }
            }
            assertThat(worst).as("most similar clean pair " + worstPair).isLessThanOrEqualTo(0.5);
        }
    }

    @Test
    void shingleJaccardDetectsCopies() {
        Set<String> a = Shingles.of("The quick brown fox jumps over the lazy dog.");
        assertThat(Shingles.jaccard(a, Shingles.of("the QUICK brown fox, jumps over the lazy dog"))).isEqualTo(1.0);
        assertThat(Shingles.jaccard(a, Shingles.of("A slow green turtle walks under a busy bridge."))).isZero();
    }

    // ---- ground truth --------------------------------------------------------------------------------------

    @Test
    void everyTruthRowNamesAnExistingItemAndAKnownKind() {
        for (Catalog c : List.of(sample, heldOut, fresh)) {
            assertThat(c.truth()).isNotEmpty();
            for (Truth t : c.truth()) {
                assertThat(c.products()).as(t.toString()).containsKey(t.id());
                assertThat(t.kind()).isIn(SampleCatalogGenerator.KINDS);
                assertThat(t.group().isEmpty()).as(t.toString()).isEqualTo(!t.kind().equals(BOILERPLATE));
            }
            assertThat(c.truth().stream().map(Truth::kind).distinct()).containsExactlyInAnyOrderElementsOf(
                    SampleCatalogGenerator.KINDS);
        }
    }

    @Test
    void everyDefectKindComesInAtLeastThreeWordings() {
        for (Catalog c : List.of(sample, heldOut, fresh)) {
            assertThat(distinct(c.of(FORBIDDEN_TERM), Truth::wrong)).hasSizeGreaterThanOrEqualTo(3);
            assertThat(distinct(c.of(FORBIDDEN_TERM), Truth::detail)).hasSize(5);
            assertThat(distinct(c.of(MISSING_DISCLAIMER), Truth::wrong)).hasSizeGreaterThanOrEqualTo(3);
            Set<String> numberStyles = new TreeSet<>();
            for (Truth t : c.of(WRONG_NUMBER)) {
                String d = c.products().get(t.id()).description().toLowerCase(Locale.ROOT);
                int n = Integer.parseInt(t.wrong());
                if (Pattern.compile("\\b" + n + "[- ](year|hour)").matcher(d).find()) {
                    numberStyles.add("digits");
                }
                if (Pattern.compile("\\b" + SampleCatalogGenerator.words(n) + "[- ](year|hour|full)").matcher(d).find()) {
                    numberStyles.add("words");
                }
                if (Pattern.compile("\\b" + n * 12 + "[- ]month").matcher(d).find()) {
                    numberStyles.add("months");
                }
            }
            assertThat(numberStyles).containsExactly("digits", "months", "words");
            assertThat(distinct(c.of(WRONG_NUMBER), Truth::detail)).containsExactlyInAnyOrder("warranty_years", "battery_hours");
            assertThat(distinct(c.of(DRIFT_SENTENCE), Truth::truth)).hasSizeGreaterThanOrEqualTo(3);
            assertThat(distinct(c.of(DRIFT_TEXT), Truth::truth)).hasSizeGreaterThanOrEqualTo(3);
            assertThat(distinct(c.of(BOILERPLATE), Truth::truth)).containsExactlyInAnyOrder("exact", "edit", "paraphrase");
            assertThat(distinct(c.of(BOILERPLATE), Truth::detail)).hasSizeGreaterThanOrEqualTo(3);
        }
    }

    @Test
    void disclaimerMissingItemsAreSupplementsWithoutThePhrase() {
        for (Catalog c : List.of(sample, heldOut, fresh)) {
            assertThat(c.of(MISSING_DISCLAIMER)).isNotEmpty();
            for (Truth t : c.of(MISSING_DISCLAIMER)) {
                Product p = c.products().get(t.id());
                assertThat(p.category()).isEqualTo("supplements");
                assertThat(p.description()).doesNotContain(DISCLAIMER);
                assertThat(t.detail()).isEqualTo(DISCLAIMER);
                assertThat(p.description()).contains(t.wrong());
            }
            Set<String> missing = c.of(MISSING_DISCLAIMER).stream().map(Truth::id).collect(Collectors.toSet());
            for (Product p : c.products().values()) {
                if (p.category().equals("supplements") && !missing.contains(p.id())) {
                    assertThat(p.description()).as(p.id()).contains(DISCLAIMER);
                }
            }
        }
    }

    @Test
    void wrongNumberItemsStateTheWrongValue() {
        for (Catalog c : List.of(sample, heldOut, fresh)) {
            assertThat(c.of(WRONG_NUMBER)).isNotEmpty();
            for (Truth t : c.of(WRONG_NUMBER)) {
                Product p = c.products().get(t.id());
                int wrong = Integer.parseInt(t.wrong());
                String d = p.description();
                if (t.detail().equals("warranty_years")) {
                    assertThat(t.truth()).isEqualTo(Integer.toString(p.years()));
                    assertThat(wrong).isNotEqualTo(p.years());
                    assertThat(statesYears(d, wrong)).as(t + " in " + d).isTrue();
                    assertThat(statesYears(d, p.years())).as(t + " in " + d).isFalse();
                } else {
                    assertThat(t.detail()).isEqualTo("battery_hours");
                    assertThat(t.truth()).isEqualTo(String.valueOf(p.hours()));
                    assertThat(wrong).isNotEqualTo(p.hours());
                    assertThat(statesHours(d, wrong)).as(t + " in " + d).isTrue();
                    assertThat(statesHours(d, p.hours())).as(t + " in " + d).isFalse();
                }
            }
        }
    }

    @Test
    void forbiddenTermsAreWrittenAsRecordedAndConcentratedInOneCategory() {
        for (Catalog c : List.of(sample, heldOut, fresh)) {
            Map<String, Integer> byCategory = new HashMap<>();
            for (Truth t : c.of(FORBIDDEN_TERM)) {
                Product p = c.products().get(t.id());
                assertThat(Pattern.compile("(?<![\\w-])" + Pattern.quote(t.wrong()) + "(?![\\w-])").matcher(p.description())
                        .find()).as(t + " in " + p.description()).isTrue();
                assertThat(t.wrong().toLowerCase(Locale.ROOT)).startsWith(t.detail().substring(0, t.detail().length() - 1));
                byCategory.merge(p.category(), 1, Integer::sum);
            }
            assertThat(byCategory.size()).as("forbidden terms elsewhere too").isGreaterThanOrEqualTo(3);
            int top = byCategory.values().stream().max(Integer::compare).orElseThrow();
            assertThat(top * 4).as("concentrated: " + byCategory).isGreaterThan(c.of(FORBIDDEN_TERM).size());
        }
    }

    @Test
    void driftsAreInTheTextAndMostNameNoOtherProduct() {
        for (Catalog c : List.of(sample, heldOut, fresh)) {
            Set<String> brands = c.products().values().stream().map(Product::brand).collect(Collectors.toSet());
            List<Truth> drifts = new ArrayList<>(c.of(DRIFT_SENTENCE));
            drifts.addAll(c.of(DRIFT_TEXT));
            long offTopic = 0;
            for (Truth t : drifts) {
                Product p = c.products().get(t.id());
                assertThat(p.description()).contains(t.wrong());
                if (t.kind().equals(DRIFT_TEXT)) {
                    assertThat(t.detail()).isEqualTo("whole text");
                    assertThat(p.description()).isEqualTo(t.wrong()).doesNotContain(p.name());
                }
                if (t.truth().startsWith("topic:")) {
                    offTopic++;
                    assertThat(brands).noneMatch(b -> t.wrong().contains(b));
                } else {
                    assertThat(t.truth()).startsWith("product:");
                    Product other = c.products().get(t.truth().substring("product:".length()));
                    assertThat(other).isNotNull();
                    assertThat(t.wrong()).contains(other.name()).contains(other.brand());
                }
            }
            assertThat(offTopic * 2).isGreaterThanOrEqualTo(drifts.size());
        }
    }

    @Test
    void boilerplateGroupsHaveThreeToSixMembersSharingOnePassage() {
        for (Catalog c : List.of(sample, heldOut, fresh)) {
            Map<String, List<Truth>> groups = c.of(BOILERPLATE).stream().collect(Collectors.groupingBy(Truth::group));
            assertThat(groups).hasSizeGreaterThanOrEqualTo(6);
            for (List<Truth> g : groups.values()) {
                assertThat(g).hasSizeBetween(3, 6);
                assertThat(distinct(g, Truth::detail)).hasSize(1);
                assertThat(distinct(g, Truth::truth)).hasSize(1);
                assertThat(distinct(g, Truth::id)).hasSize(g.size());
                for (Truth t : g) {
                    assertThat(c.products().get(t.id()).description()).contains(t.wrong());
                }
                Set<String> texts = distinct(g, Truth::wrong);
                switch (g.get(0).truth()) {
                    case "exact" -> assertThat(texts).hasSize(1);
                    case "paraphrase" -> {
                        assertThat(texts).hasSize(g.size());
                        assertThat(Shingles.jaccard(Shingles.of(g.get(0).wrong()), Shingles.of(g.get(1).wrong())))
                                .isLessThan(0.3);
                    }
                    default -> {
                        assertThat(texts.size()).isGreaterThan(1);
                        assertThat(Shingles.jaccard(Shingles.of(g.get(0).wrong()), Shingles.of(g.get(1).wrong())))
                                .isGreaterThan(0.5);
                    }
                }
            }
        }
    }

    // ---- held-out mode -------------------------------------------------------------------------------------

    @Test
    void thePoolsShareNoNamesBrandsTopicsPassagesOrTemplates() {
        List<Catalog> pools = List.of(sample, heldOut, fresh);
        for (int i = 0; i < pools.size(); i++) {
            for (int j = i + 1; j < pools.size(); j++) {
                assertDisjoint(pools.get(i), pools.get(j));
            }
        }
    }

    static void assertDisjoint(Catalog x, Catalog y) {
        assertThat(intersection(x, y, Product::brand)).isEmpty();
        assertThat(intersection(x, y, Product::name)).isEmpty();
        assertThat(intersection(x, y, p -> p.name().split(" ")[0])).isEmpty();
        assertThat(intersection(x, y, p -> p.name().substring(p.name().lastIndexOf(' ') + 1))).isEmpty();
        for (String kind : List.of(DRIFT_SENTENCE, DRIFT_TEXT)) {
            Set<String> a = distinct(x.of(kind), Truth::truth).stream().filter(s -> s.startsWith("topic:"))
                    .collect(Collectors.toSet());
            Set<String> b = distinct(y.of(kind), Truth::truth);
            assertThat(a).isNotEmpty().doesNotContainAnyElementsOf(b);
            assertThat(distinct(x.of(kind), Truth::wrong)).doesNotContainAnyElementsOf(distinct(y.of(kind), Truth::wrong));
        }
        assertThat(distinct(x.of(BOILERPLATE), Truth::detail)).doesNotContainAnyElementsOf(distinct(y.of(BOILERPLATE), Truth::detail));
        assertThat(distinct(x.of(BOILERPLATE), Truth::wrong)).doesNotContainAnyElementsOf(distinct(y.of(BOILERPLATE), Truth::wrong));
        assertThat(distinct(x.of(MISSING_DISCLAIMER), Truth::wrong).stream().filter(w -> !w.isEmpty()).toList())
                .doesNotContainAnyElementsOf(distinct(y.of(MISSING_DISCLAIMER), Truth::wrong));
        // sentence templates: the first three words of clean descriptions with names and brands blanked out
        Set<String> a = openings(x);
        Set<String> b = openings(y);
        assertThat(a).doesNotContainAnyElementsOf(b);
    }

    /**
     * The fresh pool is new material, string by string: no template, name, brand, model word, category
     * phrase, drift topic or sentence, passage sentence or defect wording of it occurs in the sample or the
     * held-out pool, and no word of its names and brands is a word of theirs.
     */
    @Test
    void theFreshPoolSharesNoStringWithTheOtherPools() {
        CatalogVocabulary.Pool f = CatalogVocabulary.FRESH;
        for (CatalogVocabulary.Pool o : List.of(CatalogVocabulary.SAMPLE, CatalogVocabulary.HELD_OUT)) {
            assertThat(strings(f)).as("strings shared with pool " + o.tag()).doesNotContainAnyElementsOf(strings(o));
            assertThat(nameWords(f)).as("name and brand words shared with pool " + o.tag()).doesNotContainAnyElementsOf(nameWords(o));
        }
        assertThat(f.categories()).extracting(CatalogVocabulary.Cat::id)
                .containsExactlyElementsOf(CatalogVocabulary.CATEGORIES.stream().map(CatalogVocabulary.Cat::id).toList());
        for (int i = 0; i < f.categories().size(); i++) {
            CatalogVocabulary.Cat a = f.categories().get(i);
            CatalogVocabulary.Cat b = CatalogVocabulary.CATEGORIES.get(i);
            assertThat(List.of(a.battery(), a.minPrice(), a.maxPrice(), a.minHours(), a.maxHours()))
                    .as("columns keep their meaning in " + a.id())
                    .isEqualTo(List.of(b.battery(), b.minPrice(), b.maxPrice(), b.minHours(), b.maxHours()));
        }
        // and the catalogs: what the fresh catalog shares with the other two is numbers, prices, the disclaimer
        // and function-word phrases ("that makes a", "a pair of"); for scale, the held-out pool against the sample
        double share = sharedShingleShare(fresh, List.of(sample, heldOut));
        double heldOutShare = sharedShingleShare(heldOut, List.of(sample));
        System.out.printf(Locale.ROOT, "word 3-shingles also in the other catalogs: fresh %.1f %% (of the sample and held-out ones),"
                + " held-out %.1f %% (of the sample's)%n", share * 100, heldOutShare * 100);
        assertThat(share).isLessThan(0.05);
    }

    /** The share of the distinct word 3-shingles of {@code c}'s descriptions that occur in any of {@code others}. */
    static double sharedShingleShare(Catalog c, List<Catalog> others) {
        Set<String> theirs = new HashSet<>();
        for (Catalog o : others) {
            o.products().values().forEach(p -> theirs.addAll(Shingles.of(p.description())));
        }
        Set<String> mine = new HashSet<>();
        c.products().values().forEach(p -> mine.addAll(Shingles.of(p.description())));
        long shared = mine.stream().filter(theirs::contains).count();
        return (double) shared / mine.size();
    }

    static Set<String> strings(CatalogVocabulary.Pool p) {
        Set<String> out = new HashSet<>();
        p.brands().values().forEach(out::addAll);
        p.stems().values().forEach(out::addAll);
        out.addAll(p.suffixes());
        out.addAll(p.intros());
        out.addAll(p.closers());
        out.addAll(p.prices());
        p.warranties().forEach(t -> out.add(t.template()));
        p.batteries().forEach(t -> out.add(t.template()));
        p.forbidden().forEach(t -> out.add(t.template()));
        out.addAll(p.driftOther());
        p.topics().forEach(t -> {
            out.add(t.label());
            out.addAll(t.sentences());
        });
        p.passages().forEach(ps -> {
            out.add(ps.id());
            ps.slots().forEach(out::addAll);
        });
        p.disclaimerMisses().stream().filter(d -> !d.isEmpty()).forEach(out::add);
        for (CatalogVocabulary.Cat c : p.categories()) {
            for (List<String> l : List.of(c.nouns(), c.feats(), c.bens(), c.auds(), c.problems(), c.contexts())) {
                out.addAll(l);
            }
            if (!c.use().isEmpty()) {
                out.add(c.use());
            }
        }
        return out;
    }

    static Set<String> nameWords(CatalogVocabulary.Pool p) {
        Set<String> out = new HashSet<>();
        p.brands().values().forEach(l -> l.forEach(b -> out.addAll(Shingles.words(b))));
        p.stems().values().forEach(l -> l.forEach(b -> out.addAll(Shingles.words(b))));
        p.suffixes().forEach(b -> out.addAll(Shingles.words(b)));
        out.remove("co"); // "& Co" style endings are no names
        return out;
    }

    // ---- API and CLI ---------------------------------------------------------------------------------------

    @Test
    void sameSeedGivesSameCatalogAndOtherSeedsDiffer() throws IOException {
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        StringBuilder c = new StringBuilder();
        SampleCatalogGenerator.write(7, 300, false, a, null);
        SampleCatalogGenerator.write(7, 300, false, b, new StringBuilder());
        SampleCatalogGenerator.write(8, 300, false, c, null);
        assertThat(a.toString()).isEqualTo(b.toString()).isNotEqualTo(c.toString());
        assertThat(a.toString().split("\n")[0]).isEqualTo(String.join(",", SampleCatalogGenerator.CATALOG_HEADER));
    }

    @Test
    void streamsLargeCatalogsQuickly() throws IOException {
        Appendable sink = new Appendable() {
            long n;

            @Override
            public Appendable append(CharSequence csq) {
                n += csq.length();
                return this;
            }

            @Override
            public Appendable append(CharSequence csq, int start, int end) {
                n += end - start;
                return this;
            }

            @Override
            public Appendable append(char ch) {
                n++;
                return this;
            }
        };
        SampleCatalogGenerator.Summary s = SampleCatalogGenerator.write(1, 5_000, false, sink, sink);
        assertThat(s.rows()).isEqualTo(5_000);
        assertThat((double) s.cleanRows() / s.rows()).isBetween(0.6, 0.8);
    }

    @Test
    void usageErrorsExitWithTwoAndWriteNothing(@TempDir Path dir) {
        Path out = dir.resolve("x.csv");
        for (String[] args : List.of(new String[] {}, new String[] {"--rows"}, new String[] {"--bogus"},
                new String[] {"--rows", "many", "--out", out.toString()}, new String[] {"--rows", "0", "--out", out.toString()},
                new String[] {"--seed", "--out", out.toString()})) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int rc = SampleCatalogGenerator.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
            assertThat(rc).as(String.join(" ", args)).isEqualTo(2);
            assertThat(err.toString()).contains("usage: generate");
        }
        assertThat(out).doesNotExist();
    }

    @Test
    void cliChoosesThePoolAndRejectsAnUnknownOne(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("f.csv");
        int rc = SampleCatalogGenerator.run(new String[] {"--seed", "3", "--rows", "50", "--out", out.toString(), "--pool", "fresh"},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()));
        assertThat(rc).isZero();
        StringBuilder expected = new StringBuilder();
        SampleCatalogGenerator.write(3, 50, SampleCatalogGenerator.Vocabulary.FRESH, expected, null);
        assertThat(Files.readString(out)).isEqualTo(expected.toString());
        StringBuilder heldOutToo = new StringBuilder();
        SampleCatalogGenerator.write(3, 50, true, heldOutToo, null);
        assertThat(heldOutToo.toString()).isNotEqualTo(expected.toString());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        rc = SampleCatalogGenerator.run(new String[] {"--out", dir.resolve("x.csv").toString(), "--pool", "tuned"},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
        assertThat(rc).isEqualTo(2);
        assertThat(err.toString()).contains("unknown --pool tuned").contains("usage: generate");
        assertThat(dir.resolve("x.csv")).doesNotExist();
    }

    @Test
    void cliWritesHeldOutCatalogWithoutTruth(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("sub/h.csv");
        int rc = SampleCatalogGenerator.run(new String[] {"--seed", "3", "--rows", "50", "--out", out.toString(), "--held-out"},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()));
        assertThat(rc).isZero();
        assertThat(Files.readString(out)).startsWith(String.join(",", SampleCatalogGenerator.CATALOG_HEADER) + "\n");
        assertThat(dir.resolve("sub")).isDirectoryContaining(p -> p.getFileName().toString().equals("h.csv"));
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    static boolean statesYears(String d, int n) {
        String s = d.toLowerCase(Locale.ROOT);
        return Pattern.compile("\\b" + n + "[- ]years?\\b").matcher(s).find()
                || Pattern.compile("\\b" + SampleCatalogGenerator.words(n) + "([- ]year| full year| years?\\b)").matcher(s).find()
                || Pattern.compile("\\b" + n * 12 + "[- ]months?\\b").matcher(s).find();
    }

    static boolean statesHours(String d, int n) {
        String s = d.toLowerCase(Locale.ROOT);
        return Pattern.compile("\\b(" + n + "|" + SampleCatalogGenerator.words(n) + ")[- ]hours?\\b").matcher(s).find();
    }

    static <T> Set<String> distinct(List<T> list, java.util.function.Function<T, String> f) {
        return list.stream().map(f).collect(Collectors.toCollection(TreeSet::new));
    }

    static Set<String> intersection(Catalog a, Catalog b, java.util.function.Function<Product, String> f) {
        Set<String> x = a.products().values().stream().map(f).collect(Collectors.toCollection(HashSet::new));
        x.retainAll(b.products().values().stream().map(f).collect(Collectors.toSet()));
        return x;
    }

    static Set<String> openings(Catalog c) {
        Set<String> out = new HashSet<>();
        for (Product p : c.clean()) {
            String d = p.description().replace(p.name(), "NAME").replace(p.brand() + "™", "BRAND")
                    .replace(p.brand(), "BRAND");
            for (String sentence : d.split("(?<=[.!?])\\s+")) {
                List<String> w = Shingles.words(sentence);
                if (w.size() >= 3) {
                    out.add(String.join(" ", w.subList(0, 3)));
                }
            }
        }
        out.remove("these statements have"); // the disclaimer is the same in both pools by design
        return out;
    }
}
