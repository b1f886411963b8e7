package dev.santabatch.review.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.Review;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * The semantic reviewer on a held-out catalog: the generator's {@link SampleCatalogGenerator.Vocabulary#FRESH}
 * pool (templates, names, brands, category vocabulary, drift topics and boilerplate passages no threshold was
 * derived or cross-checked on; the tuning tools use the sample and the {@code HELD_OUT} pool), 1,200 rows.
 * Per-reviewer figures on the cases the method is meant for (paraphrased boilerplate, unnamed drift) and the
 * clean items; the other method's cases and rules-only items are left out (see {@link Scoring.Figures}).
 */
class SemanticHeldOutTests {

    /** The generator seed of the held-out floor tests (any seed: the pool is what no one tuned on). */
    static final long HELD_OUT_SEED = 2027L;

    @Test
    void heldOutCatalogFloors() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            JdbcDataSource ds = new JdbcDataSource();
            ds.setURL("jdbc:h2:mem:sm-held-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
            TestCatalog held = TestCatalog.generated(99, HELD_OUT_SEED, 1200, SampleCatalogGenerator.Vocabulary.FRESH);
            SemanticIndex index = new SemanticIndex(ds, Embedder::shared, pool, SemanticSettings.defaults());
            long t0 = System.nanoTime();
            index.prepare(held);
            SemanticReviewer reviewer = new SemanticReviewer("C", Set.of("on-specification", "original"), index);
            Map<String, Review> reviews = Scoring.reviewAll(reviewer, held.items(), pool);
            System.out.printf("held-out (fresh pool): prepared and reviewed %d items in %d ms%n", held.size(), (System.nanoTime() - t0) / 1_000_000);
            List<String> ids = new ArrayList<>(held.ids());
            Scoring.Figures para = Scoring.figures("held-out: paraphrase boilerplate", reviews, ids, held::paraphrase, id -> "original", held::clean);
            Scoring.Figures drift = Scoring.figures("held-out: unnamed drift", reviews, ids, held::topicDrift, id -> "on-specification", held::clean);
            Scoring.Figures both = Scoring.figures("held-out: semantic cases (both)", reviews, ids,
                    id -> held.paraphrase(id) || held.topicDrift(id),
                    id -> held.topicDrift(id) ? "on-specification" : "original", held::clean);
            Scoring.Figures allBp = Scoring.figures("held-out: all boilerplate (info)", reviews, ids, held::boilerplate, id -> "original", held::clean);
            Scoring.Figures named = Scoring.figures("held-out: named drift (info)", reviews, ids,
                    id -> held.anyDrift(id) && !held.topicDrift(id), id -> "on-specification", held::clean);
            for (Scoring.Figures f : List.of(para, drift, both, allBp, named)) {
                System.out.println(f);
            }
            long rulesOnly = ids.stream().filter(held::offCriteriaOnly).count();
            long rulesOnlyFlagged = ids.stream().filter(held::offCriteriaOnly).filter(id -> Scoring.failedAny(reviews.get(id))).count();
            System.out.printf("held-out (info): items whose only defects are numbers, terms or the disclaimer (no pre-pass here): %d, flagged %d%n",
                    rulesOnly, rulesOnlyFlagged);
            ids.stream().filter(held::clean).filter(id -> Scoring.failedAny(reviews.get(id)))
                    .forEach(id -> System.out.println("  clean flagged " + id + " " + reviews.get(id).criticalIssues()));
            ids.stream().filter(id -> held.paraphrase(id) || held.topicDrift(id))
                    .filter(id -> !Scoring.failed(reviews.get(id), held.topicDrift(id) ? "on-specification" : "original"))
                    .forEach(id -> System.out.println("  missed " + id + " " + held.truth.get(id)));
            assertThat(para.targets()).as("paraphrase items in the catalog").isGreaterThanOrEqualTo(5);
            assertThat(drift.targets()).as("unnamed drift items in the catalog").isGreaterThanOrEqualTo(20);
            assertThat(para.recall()).as(para.toString()).isGreaterThanOrEqualTo(0.85);
            assertThat(drift.recall()).as(drift.toString()).isGreaterThanOrEqualTo(0.85);
            assertThat(both.recall()).as(both.toString()).isGreaterThanOrEqualTo(0.85);
            assertThat(both.precision()).as(both.toString()).isGreaterThanOrEqualTo(0.80);
        } finally {
            pool.shutdown(); // no interrupt: a task may be inside H2
        }
    }
}
