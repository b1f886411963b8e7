package dev.santabatch.review.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.offline.MemorySnapshot;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The semantic reviewer's "closer to another item's source" check at its default thresholds
 * ({@code other-source-similarity}, {@code other-source-margin}; measured in docs/offline-reviewers.md):
 * a sentence about another item's source facts fails on-specification and names that item; a
 * sentence that compares the item with another product, legitimately, does not. The catalog is the
 * hand-written fixtures' twelve base products (one per category) and the two items under test: every
 * category has far fewer than {@code min-category-peers} items, so the off-topic test is not applied
 * and a failure can only come from the check under test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SemanticOtherSourceTests {

    static final String DRIFT = "X901";
    static final String COMPARISON = "X902";
    /** About F001's source facts (Velora X2, Quintex, cameras), not about its own item. */
    static final String DRIFT_SENTENCE = "The Velora X2 is a mirrorless camera made by Quintex.";
    /** Names the same product to compare with it (the fixtures' competitor-clean case F041). */
    static final String COMPARISON_SENTENCE = "Unlike the Velora X2 from Quintex, it records 4K video without a crop.";

    private ExecutorService pool;
    private SemanticIndex index;
    private SemanticReviewer reviewer;
    private MemorySnapshot catalog;

    @BeforeAll
    void prepare() throws Exception {
        pool = Executors.newFixedThreadPool(2);
        Map<String, SnapshotItem> items = new LinkedHashMap<>();
        MemorySnapshot.items(MemorySnapshot.records(Path.of("src/test/resources/fixtures/offline-cases.csv")), "item_id", "content",
                MemorySnapshot.PRODUCT_SOURCE).forEach((id, it) -> {
                    if (id.compareTo("F012") <= 0) { // the base products F001-F012
                        items.put(id, it);
                    }
                });
        assertThat(items).hasSize(12);
        items.put(DRIFT, item(DRIFT, "Orion Mini", "Halvard", "The Orion Mini from Halvard is a compact camera with a fast 28 mm lens that"
                + " fits in a jacket pocket. Its leaf shutter stays quiet at weddings. " + DRIFT_SENTENCE));
        items.put(COMPARISON, item(COMPARISON, "Falcon Z", "Arkwright", "The Falcon Z by Arkwright is a mirrorless camera built around a"
                + " 33-megapixel sensor. " + COMPARISON_SENTENCE + " The grip is deep enough for long lenses."));
        catalog = new MemorySnapshot(3, 1, items);
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:sm-other-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        index = new SemanticIndex(ds, Embedder::shared, pool, SemanticSettings.defaults());
        index.prepare(catalog);
        reviewer = new SemanticReviewer("C", Set.of("on-specification", "original"), index);
    }

    @AfterAll
    void close() throws InterruptedException {
        pool.shutdown(); // every task has finished; no interrupt (a task may have been inside H2)
        assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
    }

    private static SnapshotItem item(String id, String name, String brand, String content) {
        Map<String, String> source = new LinkedHashMap<>();
        for (String c : MemorySnapshot.PRODUCT_SOURCE) {
            source.put(c, "");
        }
        source.put("name", name);
        source.put("brand", brand);
        source.put("category", "cameras");
        return new SnapshotItem(id, 0, content, source, "cameras");
    }

    private void printCosines(String id, String sentence) {
        SnapshotItem it = catalog.get(id).orElseThrow();
        float[] v = index.embedder().embed(sentence);
        System.out.printf(Locale.ROOT, "%s: cosine to its own source %.3f, to F001's source %.3f: %s%n", id,
                Vectors.dot(v, index.sourceVector(id).orElseThrow()), Vectors.dot(v, index.sourceVector("F001").orElseThrow()), it.id());
    }

    @Test
    void aSentenceAboutAnotherItemsSourceFactsFailsAndNamesThatItem() {
        printCosines(DRIFT, DRIFT_SENTENCE);
        SnapshotItem it = catalog.get(DRIFT).orElseThrow();
        SemanticReviewer.Analysis a = reviewer.analyse(Scoring.request(it));
        assertThat(a.categoryPeers()).as("the off-topic test is not applied here").isLessThan(index.settings().minCategoryPeers());
        assertThat(a.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(SemanticReviewer.Reason.OTHER_ITEM);
            assertThat(f.otherItem()).isEqualTo("F001");
            assertThat(f.number()).isEqualTo(3);
            assertThat(f.text()).isEqualTo(DRIFT_SENTENCE);
            assertThat(f.otherSimilarity()).isGreaterThanOrEqualTo(Math.max(index.settings().otherSourceSimilarity(),
                    f.similarity() + index.settings().otherSourceMargin()));
        });
        Review r = ((ReviewOutcome.Reviewed) reviewer.review(Scoring.request(it))).review();
        assertThat(r.check("on-specification").orElseThrow().result()).isEqualTo(CheckResult.FAIL);
        assertThat(r.criticalIssues()).singleElement().asString()
                .startsWith("on-specification: sentence 3 is about F001 (similarity ")
                .endsWith(": \"" + DRIFT_SENTENCE + "\"");
    }

    @Test
    void aLegitimateComparisonWithAnotherProductDoesNot() {
        printCosines(COMPARISON, COMPARISON_SENTENCE);
        SnapshotItem it = catalog.get(COMPARISON).orElseThrow();
        // it names F001's product, but is about its own: below other-source-similarity (measured: 0.64), where
        // the named-drift sentence scores 0.83
        assertThat(Vectors.dot(index.embedder().embed(COMPARISON_SENTENCE), index.sourceVector("F001").orElseThrow()))
                .isLessThan(index.settings().otherSourceSimilarity());
        SemanticReviewer.Analysis a = reviewer.analyse(Scoring.request(it));
        assertThat(a.findings()).isEmpty();
        Review r = ((ReviewOutcome.Reviewed) reviewer.review(Scoring.request(it))).review();
        assertThat(r.check("on-specification").orElseThrow().result()).isEqualTo(CheckResult.PASS);
    }

    /** The base products themselves, each about its own source, are not about another item. */
    @Test
    void noBaseProductIsAboutAnother() {
        for (SnapshotItem it : catalog.items()) {
            if (it.id().startsWith("F")) {
                assertThat(reviewer.analyse(Scoring.request(it)).findings()).as(it.id()).isEmpty();
            }
        }
    }
}
