package dev.santabatch.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.santabatch.review.semantic.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * A pattern's share of the sample is its distinct items over the round's sampled items, not over the
 * failures handed to the classifier (the embedding classifier and the exact one alike).
 */
class EmbeddingFailureClassifierTests {

    /** Embeds a text by the topic word it contains (warranty, battery, else a third axis): the model is not under test. */
    static final EmbeddingModel TOPIC_MODEL = new EmbeddingModel() {
        @Override
        public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
            List<Embedding> out = new ArrayList<>();
            for (TextSegment s : segments) {
                String t = s.text().toLowerCase(Locale.ROOT);
                float[] v = new float[3];
                v[t.contains("warranty") ? 0 : t.contains("battery") ? 1 : 2] = 1;
                out.add(Embedding.from(v));
            }
            return Response.from(out);
        }
    };

    static final List<FailureClassifier.Failure> FAILURES = List.of(
            new FailureClassifier.Failure("P1", "factual-accuracy", "factual-accuracy: claims a 10-year warranty but the source says 2"),
            new FailureClassifier.Failure("P2", "factual-accuracy", "factual-accuracy: warranty length contradicts the source (5 vs 3)"),
            // a second issue of P2 in the same pattern: the item counts once
            new FailureClassifier.Failure("P2", "factual-accuracy", "factual-accuracy: the warranty is 5 years, not 3"),
            new FailureClassifier.Failure("P3", "factual-accuracy", "factual-accuracy: battery life stated as 30 hours, source says 20"));

    @Test
    void aPatternsShareIsItsItemsOverTheSampledItems() {
        Embedder stub = Embedder.of("topic-stub", TOPIC_MODEL);
        PatternClassifier patterns = new PatternClassifier(new EmbeddingIssueSimilarity(() -> stub, 0.45, true), 0.45);
        List<FailureClassifier.Pattern> out = new EmbeddingFailureClassifier(patterns).classify(FAILURES, 40);

        assertThat(out).hasSize(2);
        FailureClassifier.Pattern warranty = out.get(0);
        assertThat(warranty.itemIds()).containsExactly("P1", "P2");
        assertThat(warranty.texts()).hasSize(3);
        assertThat(warranty.share()).isCloseTo(2 / 40.0, within(1e-12)); // not 2 of the 4 failures
        FailureClassifier.Pattern battery = out.get(1);
        assertThat(battery.itemIds()).containsExactly("P3");
        assertThat(battery.share()).isCloseTo(1 / 40.0, within(1e-12));
    }

    @Test
    void theExactClassifierSharesTheSameWay() {
        List<FailureClassifier.Pattern> out = new ExactIssueClassifier().classify(List.of(
                new FailureClassifier.Failure("P1", "original", "original: near-duplicate of P00037 (cosine 0.99)"),
                new FailureClassifier.Failure("P2", "original", "original: near-duplicate of P00412 (cosine 0.97)"),
                new FailureClassifier.Failure("P2", "original", "original: near-duplicate of P00413 (cosine 0.96)")), 25);
        assertThat(out).singleElement().satisfies(p -> {
            assertThat(p.itemIds()).containsExactly("P1", "P2");
            assertThat(p.share()).isCloseTo(2 / 25.0, within(1e-12));
        });
        assertThat(FailureClassifier.share(3, 0)).isZero();
    }
}
