package dev.santabatch.review.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.offline.MemorySnapshot;
import dev.santabatch.review.offline.SnapshotItem;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The semantic reviewer on hand-written text (not the generator's): the sample catalog with the
 * hand-written fixtures ({@code offline-cases.csv}) and the second blind set (a development set
 * since session 6) added, prepared once. Each test checks one rule that exists for text written
 * unlike the catalog, and that the rule, not something else, decides.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HandWrittenTextTests {

    private ExecutorService pool;
    private JdbcDataSource ds;
    private MemorySnapshot catalog;
    private final Map<String, SnapshotItem> items = new LinkedHashMap<>();
    private SemanticIndex index;

    @BeforeAll
    void prepare() throws Exception {
        pool = Executors.newFixedThreadPool(2);
        ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:hw-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        items.putAll(MemorySnapshot.items(MemorySnapshot.records(Path.of("sample-data/products.csv")),
                "id", "description", MemorySnapshot.PRODUCT_SOURCE));
        items.putAll(MemorySnapshot.items(MemorySnapshot.records(Path.of("src/test/resources/fixtures/offline-cases.csv")),
                "item_id", "content", MemorySnapshot.PRODUCT_SOURCE));
        items.putAll(MemorySnapshot.items(MemorySnapshot.records(Path.of("src/test/resources/fixtures/blind2-clean-drift.csv")),
                "id", "description", MemorySnapshot.PRODUCT_SOURCE));
        catalog = new MemorySnapshot(1, 1, items);
        index = new SemanticIndex(ds, Embedder::shared, pool, SemanticSettings.defaults());
        index.prepare(catalog);
    }

    @AfterAll
    void close() {
        pool.shutdown();
    }

    private SemanticReviewer.Analysis analyse(SemanticIndex with, String id) {
        SnapshotItem it = items.get(id);
        return new SemanticReviewer("C", Set.of("on-specification", "original"), with).analyse(Scoring.request(it));
    }

    private static List<String> duplicates(SemanticReviewer.Analysis a) {
        return a.duplicates().stream().map(SemanticReviewer.Duplicate::otherItem).toList();
    }

    /**
     * Two hand-written texts about two fitness products of different brands (blind set 2, C013 and
     * C017) have passages at least {@code passage-cosine} alike, but no more alike than the two
     * products' source facts: they are not a shared passage. With {@code passage-source-margin} off
     * (-2) the same pair is one, so the margin is what keeps them apart.
     */
    @Test
    void textsAboutSimilarProductsAreNotASharedPassage() {
        assertThat(duplicates(analyse(index, "C013"))).doesNotContain("C017");
        SemanticIndex off = new SemanticIndex(ds, Embedder::shared, pool, SemanticSettings.from(Map.of("passage-source-margin", -2.0)));
        off.prepare(catalog); // the round's vectors are reused
        assertThat(duplicates(analyse(off, "C013"))).contains("C017");
    }

    /**
     * Two variants of one product line (the fixture pair F099/F100, "Plant Pot Large" and "Plant Pot
     * Small" by one brand) whose texts are one paraphrased brand passage: their source facts are
     * more alike than their passages, yet the pair is a shared passage, because the items are at
     * least {@code product-line-similarity} alike. With that threshold at 1 it is not.
     */
    @Test
    void variantsOfOneProductLineSharingAPassageAreNearDuplicates() {
        assertThat(duplicates(analyse(index, "F099"))).contains("F100");
        SemanticIndex noLines = new SemanticIndex(ds, Embedder::shared, pool, SemanticSettings.from(Map.of("product-line-similarity", 1.0)));
        noLines.prepare(catalog);
        assertThat(duplicates(analyse(noLines, "F099"))).doesNotContain("F100");
    }

    /**
     * A trivia sentence inserted into a hand-written headphones text (blind set 2, C033: "Chess was
     * once banned in parts of medieval Europe ...") is off-topic because it is unlike the rest of its
     * text as well as unlike the catalog. On its own its typicality minus anchor margin is above
     * {@code anchor-score} (the rule for a text of one sentence would keep it); the text's other
     * sentences are not judged off-topic.
     */
    @Test
    void aTriviaSentenceUnlikeTheRestOfItsTextIsOffTopic() {
        String anecdote = "Chess was once banned in parts of medieval Europe because clergy thought it encouraged gambling.";
        SemanticReviewer.Analysis a = analyse(index, "C033");
        assertThat(a.wholeText()).isFalse();
        // the sentence splitter keeps the text's closing price line with its last sentence
        List<String> off = a.findings().stream().filter(f -> f.reason() == SemanticReviewer.Reason.OFF_TOPIC)
                .map(SemanticReviewer.SentenceFinding::text).toList();
        assertThat(off).singleElement().asString().startsWith(anecdote);

        SnapshotItem it = items.get("C033");
        float[] v = index.embedder().embed(off.get(0));
        float[] source = index.sourceVector("C033").orElseThrow();
        double typical = Math.max(SemanticIndex.typicality(v, source, index.textVector(Scoring.TASK), index.reference(it.category()), "C033"),
                Vectors.dot(v, index.textVector(Scoring.TASK)));
        double anchored = typical - TopicAnchors.of(index.embedder()).margin(v);
        assertThat(anchored).as("alone, the anecdote passes the one-sentence rule").isGreaterThanOrEqualTo(SemanticSettings.defaults().anchorScore());
    }

    @Test
    void coherenceIsTheCosineToTheRestOfTheSet() {
        float[] a = {1, 0, 0};
        float[] b = {0, 1, 0};
        float[] c = {0, 1, 0};
        float[] sum = Vectors.sum(List.of(a, b, c), 3);
        assertThat(Vectors.coherence(a, sum)).isEqualTo(0.0);
        assertThat(Vectors.coherence(b, sum)).isEqualTo(1 / Math.sqrt(2), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(Vectors.coherence(a, a)).as("nothing else left").isEqualTo(0.0);
    }
}
