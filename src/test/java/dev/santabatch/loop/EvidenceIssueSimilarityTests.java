package dev.santabatch.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.review.IssueSimilarity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One problem said two ways: same criterion and the same cited evidence, or the same wording. */
class EvidenceIssueSimilarityTests {

    private final EvidenceIssueSimilarity similarity = new EvidenceIssueSimilarity(IssueSimilarity.exactNormalised());

    @ParameterizedTest(name = "{2}: {0} ~ {1}")
    @CsvSource(delimiter = '|', value = {
        // the two offline reviewers' wordings of one off-topic sentence
        "on-specification: sentence 2 names \"Thrive Pro\" (name) of another item (P00181): \"The Thrive Pro by Purevita comes with minerals.\""
                + " | on-specification: sentence 2 is off-topic (similarity to its product 0.21): \"The Thrive Pro by Purevita comes with minerals.\" | true",
        // one near-duplicate said two ways
        "original: near-duplicate of P00037, P00088 (shingle Jaccard 0.48) | original: near-duplicate of P00037 (3 shared sentences, cosine 0.99) | true",
        // same evidence, different criterion: never one issue
        "original: near-duplicate of P00037 (cosine 0.99) | on-specification: the whole text matches the source facts of another item, P00037 | false",
        // different sentences quoted
        "on-specification: sentence 2 is off-topic: \"Morning fog should lift by noon today.\" | on-specification: sentence 4 is off-topic: \"Pack a lunch for the ferry ride over.\" | false",
        // different other items
        "original: near-duplicate of P00037 (cosine 0.99) | original: near-duplicate of P00412 (cosine 0.98) | false",
        // identical wording
        "compliance: uses a banned claim | compliance: uses a banned claim | true",
    })
    void mergesOneProblemSaidTwoWays(String a, String b, boolean same) {
        assertThat(similarity.same(a, b)).isEqualTo(same);
        assertThat(similarity.same(b, a)).isEqualTo(same);
    }
}
