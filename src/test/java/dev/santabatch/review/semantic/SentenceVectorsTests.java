package dev.santabatch.review.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.offline.MemorySnapshot;
import dev.santabatch.review.offline.SnapshotItem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sentence vectors are stored per revision and survive a restart: a new store over the same
 * database (a restarted execution) embeds no stored revision again, only new revisions; the semantic
 * index finds them stored too. The model is a stand-in that counts what it embeds.
 */
class SentenceVectorsTests {

    private static final List<float[]> BASE = new ArrayList<>();

    static {
        Random r = new Random(11);
        for (int b = 0; b < 16; b++) {
            float[] v = new float[Embedder.DIMENSION];
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) r.nextGaussian();
            }
            BASE.add(Vectors.normalise(v));
        }
    }

    private final AtomicLong embedded = new AtomicLong();
    private JdbcDataSource ds;

    @BeforeEach
    void database() {
        ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:sentence-vectors-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    }

    private SentenceVectors store() {
        return new SentenceVectors(ds, () -> Embedder.of("stand-in", new TemplateStandInModel(BASE, 0.05, embedded)),
                Runnable::run);
    }

    private static List<SentenceVectors.Revision> revisions() {
        return List.of(new SentenceVectors.Revision("A", 0, "A red kettle. It boils fast."),
                new SentenceVectors.Revision("B", 0, "A blue lamp. It glows softly. Bulb included."),
                new SentenceVectors.Revision("C", 2, "A green mug."));
    }

    @Test
    void aRestartedExecutionEmbedsOnlyTheRevisionsNotStored() {
        assertThat(store().ensure(7, revisions(), () -> {})).isEqualTo(3);
        assertThat(embedded.get()).isEqualTo(6);

        // a new store over the same database: a restarted execution, or the next round
        SentenceVectors restarted = store();
        assertThat(restarted.ensure(7, revisions(), () -> {})).isZero();
        assertThat(embedded.get()).isEqualTo(6);

        // a batch fix wrote revision 1 of A: only it is embedded
        List<SentenceVectors.Revision> next = new ArrayList<>(revisions());
        next.set(0, new SentenceVectors.Revision("A", 1, "A red kettle."));
        assertThat(restarted.ensure(7, next, () -> {})).isEqualTo(1);
        assertThat(embedded.get()).isEqualTo(7);
    }

    @Test
    void bestIsTheHighestCosineOfAnyStoredSentenceToAnyQuery() {
        SentenceVectors store = store();
        store.ensure(7, revisions().subList(0, 2), () -> {});
        float[][] query = store.embedSentences(List.of("It glows softly.")).toArray(float[][]::new);

        double[][] best = store.best(7, revisions(), List.<float[][]>of(query));

        assertThat(best[0][1]).isEqualTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(best[0][0]).isLessThan(best[0][1]);
        assertThat(best[0][2]).isEqualTo(-1); // C was never stored
    }

    @Test
    void theSemanticIndexReusesTheSentencesStoredHere() {
        store().ensure(7, revisions(), () -> {});
        long before = embedded.get();
        Map<String, SnapshotItem> items = new LinkedHashMap<>();
        for (SentenceVectors.Revision r : revisions()) {
            items.put(r.itemId(), new SnapshotItem(r.itemId(), r.rev(), r.content(), Map.of("name", "item " + r.itemId()),
                    "home"));
        }
        SemanticIndex index = new SemanticIndex(ds, () -> Embedder.of("stand-in", new TemplateStandInModel(BASE, 0.05, embedded)),
                Runnable::run, SemanticSettings.defaults());

        index.prepare(new MemorySnapshot(7, 1, items));

        // only the three items' source texts are embedded: their sentences were stored
        assertThat(embedded.get() - before).isEqualTo(3);
        assertThat(index.stored("B").orElseThrow().sentences()).hasSize(3);
    }
}
