package dev.santabatch.review.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.review.Review;
import dev.santabatch.text.Shingles;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The semantic reviewer on the bundled sample catalog with the hand-written fixtures
 * (src/test/resources/fixtures/semantic-cases.csv) added to it: embedded once for the class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SemanticReviewerTests {

    record Fixture(String id, String kind, String group, String passage) {}

    private ExecutorService pool;
    private JdbcDataSource ds;
    private TestCatalog sample;
    private TestCatalog catalog;
    private Map<String, Fixture> fixtures;
    private SemanticIndex index;
    private SemanticReviewer reviewer;
    private Map<String, Review> reviews;

    @BeforeAll
    void prepare() throws Exception {
        pool = Executors.newFixedThreadPool(2);
        ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:sm-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        sample = TestCatalog.sample(7);
        Path csv = Path.of("src/test/resources/fixtures/semantic-cases.csv");
        TestCatalog fx;
        try (Reader r = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            fx = TestCatalog.read(7, r, null);
        }
        fixtures = new LinkedHashMap<>();
        try (Reader r = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            for (CSVRecord rec : CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(r)) {
                fixtures.put(rec.get("id"), new Fixture(rec.get("id"), rec.get("kind"), rec.get("group"), rec.get("passage")));
            }
        }
        Map<String, SnapshotItem> all = new LinkedHashMap<>();
        sample.items().forEach(i -> all.put(i.id(), i));
        fx.items().forEach(i -> all.put(i.id(), i));
        catalog = new TestCatalog(7, 1, all, sample.truth);

        index = new SemanticIndex(ds, Embedder::shared, pool, SemanticSettings.defaults());
        long t0 = System.nanoTime();
        index.prepare(catalog);
        long t1 = System.nanoTime();
        reviewer = new SemanticReviewer("C", Set.of("on-specification", "original"), index);
        reviews = Scoring.reviewAll(reviewer, catalog.items(), pool);
        long t2 = System.nanoTime();
        System.out.printf("semantic: prepared %d items in %d ms, reviewed them in %d ms%n", catalog.size(), (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000);
    }

    @AfterAll
    void close() throws InterruptedException {
        pool.shutdown(); // every task has finished; no interrupt (a task may have been inside H2)
        assertThat(pool.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
    }

    @Test
    void sampleCatalogFloors() {
        List<String> ids = new ArrayList<>(sample.ids());
        Scoring.Figures para = Scoring.figures("sample: paraphrase boilerplate", reviews, ids, sample::paraphrase, id -> "original", sample::clean);
        Scoring.Figures drift = Scoring.figures("sample: unnamed drift", reviews, ids, sample::topicDrift, id -> "on-specification", sample::clean);
        Scoring.Figures both = Scoring.figures("sample: semantic cases (both)", reviews, ids,
                id -> sample.paraphrase(id) || sample.topicDrift(id),
                id -> sample.topicDrift(id) ? "on-specification" : "original", sample::clean);
        Scoring.Figures allBp = Scoring.figures("sample: all boilerplate (info)", reviews, ids, sample::boilerplate, id -> "original", sample::clean);
        Scoring.Figures named = Scoring.figures("sample: named drift (info)", reviews, ids,
                id -> sample.anyDrift(id) && !sample.topicDrift(id), id -> "on-specification", sample::clean);
        long offCriteria = ids.stream().filter(sample::offCriteriaOnly).count();
        long offFlagged = ids.stream().filter(sample::offCriteriaOnly).filter(id -> Scoring.failedAny(reviews.get(id))).count();
        for (Scoring.Figures f : List.of(para, drift, both, allBp, named)) {
            System.out.println(f);
        }
        ids.stream().filter(sample::clean).filter(id -> Scoring.failedAny(reviews.get(id)))
                .forEach(id -> System.out.println("  clean flagged " + id + " " + reviews.get(id).criticalIssues()));
        System.out.printf("sample: items with only other defects (numbers, terms, disclaimer): %d, flagged %d%n", offCriteria, offFlagged);
        assertThat(para.recall()).isGreaterThanOrEqualTo(0.85);
        assertThat(drift.recall()).isGreaterThanOrEqualTo(0.85);
        assertThat(both.precision()).isGreaterThanOrEqualTo(0.80);
        assertThat(both.recall()).isGreaterThanOrEqualTo(0.85);
    }

    @Test
    void fixtureFloors() {
        // objective difficulty: paraphrase pairs share at most 0.2 of their word 3-shingles
        Map<String, List<Fixture>> groups = new LinkedHashMap<>();
        fixtures.values().stream().filter(f -> f.kind().equals("paraphrase")).forEach(f -> groups.computeIfAbsent(f.group(), g -> new ArrayList<>()).add(f));
        assertThat(groups).hasSizeGreaterThanOrEqualTo(10);
        for (List<Fixture> g : groups.values()) {
            assertThat(g).hasSize(2);
            double j = Shingles.jaccard(Shingles.of(g.get(0).passage()), Shingles.of(g.get(1).passage()));
            assertThat(j).as("3-shingle Jaccard of pair %s", g.get(0).group()).isLessThanOrEqualTo(0.2);
            assertThat(catalog.get(g.get(0).id()).orElseThrow().content()).contains(g.get(0).passage());
        }
        // drift sentences share no token with any other item's name or brand
        List<Fixture> drifts = fixtures.values().stream().filter(f -> f.kind().equals("drift")).toList();
        assertThat(drifts).hasSizeGreaterThanOrEqualTo(10);
        for (Fixture d : drifts) {
            Set<String> tokens = new HashSet<>(Shingles.words(d.passage()));
            catalog.forEach(it -> {
                if (!it.id().equals(d.id())) {
                    Set<String> nameBrand = new HashSet<>(Shingles.words(it.source().get("name") + " " + it.source().get("brand")));
                    nameBrand.retainAll(tokens);
                    assertThat(nameBrand).as("drift %s shares tokens with %s", d.id(), it.id()).isEmpty();
                }
            });
            assertThat(catalog.get(d.id()).orElseThrow().content()).contains(d.passage());
        }
        assertThat(fixtures.values().stream().filter(f -> f.kind().equals("clean")).count()).isGreaterThanOrEqualTo(10);

        List<String> ids = new ArrayList<>(fixtures.keySet());
        Scoring.Figures f = Scoring.figures("fixtures: paraphrases + unnamed drift", reviews, ids,
                id -> !fixtures.get(id).kind().equals("clean"),
                id -> fixtures.get(id).kind().equals("drift") ? "on-specification" : "original",
                id -> fixtures.get(id).kind().equals("clean"));
        System.out.println(f);
        for (String id : ids) {
            Review r = reviews.get(id);
            System.out.printf("  %s %-10s %s %s%n", id, fixtures.get(id).kind(), r.verdict(), r.criticalIssues());
        }
        assertThat(f.recall()).isGreaterThanOrEqualTo(0.85);
        assertThat(f.precision()).isGreaterThanOrEqualTo(0.80);
    }

    @Test
    void issuesQuoteTheDriftedSentenceAndNameTheOtherItems() {
        int drifted = 0;
        int quoted = 0;
        for (String id : sample.ids()) {
            for (TestCatalog.Truth t : sample.truth.getOrDefault(id, List.of())) {
                if (t.kind().equals("drift-sentence") && t.truth().startsWith("topic:") && Scoring.failed(reviews.get(id), "on-specification")) {
                    drifted++;
                    if (reviews.get(id).criticalIssues().stream().anyMatch(i -> i.startsWith("on-specification: sentence ") && i.contains("\"" + t.wrong() + "\""))) {
                        quoted++;
                    }
                }
            }
            for (String issue : reviews.get(id).criticalIssues()) {
                if (issue.startsWith("original: ")) {
                    assertThat(issue).matches("original: near-duplicate of [PF]\\d+ .*");
                    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\b([PF]\\d{3,})\\b").matcher(issue);
                    while (m.find()) {
                        assertThat(catalog.get(m.group(1))).isPresent();
                        assertThat(m.group(1)).isNotEqualTo(id);
                    }
                }
            }
        }
        System.out.printf("sample: caught drifted sentences quoted exactly: %d of %d%n", quoted, drifted);
        assertThat(quoted).isGreaterThanOrEqualTo((int) Math.ceil(0.9 * drifted));
    }

    /**
     * In an item written like the catalog, a sentence rare in its category is off-topic only when it
     * also fails the topic anchors at {@code catalog-anchor-score}: a claim sentence as the rules
     * pre-pass leaves it ("cured" substituted by "relieved") is below {@code topic-similarity} yet
     * reads like product copy and passes; a sentence about the town council, added to the same
     * text, fails. Without the anchors in such items (typicality alone deciding, as before) the claim
     * sentence failed.
     */
    @Test
    void inAnItemWrittenLikeTheCatalogARareSentenceThatReadsLikeProductCopyIsNotOffTopic() {
        SemanticSettings s = index.settings();
        String claim = "Buyers say it relieved their joint pain.";
        String drift = "The town council will vote on the new parking rules next Tuesday.";
        // a clean supplements item of the sample whose own sentences are all typical
        SnapshotItem base = sample.items().stream()
                .filter(i -> sample.clean(i.id()) && i.category().equals("supplements"))
                .filter(i -> reviewer.analyse(Scoring.request(i)).lowestSimilarity() >= s.topicSimilarity())
                .findFirst().orElseThrow();
        SnapshotItem withClaim = new SnapshotItem(base.id(), 1, base.content() + " " + claim, base.source(), base.category());
        SnapshotItem withDrift = new SnapshotItem(base.id(), 1, base.content() + " " + drift, base.source(), base.category());
        for (SnapshotItem it : List.of(withClaim, withDrift)) {
            // both texts are written like the catalog: the rule under test applies
            double density = 0;
            List<String> sentences = SemanticIndex.sentencesOf(it.content());
            for (String sentence : sentences) {
                density += index.reference(it.category()).density(index.embedder().embed(sentence), it.id());
            }
            assertThat(density / sentences.size()).as("mean density of %s", it.content()).isGreaterThanOrEqualTo(s.styleDensity());
        }

        SemanticReviewer.Analysis a = reviewer.analyse(Scoring.request(withClaim));
        // the claim sentence is rare in its category: its typicality alone would call it off-topic
        assertThat(a.lowestSimilarity()).as("typicality of \"%s\"", claim).isLessThan(s.topicSimilarity());
        assertThat(a.findings()).as("findings in %s", withClaim.content()).isEmpty();

        SemanticReviewer.Analysis d = reviewer.analyse(Scoring.request(withDrift));
        assertThat(d.findings()).extracting(SemanticReviewer.SentenceFinding::text, SemanticReviewer.SentenceFinding::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(drift, SemanticReviewer.Reason.OFF_TOPIC));
    }

    /**
     * In a category with fewer other items than {@code min-category-peers} a sentence's density is
     * no evidence (docs/offline-reviewers.md): the topic anchors alone judge, with the low bar of an
     * item in another style, against the sentence's cosine to its own source and the task. A clean
     * item passes and the review says how it was judged; a blatant news sentence added to it is
     * off-topic, and only that one. The same index's vectors, judged with a minimum above every
     * category's size, stand for a catalog whose categories are all that small.
     */
    @Test
    void inASmallCategoryTheTopicAnchorsAloneJudgeOffTopic() {
        SemanticSettings d = SemanticSettings.defaults();
        SemanticSettings unreachable = new SemanticSettings(d.topicSimilarity(), d.wholeTextShare(), d.otherSourceSimilarity(),
                d.otherSourceMargin(), d.copyCosine(), d.atypicalSimilarity(), d.paraphraseMinSentences(), d.passageCosine(), 100_000,
                d.styleDensity(), d.anchorScore(), d.wholeTextSource(), d.catalogAnchorScore(), d.smallCategoryMargin(), d.minSentenceWords(), d.coherentAnchorScore(), d.productLineSimilarity(), d.passageSourceMargin());
        SemanticIndex thin = new SemanticIndex(ds, Embedder::shared, pool, unreachable); // the round's vectors are reused
        thin.prepare(catalog);
        SemanticReviewer small = new SemanticReviewer("C", Set.of("on-specification", "original"), thin);
        SnapshotItem clean = sample.ids().stream().filter(i -> sample.truth.getOrDefault(i, List.of()).isEmpty())
                .filter(i -> !Scoring.failed(reviews.get(i), "on-specification") && !Scoring.failed(reviews.get(i), "original"))
                .map(i -> catalog.get(i).orElseThrow())
                .filter(it -> small.analyse(Scoring.request(it)).findings().isEmpty())
                .findFirst().orElseThrow();
        long categorySize = catalog.items().stream().filter(x -> x.category().equals(clean.category())).count();
        SemanticReviewer.Analysis a = small.analyse(Scoring.request(clean));
        assertThat(a.categoryPeers()).isEqualTo((int) categorySize - 1);
        assertThat(a.wholeText()).isFalse();
        Review r = ((dev.santabatch.review.ReviewOutcome.Reviewed) small.review(Scoring.request(clean))).review();
        assertThat(r.check("on-specification").orElseThrow().detail())
                .contains("none off-topic by the topic anchors alone: the category has " + (categorySize - 1)
                        + " other items (min-category-peers 100000)");

        String news = "Parliament will vote on the budget next Tuesday after a long debate.";
        SnapshotItem drifted = new SnapshotItem(clean.id(), clean.rev() + 1, clean.content() + " " + news, clean.source(), clean.category());
        assertThat(small.analyse(Scoring.request(drifted)).findings()).filteredOn(f -> f.reason() == SemanticReviewer.Reason.OFF_TOPIC)
                .extracting(SemanticReviewer.SentenceFinding::text).containsExactly(news);
    }

    /**
     * A sentence of fewer than {@code min-sentence-words} words is never judged off-topic by itself:
     * a clean item that passes, with short FAQ-style sentences added, still passes; judged from one
     * word on (the same vectors, {@code min-sentence-words} 1), the added sentences are off-topic, so
     * it is the minimum that keeps them.
     */
    @Test
    void aVeryShortSentenceIsNotJudgedOffTopicOnItsOwn() {
        SnapshotItem clean = sample.ids().stream().filter(i -> sample.truth.getOrDefault(i, List.of()).isEmpty())
                .filter(i -> !Scoring.failed(reviews.get(i), "on-specification"))
                .map(i -> catalog.get(i).orElseThrow())
                .filter(it -> SemanticReviewer.peers(index.reference(it.category()), it.id(), index.settings().minCategoryPeers())
                        >= index.settings().minCategoryPeers())
                .findFirst().orElseThrow();
        String content = clean.content() + " Can it go in the dishwasher? Yes. Chew, smile, carry on.";
        SnapshotItem faq = new SnapshotItem(clean.id(), clean.rev() + 1, content, clean.source(), clean.category());
        SemanticReviewer.Analysis a = reviewer.analyse(Scoring.request(faq));
        assertThat(a.findings()).noneMatch(f -> f.reason() == SemanticReviewer.Reason.OFF_TOPIC);
        assertThat(a.wholeText()).isFalse();
        // beside a long off-topic sentence (the test is open), only that one is judged off-topic
        String drift = "The council approved a new bus route through the old market district.";
        SnapshotItem drifted = new SnapshotItem(clean.id(), clean.rev() + 1, clean.content() + " " + drift + " Yes. Chew, smile, carry on.",
                clean.source(), clean.category());
        assertThat(reviewer.analyse(Scoring.request(drifted)).findings()).filteredOn(f -> f.reason() == SemanticReviewer.Reason.OFF_TOPIC)
                .extracting(SemanticReviewer.SentenceFinding::text).containsExactly(drift);

        SemanticSettings d = SemanticSettings.defaults();
        assertThat(d.minSentenceWords()).isEqualTo(6);
        SemanticSettings everyWord = SemanticSettings.from(Map.of("min-sentence-words", 1.0));
        SemanticIndex judgedAll = new SemanticIndex(ds, Embedder::shared, pool, everyWord); // the round's vectors are reused
        judgedAll.prepare(catalog);
        SemanticReviewer.Analysis b = new SemanticReviewer("C", Set.of("on-specification", "original"), judgedAll).analyse(Scoring.request(faq));
        assertThat(b.findings()).filteredOn(f -> f.reason() == SemanticReviewer.Reason.OFF_TOPIC)
                .extracting(SemanticReviewer.SentenceFinding::text).isNotEmpty()
                .allMatch(t -> SemanticReviewer.words(t) < 6, "only the added short sentences");
    }

    /**
     * The same in an item written like the catalog (its sentences' mean density at least
     * {@code style-density}, asserted, so the catalog-style branch decides): a short sentence added
     * to a long clean sample text is not judged off-topic at the default, and is with
     * {@code min-sentence-words} 1 (so the setting, not the sentence, is what keeps it).
     */
    @Test
    void aVeryShortSentenceIsNotJudgedOffTopicInACatalogStyleItemEither() {
        String shortOne = "Chew, smile, carry on.";
        SemanticIndex judgedAll = new SemanticIndex(ds, Embedder::shared, pool, SemanticSettings.from(Map.of("min-sentence-words", 1.0)));
        judgedAll.prepare(catalog); // the round's vectors are reused
        SemanticReviewer all = new SemanticReviewer("C", Set.of("on-specification", "original"), judgedAll);
        List<String> tried = new ArrayList<>();
        for (String id : sample.ids()) {
            if (!sample.truth.getOrDefault(id, List.of()).isEmpty() || Scoring.failed(reviews.get(id), "on-specification")) {
                continue;
            }
            SnapshotItem clean = catalog.get(id).orElseThrow();
            SemanticIndex.Reference ref = index.reference(clean.category());
            if (SemanticReviewer.peers(ref, id, index.settings().minCategoryPeers()) < index.settings().minCategoryPeers()) {
                continue;
            }
            SnapshotItem added = new SnapshotItem(id, clean.rev() + 1, clean.content() + " " + shortOne, clean.source(), clean.category());
            List<float[]> vectors = index.embedder().embedAll(SemanticIndex.sentencesOf(added.content()), pool);
            double style = vectors.stream().mapToDouble(v -> ref.density(v, id)).average().orElse(0);
            if (style < index.settings().styleDensity()) {
                continue;
            }
            tried.add(id);
            boolean flaggedWhenJudged = all.analyse(Scoring.request(added)).findings().stream()
                    .anyMatch(f -> f.reason() == SemanticReviewer.Reason.OFF_TOPIC && f.text().startsWith(shortOne));
            if (!flaggedWhenJudged) {
                continue;
            }
            // an item where judging the short sentence would flag it: at the default it is not judged
            assertThat(reviewer.analyse(Scoring.request(added)).findings()).noneMatch(f -> f.reason() == SemanticReviewer.Reason.OFF_TOPIC);
            return;
        }
        throw new AssertionError("no catalog-style clean sample item where the added short sentence is judged off-topic; tried " + tried.size());
    }

    @Test
    void sentenceWordsAreRunsOfLettersOrDigits() {
        assertThat(SemanticReviewer.words("Yes.")).isEqualTo(1);
        assertThat(SemanticReviewer.words("Don't — it's fine.")).isEqualTo(3);
        assertThat(SemanticReviewer.words("USB-C, $39.50.")).isEqualTo(4);
        assertThat(SemanticReviewer.words("  ")).isZero();
    }

    @Test
    void sentenceSpansLocateTheQuotedSentences() {
        String id = sample.ids().stream()
                .filter(i -> sample.truth.getOrDefault(i, List.of()).stream().anyMatch(t -> t.kind().equals("drift-sentence") && t.truth().startsWith("topic:")))
                .filter(i -> Scoring.failed(reviews.get(i), "on-specification"))
                .findFirst().orElseThrow();
        SnapshotItem it = catalog.get(id).orElseThrow();
        List<SemanticReviewer.SentenceFinding> found = reviewer.offSpecificationSentences(Scoring.request(it));
        assertThat(found).isNotEmpty();
        for (SemanticReviewer.SentenceFinding f : found) {
            assertThat(f.span().of(it.content())).isEqualTo(f.text());
        }
    }

    @Test
    void nearNeighbourSearchRecallAgainstExactSearch() {
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        record V(String item, int seq, float[] v) {}
        Map<String, Double> thresholds = Map.of(
                SemanticIndex.CONTENT, index.settings().copyCosine() - 0.07,
                SemanticIndex.PASSAGE, index.settings().passageCosine(),
                SemanticIndex.SOURCE, index.settings().otherSourceSimilarity());
        for (Map.Entry<String, Double> e : new java.util.TreeMap<>(thresholds).entrySet()) {
            String kind = e.getKey();
            double t = e.getValue();
            String join = kind.equals(SemanticIndex.PASSAGE)
                    ? "sm_rev_passage v ON v.run_pk = b.run_pk AND v.item_id = b.item_id AND v.rev = b.rev"
                    : "sm_vector v ON v.run_pk = b.run_pk AND v.item_id = b.item_id AND v.rev = b.rev AND v.kind = b.kind AND v.seq = b.seq";
            List<V> vs = jdbc.query("SELECT DISTINCT b.item_id, b.seq, v.vec FROM sm_rev_band b JOIN sm_member m ON m.run_pk = b.run_pk"
                            + " AND m.round = 1 AND m.item_id = b.item_id AND (m.rev = b.rev OR b.rev = -1) JOIN " + join
                            + " WHERE b.run_pk = 7 AND b.kind = ?",
                    (rs, n) -> new V(rs.getString(1), rs.getInt(2), Vectors.decode(rs.getString(3))), kind);
            Set<String> exact = new HashSet<>();
            for (int i = 0; i < vs.size(); i++) {
                for (int j = 0; j < vs.size(); j++) {
                    if (!vs.get(i).item().equals(vs.get(j).item()) && Vectors.dot(vs.get(i).v(), vs.get(j).v()) >= t) {
                        exact.add(vs.get(i).item() + "#" + vs.get(i).seq() + ">" + vs.get(j).item() + "#" + vs.get(j).seq());
                    }
                }
            }
            Set<String> found = new HashSet<>();
            long candidates = 0;
            for (V v : vs) {
                long before = index.queryStats()[1];
                for (SemanticIndex.Neighbour n : index.near(kind, v.v(), t, v.item())) {
                    found.add(v.item() + "#" + v.seq() + ">" + n.itemId() + "#" + n.seq());
                }
                candidates += index.queryStats()[1] - before;
            }
            int hit = 0;
            for (String p : exact) {
                if (found.contains(p)) {
                    hit++;
                }
            }
            double recall = exact.isEmpty() ? 1 : (double) hit / exact.size();
            System.out.printf("LSH %-8s cos>=%.2f: %d vectors, exact pairs %d, found %d, recall %.3f, candidates verified %d (%.1f per query; exact search: %d)%n",
                    kind, t, vs.size(), exact.size(), hit, recall, candidates, (double) candidates / Math.max(1, vs.size()), (long) vs.size() * (vs.size() - 1));
            assertThat(found).isSubsetOf(exact);
            if (!kind.equals(SemanticIndex.SOURCE)) { // near-duplicate search; the source lookup is reported, not held to it
                assertThat(recall).as("LSH recall for %s", kind).isGreaterThanOrEqualTo(0.95);
            }
        }
    }

    /**
     * The typicality stored at prepare (so a review does not scan the category's reference sentences
     * again) is, for every item, exactly what the review would compute from the vectors, the source and
     * the reference; and it is stored for every item of the round.
     */
    @Test
    void storedTypicalityIsWhatTheReviewComputes() {
        int sentences = 0;
        for (SnapshotItem it : catalog.items()) {
            SemanticIndex.Stored st = index.stored(it.id()).orElseThrow();
            assertThat(st.typical()).as("typicality stored for %s", it.id()).isNotNull().hasSize(st.sentences().size());
            float[] source = index.sourceVector(it.id()).orElseThrow();
            SemanticIndex.Reference reference = index.reference(st.category());
            for (int i = 0; i < st.sentences().size(); i++) {
                assertThat(st.typical()[i]).as("%s sentence %d", it.id(), i + 1)
                        .isEqualTo(SemanticIndex.typicality(st.sentences().get(i), source, null, reference, it.id()));
                sentences++;
            }
        }
        assertThat((long) sentences).isGreaterThan(catalog.size());
    }

    @Test
    void theRoundsSourceVectorsReadInPagesGiveTheSameAnalysisAsOneQueryPerItem() {
        // given the round's source vectors read in pages, with a stop check before each page
        int[] pages = {0};
        Map<String, float[]> sources = index.sourceVectors(() -> pages[0]++);
        assertThat(sources.keySet()).isEqualTo(catalog.ids());
        assertThat(pages[0]).as("one page, and the empty one after it")
                .isEqualTo((int) (catalog.size() / SemanticIndex.SOURCE_PAGE) + 2);
        catalog.forEach(it -> assertThat(sources.get(it.id())).isEqualTo(index.sourceVector(it.id()).orElseThrow()));

        // when every item is analysed with them, then the analysis is the one of a query per source vector,
        // neighbours' included (items sharing a passage look up the other item's source)
        Map<String, Integer> lookups = new HashMap<>();
        int sharing = 0;
        for (SnapshotItem it : catalog.items()) {
            lookups.clear();
            SemanticReviewer.Analysis paged = reviewer.analyse(Scoring.request(it), id -> {
                lookups.merge(id, 1, Integer::sum);
                return java.util.Optional.ofNullable(sources.get(id));
            });
            assertThat(paged).as(it.id()).isEqualTo(reviewer.analyse(Scoring.request(it)));
            assertThat(lookups).containsKey(it.id());
            if (lookups.size() > 1) {
                sharing++;
            }
        }
        assertThat(sharing).as("items that looked up a neighbour's source").isGreaterThan(10);
    }

    @Test
    void modelLoadsOnceAndPrepareIsRestartSafe() {
        assertThat(Embedder.loadCount()).isEqualTo(1);
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        long items = jdbc.queryForObject("SELECT COUNT(*) FROM sm_item WHERE run_pk = 7", Long.class);
        long bands = jdbc.queryForObject("SELECT COUNT(*) FROM sm_rev_band WHERE run_pk = 7", Long.class);
        assertThat(items).isEqualTo(catalog.size());
        // a restart after a crash mid-round: the round is rebuilt from stored vectors, nothing is embedded again
        jdbc.update("DELETE FROM sm_round WHERE run_pk = 7 AND round = 1");
        SemanticIndex again = new SemanticIndex(ds, () -> {
            throw new AssertionError("nothing may be embedded again");
        }, pool, SemanticSettings.defaults());
        again.prepare(catalog);
        again.prepare(catalog); // idempotent
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sm_item WHERE run_pk = 7", Long.class)).isEqualTo(items);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sm_rev_band WHERE run_pk = 7", Long.class)).isEqualTo(bands);
        assertThat(Embedder.loadCount()).isEqualTo(1);
    }
}
