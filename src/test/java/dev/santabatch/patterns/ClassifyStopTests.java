package dev.santabatch.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.santabatch.execution.PreparationStoppedException;
import dev.santabatch.review.semantic.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.job.JobInterruptedException;

/**
 * A stop requested while the classify step embeds and clusters a round's failures (minutes for a
 * 100,000-item round's) ends the classification within one batch of issues, as a stop (the step ends
 * STOPPED, having written nothing); the classification made again (the restart) finds the patterns an
 * uninterrupted one finds.
 */
class ClassifyStopTests {

    static final int ISSUES = 600;
    static final int EVERY = 256;

    /** {@value #ISSUES} failures of one criterion, each issue text its own (no two share a vector from the cache). */
    static List<FailureClassifier.Failure> failures() {
        List<FailureClassifier.Failure> out = new ArrayList<>();
        for (int i = 0; i < ISSUES; i++) {
            String topic = i % 3 == 0 ? "battery" : "warranty";
            out.add(new FailureClassifier.Failure("P" + i, "factual-accuracy",
                    "factual-accuracy: the " + topic + " claim " + word(i) + " contradicts the source"));
        }
        return out;
    }

    /** A word of letters for {@code i} (numbers are stripped from issue texts before they are embedded). */
    private static String word(int i) {
        StringBuilder sb = new StringBuilder();
        for (int n = i; ; n = n / 26 - 1) {
            sb.append((char) ('a' + n % 26));
            if (n < 26) {
                return sb.append("x").toString();
            }
        }
    }

    /** The topic model of {@link EmbeddingFailureClassifierTests}, counting the texts it embeds. */
    static EmbeddingFailureClassifier classifier(AtomicInteger embedded) {
        EmbeddingModel counting = new EmbeddingModel() {
            @Override
            public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
                embedded.addAndGet(segments.size());
                return EmbeddingFailureClassifierTests.TOPIC_MODEL.embedAll(segments);
            }
        };
        Embedder stub = Embedder.of("topic-stub", counting);
        return new EmbeddingFailureClassifier(new PatternClassifier(new EmbeddingIssueSimilarity(() -> stub, 0.45, true), 0.45));
    }

    static List<FailureClassifier.Pattern> classify(BooleanSupplier stop, AtomicInteger embedded) {
        return classifier(embedded).classify(failures(), ISSUES, stop);
    }

    @Test
    void aStopWhileTheIssuesAreEmbeddedEndsTheClassificationWithinABatchAndARestartFindsTheSamePatterns() {
        // given the patterns an uninterrupted classification finds
        List<FailureClassifier.Pattern> reference = classify(() -> false, new AtomicInteger());
        assertThat(reference).hasSize(2);

        // when a stop is requested once 300 issues are embedded
        AtomicInteger embedded = new AtomicInteger();

        // then the classification ends as a stop at the next look, not after every issue is embedded
        assertThatThrownBy(() -> classify(() -> embedded.get() >= 300, embedded))
                .isInstanceOf(PreparationStoppedException.class)
                .hasMessageContaining("classify, embedding: " + 2 * EVERY + " of " + ISSUES + " issues")
                .hasCauseInstanceOf(JobInterruptedException.class);
        assertThat(embedded).as("issues embedded").hasValueLessThanOrEqualTo(300 + EVERY);

        // and classified again (the restart), it finds the same patterns
        assertThat(classify(() -> false, new AtomicInteger())).isEqualTo(reference);
    }

    @Test
    void aStopOnceEveryIssueIsEmbeddedEndsTheClassificationBeforeItComparesThem() {
        AtomicInteger embedded = new AtomicInteger();
        assertThatThrownBy(() -> classify(() -> embedded.get() >= ISSUES, embedded))
                .isInstanceOf(PreparationStoppedException.class)
                .hasMessageContaining("classify, similarities: 0 of " + ISSUES + " issues");
    }
}
