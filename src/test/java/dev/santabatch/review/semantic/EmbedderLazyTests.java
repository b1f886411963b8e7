package dev.santabatch.review.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.Criterion;
import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.ReviewValidation;
import dev.santabatch.review.ReviewValidator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** The model is asked for only when a semantic check needs it. */
class EmbedderLazyTests {

    @Test
    void noModelUntilASemanticCriterionIsReviewed() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:lazy-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        AtomicInteger asked = new AtomicInteger();
        SemanticIndex index = new SemanticIndex(ds, () -> {
            asked.incrementAndGet();
            throw new AssertionError("the model must not be needed");
        }, Runnable::run, SemanticSettings.defaults());
        SemanticReviewer reviewer = new SemanticReviewer("C", Set.of("on-specification", "original"), index);
        Criterion other = new Criterion("tone", "Tone", "friendly", "rude", Criterion.CheckedBy.SANTA, List.of());
        ReviewOutcome o = reviewer.review(new ReviewRequest("spec", "P1", Map.of("name", "X"), "Some text.", List.of(other)));
        Review r = ((ReviewOutcome.Reviewed) o).review();
        assertThat(r.check("tone").orElseThrow().result()).isEqualTo(CheckResult.NOT_EVALUATED);
        assertThat(new ReviewValidator().validate(r, List.of("tone"), reviewer.criteria())).isInstanceOf(ReviewValidation.Valid.class);
        assertThat(asked).hasValue(0);
    }

    @Test
    void loadingTheModelOptsOutOfDjlsCallHome() {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("OPT_OUT_TRACKING") == null, "the environment decides");
        Embedder.shared().embed("a sentence");
        // what DJL's Ec2Utils.callHome reads before it calls 169.254.169.254
        assertThat(ai.djl.util.Utils.getEnvOrSystemProperty("OPT_OUT_TRACKING")).isEqualTo("true");
    }

    @Test
    void vectorsRoundTripThroughTheStoreEncoding() {
        float[] v = Vectors.normalise(new float[] {1, -2, 3.5f, 0});
        assertThat(Vectors.decode(Vectors.encode(v))).containsExactly(v);
        assertThat(Vectors.encode(new float[Embedder.DIMENSION])).hasSizeLessThanOrEqualTo(2100);
    }

    @Test
    void simHashCandidateProbabilityCoversTheThresholds() {
        // the band shapes used by SemanticIndex, at each kind's default threshold
        // (content and source are hashed after centring, which lowers their cosines; the recall test measures it)
        assertThat(new SimHash(Embedder.DIMENSION, 20, 12, 11).candidateProbability(0.90)).isGreaterThan(0.95);
        assertThat(new SimHash(Embedder.DIMENSION, 48, 6, 12).candidateProbability(0.55)).isGreaterThan(0.95);
        assertThat(new SimHash(Embedder.DIMENSION, 20, 10, 13).candidateProbability(0.90)).isGreaterThan(0.95);
        float[] a = Vectors.normalise(new float[] {1, 2, 3});
        assertThat(new SimHash(3, 4, 8, 1).buckets(a)).containsExactly(new SimHash(3, 4, 8, 1).buckets(a));
    }
}
