package dev.santabatch.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.review.Review;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** The semantic reviewer on a held-out catalog (other seed, unseen templates, topics, passages, brands). */
class SemanticHeldOutTests {

    @Test
    void heldOutCatalogFloors() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            JdbcDataSource ds = new JdbcDataSource();
            ds.setURL("jdbc:h2:mem:sm-held-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
            TestCatalog held = TestCatalog.generated(99, 99, 1200, true);
            SemanticIndex index = new SemanticIndex(ds, Embedder::shared, pool, SemanticSettings.defaults());
            long t0 = System.nanoTime();
            index.prepare(held);
            SemanticReviewer reviewer = new SemanticReviewer("C", Set.of("on-specification", "original"), index);
            Map<String, Review> reviews = Scoring.reviewAll(reviewer, held.items(), pool);
            System.out.printf("held-out: prepared and reviewed %d items in %d ms%n", held.size(), (System.nanoTime() - t0) / 1_000_000);
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
            ids.stream().filter(held::clean).filter(id -> Scoring.failedAny(reviews.get(id)))
                    .forEach(id -> System.out.println("  clean flagged " + id + " " + reviews.get(id).criticalIssues()));
            assertThat(para.recall()).isGreaterThanOrEqualTo(0.85);
            assertThat(drift.recall()).isGreaterThanOrEqualTo(0.85);
            assertThat(both.recall()).isGreaterThanOrEqualTo(0.85);
            assertThat(both.precision()).isGreaterThanOrEqualTo(0.80);
        } finally {
            pool.shutdown(); // no interrupt: a task may be inside H2
        }
    }
}
