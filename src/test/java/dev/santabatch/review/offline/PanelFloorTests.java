package dev.santabatch.review.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.patterns.ExactIssueClassifier;
import dev.santabatch.review.step.OfflineFixer;
import dev.santabatch.review.step.OfflineReviewerTypes;
import dev.santabatch.model.ModelCalls;
import dev.santabatch.review.step.Panels;
import dev.santabatch.review.step.ReviewerType;
import dev.santabatch.review.offline.FixtureSet.Case;
import dev.santabatch.review.offline.FixtureSet.Defect;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.FixOutcome;
import dev.santabatch.review.FixRequest;
import dev.santabatch.review.IssueSimilarity;
import dev.santabatch.review.GateResult;
import dev.santabatch.review.GateVerdict;
import dev.santabatch.review.PanelReview;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.prepass.rules.RuleEngine;
import dev.santabatch.prepass.rules.RuleOutcome;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.commons.csv.CSVRecord;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.TestInstance;

/**
 * The panel floor of issue 4: the default job's two offline reviewers (lexical B, semantic C, built
 * from {@code jobs/product-descriptions.yml} as the job builds them) review every item of a round;
 * the panel flags an item when either reviewer fails it on {@code on-specification} or
 * {@code original} (the gate's NAUGHTY). On all cases of every reviewer kind: recall at least 0.90
 * (a defective case counts as caught when the panel fails it on the criterion its defect breaks),
 * precision at least 0.80 (every flag counts: a flag of an item without a planted drift or
 * boilerplate defect is a false positive, a hold). Each reviewer, on the cases its method is meant for
 * (lexical: copies, light edits, named drift; semantic: paraphrases, unnamed drift) plus the clean
 * cases: recall at least 0.85, precision at least 0.80; a flag of the other method's case is left
 * out of its precision (neither credited nor charged).
 *
 * <p>The generator catalog is written from the generator's {@code FRESH} vocabulary pool, which no
 * threshold was derived or cross-checked on (the tuning tools use the sample and the {@code HELD_OUT}
 * pool); it must stay that way.
 *
 * <p>As in the job, the panel reviews what the pre-pass left: the job's rules are applied first
 * (numbers corrected, terms substituted, the disclaimer appended); an item the rules escalate is not
 * reviewed (it is held by the rules, not by the panel) and is counted apart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PanelFloorTests {

    static final Path JOB = Path.of("jobs/product-descriptions.yml");
    static final Path SAMPLE = Path.of("sample-data/products.csv");
    /**
     * The generator seed of the held-out catalog (any seed: the pool is what no one tuned on): 2027
     * in the build; {@code -Dsanta.heldOutSeed=N} measures another draw of the same pool once (a
     * check that the floor is not fitted to one draw; nothing may be tuned on the figures).
     */
    static final long HELD_OUT_SEED = Long.getLong("santa.heldOutSeed", 2027L);

    private JobDefinition job;
    private RuleEngine rules;
    private ExecutorService embedPool;
    private ExecutorService itemPool;

    @BeforeAll
    void setUp() throws Exception {
        job = JobFileLoader.load(JOB);
        rules = RuleEngine.forJob(job);
        embedPool = Executors.newFixedThreadPool(2);
        itemPool = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    void tearDown() throws InterruptedException {
        for (ExecutorService pool : List.of(itemPool, embedPool)) {
            pool.shutdown(); // every task has finished; no interrupt (a task may have been inside H2)
            assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        }
    }

    @Test
    void heldOutGeneratorCatalog() throws Exception {
        Map<String, SnapshotItem> items = new LinkedHashMap<>();
        Map<String, Case> cases = generatorCatalog(SampleCatalogGenerator.Vocabulary.FRESH, HELD_OUT_SEED, items);
        Scores s = run("held-out (fresh pool, seed " + HELD_OUT_SEED + ")", items, cases);
        assertThat(s.panel().defective()).as("the held-out catalog has reviewer-kind defects").isGreaterThan(100);
        assertThat(s.panel().recall()).as(s.panel().line()).isGreaterThanOrEqualTo(0.90);
        assertThat(s.panel().precision()).as(s.panel().line()).isGreaterThanOrEqualTo(0.80);
        for (Figures f : List.of(s.lexical(), s.semantic())) {
            assertThat(f.defective()).as(f.line()).isGreaterThanOrEqualTo(20);
            assertThat(f.recall()).as(f.line()).isGreaterThanOrEqualTo(0.85);
        }
        // the semantic reviewer's precision was 0.723 here (41 clean items held, 35 of them for a claim
        // sentence the rules pre-pass rewrote) before catalog-anchor-score; 0.813 with it
        for (Figures f : List.of(s.lexical(), s.semantic())) {
            assertThat(f.precision()).as(f.line()).isGreaterThanOrEqualTo(0.80);
        }
    }

    /**
     * A generator catalog of 1,200 rows (into {@code items}) and its scored cases: copies and light
     * edits and named drift are the lexical method's cases, paraphrases and unnamed drift the semantic
     * one's; the rules' defects are fixed by the pre-pass, so an item with only those is clean here.
     */
    static Map<String, Case> generatorCatalog(SampleCatalogGenerator.Vocabulary pool, long seed, Map<String, SnapshotItem> items)
            throws Exception {
        StringWriter csv = new StringWriter();
        StringWriter truthCsv = new StringWriter();
        SampleCatalogGenerator.write(seed, 1200, pool, csv, truthCsv);
        items.putAll(MemorySnapshot.items(MemorySnapshot.records(new StringReader(csv.toString())),
                "id", "description", MemorySnapshot.PRODUCT_SOURCE));
        Map<String, List<String>> labels = new LinkedHashMap<>();
        Map<String, List<Defect>> defects = new LinkedHashMap<>();
        for (CSVRecord t : MemorySnapshot.records(new StringReader(truthCsv.toString()))) {
            String id = t.get("id");
            String kind = t.get("kind");
            Defect d = switch (kind) {
                // copies and light edits are the lexical method's case, paraphrases the semantic one's
                case SampleCatalogGenerator.BOILERPLATE -> new Defect(ORIGINAL, t.get("truth").equals("paraphrase") ? SEMANTIC : LEXICAL);
                // drift naming another product (truth product:<id>) is the lexical method's case, a topic the semantic one's
                case SampleCatalogGenerator.DRIFT_SENTENCE, SampleCatalogGenerator.DRIFT_TEXT ->
                        new Defect(ON_SPEC, t.get("truth").startsWith("product:") ? LEXICAL : SEMANTIC);
                default -> null; // rules defects: fixed by the pre-pass before the panel sees the item
            };
            labels.computeIfAbsent(id, x -> new ArrayList<>()).add(kind + (d == null ? " (pre-pass)"
                    : kind.equals(SampleCatalogGenerator.BOILERPLATE) ? " " + t.get("truth") : d.method().equals(LEXICAL) ? " named" : " unnamed"));
            if (d != null) {
                defects.computeIfAbsent(id, x -> new ArrayList<>()).add(d);
            }
        }
        Map<String, Case> cases = new LinkedHashMap<>();
        for (String id : items.keySet()) {
            cases.put(id, new Case(String.join(" + ", labels.getOrDefault(id, List.of("no planted defect"))), defects.getOrDefault(id, List.of())));
        }
        return cases;
    }

    /**
     * The hand-written fixture set ({@link FixtureSet}: both fixture files, all of their cases),
     * reviewed inside the sample catalog: the offline reviewers compare an item with the rest of
     * the catalog, and a catalog of a hundred items across twenty categories is too thin for them
     * (README). Only the fixture cases are scored.
     */
    @Test
    void handWrittenFixtures() throws Exception {
        Map<String, SnapshotItem> items = new LinkedHashMap<>(MemorySnapshot.items(MemorySnapshot.records(SAMPLE),
                "id", "description", MemorySnapshot.PRODUCT_SOURCE));
        FixtureSet fixtures = FixtureSet.load();
        items.putAll(fixtures.items);
        Map<String, Case> cases = fixtures.cases();
        assertThat(cases).hasSize(124);
        Scores s = run("fixtures (" + cases.size() + " cases, in the sample catalog)", items, cases);
        assertFloors(s);
    }

    /**
     * Hand-written clean texts unlike the generator's templates, in categories where the semantic
     * off-topic test is on ({@link FixtureSet#cleanLargeCategories()}: 52 clean texts, 12 of them
     * with a competitor mention, and 14 unnamed drift texts, in the sample's six categories of about
     * 200 items). A measurement of the known limit (docs/offline-reviewers.md, "The measured limit:
     * hand-written text"), not an acceptance floor: it prints the figures and asserts only the set's
     * shape. Tagged {@value #KNOWN_LIMIT}, which the build excludes; run it with
     * {@code ./mvnw -q test -Dtest=PanelFloorTests -Dsanta.excludedGroups=none}.
     */
    @Test
    @org.junit.jupiter.api.Tag(KNOWN_LIMIT)
    void handWrittenCleanTextsInLargeCategories() throws Exception {
        measureCleanAndDrift("clean texts in large categories", FixtureSet.cleanLargeCategories(), 52, 14);
    }

    /**
     * The blind sets ({@link FixtureSet#BLIND_SETS}), each reviewed inside the sample catalog. Retired as
     * acceptance (issue 18): a sentence about another product of the same shop reads as product copy, and no
     * threshold on these two methods tells it apart; their figures are the known limit in
     * docs/offline-reviewers.md. Tagged {@value #KNOWN_LIMIT}, which the build excludes; run them with
     * {@code ./mvnw -q test -Dtest=PanelFloorTests -Dsanta.excludedGroups=none}.
     */
    @ParameterizedTest(name = "blind set {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7})
    @org.junit.jupiter.api.Tag(KNOWN_LIMIT)
    void blindHandWrittenSets(int n) throws Exception {
        measureCleanAndDrift("blind set " + n, FixtureSet.blind(n), 50, 15);
    }

    /** The JUnit tag of the measurements of the known limit, excluded from the build (pom: santa.excludedGroups). */
    static final String KNOWN_LIMIT = "known-limit";

    /**
     * A clean-and-drift set reviewed inside the sample catalog, only its cases scored and printed (a flag of
     * a clean text is a false positive, a hold). Asserted: the set's shape, and that the rules hold none.
     */
    private void measureCleanAndDrift(String label, FixtureSet set, int clean, int drift) throws Exception {
        Map<String, SnapshotItem> items = new LinkedHashMap<>(MemorySnapshot.items(MemorySnapshot.records(SAMPLE),
                "id", "description", MemorySnapshot.PRODUCT_SOURCE));
        items.putAll(set.items);
        Map<String, Case> cases = set.cases();
        assertThat(cases).hasSize(clean + drift);
        Scores s = run(label + " (" + cases.size() + " cases, in the sample catalog)", items, cases);
        for (Figures f : List.of(s.panel(), s.lexical(), s.semantic())) {
            System.out.println("  confusion " + f.confusion());
        }
        System.out.printf(Locale.ROOT, "KNOWN LIMIT %s: panel recall %.3f precision %.3f; semantic recall %.3f precision %.3f;"
                        + " lexical precision %.3f%n", label, s.panel().recall(), s.panel().precision(), s.semantic().recall(),
                s.semantic().precision(), s.lexical().precision());
        assertThat(s.panel().escalatedByRules()).as("the rules hold none of these texts").isZero();
        assertThat(s.semantic().clean()).isEqualTo(clean);
        assertThat(s.semantic().defective()).isEqualTo(drift);
    }

    /** Issue 4's floors: the panel on all cases; each reviewer on the cases its method is meant for. */
    static void assertFloors(Scores s) {
        assertThat(s.panel().recall()).as(s.panel().line()).isGreaterThanOrEqualTo(0.90);
        assertThat(s.panel().precision()).as(s.panel().line()).isGreaterThanOrEqualTo(0.80);
        for (Figures f : List.of(s.lexical(), s.semantic())) {
            assertThat(f.defective()).as(f.line()).isGreaterThanOrEqualTo(20);
            assertThat(f.recall()).as(f.line()).isGreaterThanOrEqualTo(0.85);
            assertThat(f.precision()).as(f.line()).isGreaterThanOrEqualTo(0.80);
        }
    }

    // ------------------------------------------------------------------------------------------ harness

    static final String ON_SPEC = FixtureSet.ON_SPEC;
    static final String ORIGINAL = FixtureSet.ORIGINAL;
    static final String LEXICAL = FixtureSet.LEXICAL;
    static final String SEMANTIC = FixtureSet.SEMANTIC_METHOD;

    /** What the panel said of one item: the gate's decision and each reviewer's review. */
    record Result(GateResult gate, Map<String, Review> byType) {}

    /**
     * Applies the job's rules to every item (the pre-pass), prepares both reviewer types on the
     * resulting snapshot (one round, in a fresh store) and has the panel review every scored case.
     */
    Scores run(String name, Map<String, SnapshotItem> input, Map<String, Case> cases) throws Exception {
        Map<String, SnapshotItem> prePassed = new LinkedHashMap<>();
        Set<String> escalated = new HashSet<>();
        for (SnapshotItem it : input.values()) {
            RuleOutcome o = rules.apply(it.content(), it.source());
            if (o.mustEscalate()) {
                escalated.add(it.id());
            }
            prePassed.put(it.id(), o.changed() ? new SnapshotItem(it.id(), 1, o.text(), it.source(), it.category()) : it);
        }
        MemorySnapshot snapshot = new MemorySnapshot(1, 1, prePassed);
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:panel-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        Map<String, ReviewerType> types = Map.of(
                LEXICAL, new OfflineReviewerTypes.Lexical(job, ds),
                SEMANTIC, new OfflineReviewerTypes.Semantic(job, ds, embedPool));
        assertThat(job.reviewers()).extracting(ReviewerSpec::type).containsExactly(LEXICAL, SEMANTIC);
        assertThat(job.fixer().type()).isEqualTo("offline");
        Map<String, Result> results = new ConcurrentHashMap<>();
        List<String> altered = new java.util.concurrent.CopyOnWriteArrayList<>();
        // the job's panel: fresh reviewers per review, the panel, the gate, the offline fixer (the rules re-check is not needed here)
        try (Panels panels = new Panels(job, types, (content, source) -> List.of(), IssueSimilarity.exactNormalised(),
                new ExactIssueClassifier(), p -> new OfflineFixer(job, p), ModelCalls.none())) {
            panels.prepare(snapshot);
            List<String> criteria = job.santaCriteria().stream().map(c -> c.id()).toList();
            List<Future<?>> futures = new ArrayList<>();
            for (String id : cases.keySet()) {
                if (escalated.contains(id)) {
                    continue;
                }
                SnapshotItem it = snapshot.get(id).orElseThrow();
                futures.add(itemPool.submit(() -> {
                    ReviewRequest request = new ReviewRequest(job.taskSpec(), id, it.source(), it.content(), job.santaCriteria());
                    List<PanelReview> reviews = panels.panel().review(panels.newPanel(), request);
                    GateResult g = panels.gate().decide(criteria, reviews);
                    assertThat(g.verdict()).as("%s was reviewed by the whole panel: %s", id, reviews).isNotEqualTo(GateVerdict.UNREVIEWED);
                    Map<String, Review> byType = new LinkedHashMap<>();
                    for (int i = 0; i < reviews.size(); i++) {
                        byType.put(job.reviewers().get(i).type(), ((ReviewOutcome.Reviewed) reviews.get(i).outcome()).review());
                    }
                    results.put(id, new Result(g, byType));
                    if (g.verdict() == GateVerdict.NAUGHTY && cases.get(id).clean()) {
                        // a false positive may only hold an item: the offline fixer must leave a clean text as it is
                        FixOutcome fix = panels.fixer().fix(new FixRequest(it.content(), it.source(), g.issueTexts(), job.taskSpec(), id));
                        // (no fix, or a fix that returns the text unchanged: the item is held, not altered)
                        if (fix instanceof FixOutcome.Fixed f && !FixOutcome.unchanged(f.text(), it.content())) {
                            altered.add(id + " " + fix);
                        }
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        }
        assertThat(altered).as("clean items the offline fixer would alter").isEmpty();
        Scores scores = new Scores(
                Figures.score("panel " + name, cases, escalated, id -> failed(results.get(id).gate()), null),
                Figures.score("lexical " + name, cases, escalated, id -> failed(results.get(id).byType().get(LEXICAL)), LEXICAL),
                Figures.score("semantic " + name, cases, escalated, id -> failed(results.get(id).byType().get(SEMANTIC)), SEMANTIC));
        System.out.println(scores.panel().report(id -> results.get(id).gate().issueTexts()));
        System.out.println(scores.lexical().report(id -> results.get(id).byType().get(LEXICAL).criticalIssues()));
        System.out.println(scores.semantic().report(id -> results.get(id).byType().get(SEMANTIC).criticalIssues()));
        return scores;
    }

    /** The panel's and each reviewer's figures on one set. */
    record Scores(Figures panel, Figures lexical, Figures semantic) {}

    /** The panel criteria the gate saw failed (the gate says NAUGHTY exactly when there is one). */
    static Set<String> failed(GateResult g) {
        Set<String> out = new LinkedHashSet<>(g.failedCriteria());
        out.retainAll(Set.of(ON_SPEC, ORIGINAL));
        assertThat(!out.isEmpty()).as("NAUGHTY exactly when a reviewer failed a panel criterion").isEqualTo(g.verdict() == GateVerdict.NAUGHTY);
        return out;
    }

    static Set<String> failed(Review r) {
        Set<String> out = new LinkedHashSet<>();
        r.checks().stream().filter(c -> c.result() == CheckResult.FAIL).forEach(c -> out.add(c.criterion()));
        return out;
    }

    /**
     * Confusion counts over the scored cases (overall and per kind). Recall: over the defective
     * cases (of every reviewer kind for the panel; of its own method's kinds for one reviewer),
     * caught when every criterion their defects break is failed. Precision: over the flagged cases
     * (any panel criterion failed) among the defective cases of the recall and the clean cases; a
     * flag of a clean case is a false positive. For one reviewer the cases whose only defects are
     * the other method's are left out of both (counted in {@code otherMethod}, with
     * {@code otherMethodFlagged} of them flagged): issue 4 scores a reviewer on the cases its method
     * is meant for plus the clean cases.
     */
    record Figures(String name, int defective, int caught, int flagged, int falsePositives, int clean, int escalatedByRules,
            int otherMethod, int otherMethodFlagged, Map<String, int[]> perKind, List<String> missed, List<String> falseHolds) {

        static Figures score(String name, Map<String, Case> cases, Set<String> escalated,
                java.util.function.Function<String, Set<String>> failedOf, String method) {
            int defective = 0;
            int caught = 0;
            int flagged = 0;
            int fp = 0;
            int clean = 0;
            int escalatedByRules = 0;
            int otherMethod = 0;
            int otherMethodFlagged = 0;
            Map<String, int[]> perKind = new TreeMap<>();
            List<String> missed = new ArrayList<>();
            List<String> falseHolds = new ArrayList<>();
            for (Map.Entry<String, Case> e : cases.entrySet()) {
                String id = e.getKey();
                Case c = e.getValue();
                if (escalated.contains(id)) {
                    escalatedByRules++;
                    continue;
                }
                Set<String> failed = failedOf.apply(id);
                boolean flag = !failed.isEmpty();
                Set<String> target = c.criteria(method);
                if (!c.clean() && target.isEmpty()) {
                    // only the other method's defects: neither credited nor charged to this reviewer
                    otherMethod++;
                    otherMethodFlagged += flag ? 1 : 0;
                    continue;
                }
                int[] k = perKind.computeIfAbsent(c.clean() ? "clean: " + c.kind() : c.kind(), x -> new int[2]);
                k[0]++;
                if (flag) {
                    flagged++;
                    k[1]++;
                }
                if (c.clean()) {
                    clean++;
                    if (flag) {
                        fp++;
                        falseHolds.add(id);
                    }
                }
                if (!target.isEmpty()) {
                    defective++;
                    if (failed.containsAll(target)) {
                        caught++;
                    } else {
                        missed.add(id + " (" + c.kind() + ")");
                    }
                }
            }
            return new Figures(name, defective, caught, flagged, fp, clean, escalatedByRules, otherMethod, otherMethodFlagged, perKind, missed,
                    falseHolds);
        }

        double recall() {
            return defective == 0 ? 1 : (double) caught / defective;
        }

        double precision() {
            return flagged == 0 ? 1 : (double) (flagged - falsePositives) / flagged;
        }

        String line() {
            return String.format(Locale.ROOT,
                    "%s: recall %.3f (%d of %d defective caught on their criterion, %d missed), precision %.3f (%d flagged, %d of them clean);"
                            + " clean %d, %d passed; %d escalated by the rules, not reviewed%s",
                    name, recall(), caught, defective, defective - caught, precision(), flagged, falsePositives, clean,
                    clean - falsePositives, escalatedByRules, otherMethod == 0 ? ""
                            : String.format(Locale.ROOT, "; %d cases of the other method left out (%d of them flagged)", otherMethod, otherMethodFlagged));
        }

        /** The confusion counts: defective cases caught (TP) and missed (FN), clean cases flagged (FP) and passed (TN). */
        String confusion() {
            return String.format(Locale.ROOT, "%s: TP %d, FN %d, FP %d, TN %d", name, caught, defective - caught, falsePositives,
                    clean - falsePositives);
        }

        String report(java.util.function.Function<String, List<String>> issues) {
            StringBuilder b = new StringBuilder(line()).append('\n');
            perKind.forEach((k, v) -> b.append(String.format(Locale.ROOT, "  %-40s %4d cases, %4d flagged%n", k, v[0], v[1])));
            missed.forEach(m -> b.append("  missed ").append(m).append('\n'));
            falseHolds.forEach(m -> b.append("  false hold ").append(m).append(' ').append(issues.apply(m)).append('\n'));
            return b.toString();
        }
    }
}
