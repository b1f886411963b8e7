package dev.santabatch.review.step;

import dev.santabatch.model.ModelCalls;
import dev.santabatch.patterns.ExactIssueClassifier;
import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.patterns.EmbeddingIssueSimilarity;
import dev.santabatch.review.Check;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.Gate;
import dev.santabatch.review.GateResult;
import dev.santabatch.review.IssueSimilarity;
import dev.santabatch.review.MergedIssue;
import dev.santabatch.review.PanelReview;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.Verdict;
import dev.santabatch.review.semantic.Embedder;
import dev.santabatch.stats.Agreement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The gate's merge of critical issues: one problem said two ways (the same cited evidence, or, with
 * no evidence both cite, the same wording) is one issue; issues citing different evidence (other
 * items, quoted sentences, quoted terms) are different problems however alike their wording.
 */
class EvidenceIssueSimilarityTests {

    // the offline reviewers' issue texts, as LexicalReviewer and SemanticReviewer write them
    static final String LEXICAL_NAMED = "on-specification: sentence 2 names \"Thrive Pro\" (name) of another item (P00181):"
            + " \"The Thrive Pro by Purevita comes with carefully sourced minerals.\"";
    static final String SEMANTIC_OFF_TOPIC = "on-specification: sentence 2 is off-topic (similarity to its product 0.21):"
            + " \"The Thrive Pro by Purevita comes with carefully sourced minerals.\"";
    static final String SEMANTIC_ABOUT_OTHER = "on-specification: sentence 2 is about P00764 (similarity 0.80 to its source, 0.16 to its own):"
            + " \"The Thrive Pro by Purevita comes with carefully sourced minerals.\"";
    static final String SEMANTIC_OFF_TOPIC_4 = "on-specification: sentence 4 is off-topic (similarity to its product 0.19):"
            + " \"Pack a lunch for the ferry ride over to the island.\"";
    static final String SEMANTIC_OFF_TOPIC_2B = "on-specification: sentence 2 is off-topic (similarity to its product 0.22):"
            + " \"Morning fog should lift by noon on the coast today.\"";
    static final String LEXICAL_NAMED_OTHER = "on-specification: sentence 3 names \"Blendmaster Max\" (name) of another item (P00048):"
            + " \"If you prefer something different, the Blendmaster Max from Basilware is a popular alternative.\"";
    static final String LEXICAL_DUP = "original: near-duplicate of P00037, P00088 (shingle Jaccard 0.48)";
    static final String SEMANTIC_DUP = "original: near-duplicate of P00037 (shared passage of 3 sentences, cosine 0.99)";
    static final String SEMANTIC_DUP_OTHER = "original: near-duplicate of P00412 (cosine 0.98)";
    static final String SEMANTIC_QUOTE_INSIDE = "on-specification: sentence 3 is off-topic (similarity to its product 0.30):"
            + " \"With a low-latency gaming mode and a \"quiet focus\" listening profile, the Quietline Harmony Max turns a plain"
            + " playlist into a small concert.\"";
    static final String LEXICAL_QUOTE_INSIDE_CUT = "on-specification: sentence 3 names \"Harmony Max\" (name) of another item (P00731):"
            + " \"With a low-latency gaming mode and a \"quiet focus\" listening profile, the Quietline Harmony Max turns a plain pla\u2026\"";

    /** A wording similarity that calls any two issues the same, as the stripped embeddings do for issues that differ only in evidence. */
    private final EvidenceIssueSimilarity anyWording = new EvidenceIssueSimilarity((x, y) -> true);
    private final EvidenceIssueSimilarity exactWording = new EvidenceIssueSimilarity(IssueSimilarity.exactNormalised());

    @ParameterizedTest(name = "{2}: {0} ~ {1}")
    @CsvSource(delimiter = '|', value = {
        // the two offline reviewers' wordings of one off-topic sentence
        LEXICAL_NAMED + " | " + SEMANTIC_OFF_TOPIC + " | true",
        // the same sentence named by both, each naming a different twin of the other product: the sentence decides
        LEXICAL_NAMED + " | " + SEMANTIC_ABOUT_OTHER + " | true",
        // a sentence with quotes inside, cut short by one reviewer
        SEMANTIC_QUOTE_INSIDE + " | " + LEXICAL_QUOTE_INSIDE_CUT + " | true",
        // one near-duplicate said two ways: a named item in common
        LEXICAL_DUP + " | " + SEMANTIC_DUP + " | true",
        // same evidence, different criterion: never one issue
        "original: near-duplicate of P00037 (cosine 0.99) | on-specification: the whole text matches the source facts of another item, P00037 | false",
        // identical wording, no evidence
        "compliance: uses a banned claim | compliance: uses a banned claim | true",
    })
    void mergesOneProblemSaidTwoWays(String a, String b, boolean same) {
        assertThat(exactWording.same(a, b)).isEqualTo(same);
        assertThat(exactWording.same(b, a)).isEqualTo(same);
    }

    /**
     * Different evidence is a different problem even when the wording similarity calls the two the
     * same (here one that says "same" to everything; the stripped embeddings give 1.0 to
     * "near-duplicate of P00037" vs "near-duplicate of P00412").
     */
    @ParameterizedTest(name = "{0} !~ {1}")
    @CsvSource(delimiter = '|', value = {
        // different other items named
        "original: near-duplicate of P00037 (cosine 0.99) | original: near-duplicate of P00412 (cosine 0.98)",
        LEXICAL_DUP + " | " + SEMANTIC_DUP_OTHER,
        // different sentences quoted, same wording
        SEMANTIC_OFF_TOPIC_4 + " | " + SEMANTIC_OFF_TOPIC_2B,
        SEMANTIC_OFF_TOPIC + " | " + SEMANTIC_OFF_TOPIC_2B,
        // different sentences naming different items, by one method
        LEXICAL_NAMED + " | " + LEXICAL_NAMED_OTHER,
        // different quoted terms
        "compliance: uses the banned term \"miracle\" | compliance: uses the banned term \"cures\"",
        "on-specification: the whole text matches the source facts of another item, P00036 (\"Glowpeak Go\", \"Bluefern\")"
                + " | on-specification: the whole text matches the source facts of another item, P00231 (\"Glowpeak Go\", \"Bluefern\")",
    })
    void differentEvidenceIsADifferentProblemWhateverTheWording(String a, String b) {
        assertThat(anyWording.same(a, b)).isFalse();
        assertThat(anyWording.same(b, a)).isFalse();
    }

    @Test
    void theSameTermInOtherWordsIsOneProblem() {
        assertThat(anyWording.same("compliance: uses the banned term 'best-in-class'.", "compliance: contains \u201Cbest in class\u201D, a forbidden superlative")).isTrue();
        // an apostrophe is not a quote
        assertThat(EvidenceIssueSimilarity.evidence("factual-accuracy: the item's warranty isn't what the source's facts say").terms()).isEmpty();
    }

    @Test
    void evidenceOfTheOfflineReviewersIssues() {
        EvidenceIssueSimilarity.Evidence e = EvidenceIssueSimilarity.evidence(LEXICAL_QUOTE_INSIDE_CUT);
        assertThat(e.sentences()).containsExactly(
                "with a low latency gaming mode and a quiet focus listening profile the quietline harmony max turns a plain pla");
        assertThat(e.items()).containsExactly("P00731");
        assertThat(e.terms()).containsExactly("harmony max");
        assertThat(EvidenceIssueSimilarity.evidence(SEMANTIC_DUP).items()).containsExactly("P00037");
        assertThat(EvidenceIssueSimilarity.evidence(SEMANTIC_DUP).sentences()).isEmpty();
    }

    /**
     * With the job's wording similarity (all-MiniLM-L6-v2 over stripped texts, at the default job's
     * {@code santa.pattern-similarity}): the wording alone would merge the near-duplicates of two
     * different items (it strips the ids); with the evidence it does not. The lexical and semantic
     * reviewers' issues about one sentence are one issue flagged by both, counted in agreement as
     * flagged by both; their issues about different evidence stay apart, each flagged by one.
     */
    @Test
    void theGateWithTheJobsSimilarityMergesOneProblemAndKeepsDifferentEvidenceApart() throws Exception {
        double threshold = dev.santabatch.config.JobFileLoader.load(java.nio.file.Path.of("jobs/product-descriptions.yml")).santa().patternSimilarity();
        EmbeddingIssueSimilarity wording = new EmbeddingIssueSimilarity(Embedder::shared, threshold, true);
        System.out.printf(Locale.ROOT, "stripped-wording cosine, near-duplicates of different items: %.3f%n", wording.cosine(SEMANTIC_DUP, SEMANTIC_DUP_OTHER));
        assertThat(wording.same(SEMANTIC_DUP, SEMANTIC_DUP_OTHER)).as("the wording alone merges them").isTrue();
        assertThat(wording.same(SEMANTIC_OFF_TOPIC_4, SEMANTIC_OFF_TOPIC_2B)).as("the wording alone merges them").isTrue();
        EvidenceIssueSimilarity similarity = new EvidenceIssueSimilarity(wording);
        assertThat(similarity.same(SEMANTIC_DUP, SEMANTIC_DUP_OTHER)).isFalse();
        assertThat(similarity.same(SEMANTIC_OFF_TOPIC_4, SEMANTIC_OFF_TOPIC_2B)).isFalse();
        // issues without evidence are merged by their wording
        assertThat(similarity.same("factual-accuracy: claims a 10-year warranty but the source says 2",
                "factual-accuracy: warranty length contradicts the source (10 vs 2)")).isTrue();
        assertThat(similarity.same("factual-accuracy: claims a 10-year warranty but the source says 2",
                "factual-accuracy: battery life stated as 30 hours, source says 20")).isFalse();

        List<String> criteria = List.of("on-specification", "original");
        PanelReview lexical = review("B", List.of(LEXICAL_NAMED, LEXICAL_DUP));
        PanelReview semantic = review("C", List.of(SEMANTIC_OFF_TOPIC, SEMANTIC_OFF_TOPIC_4, SEMANTIC_DUP_OTHER));
        GateResult g = new Gate(similarity).decide(criteria, List.of(lexical, semantic));

        assertThat(g.criticalIssues()).extracting(MergedIssue::text, MergedIssue::flaggedBy).containsExactly(
                org.assertj.core.groups.Tuple.tuple(LEXICAL_NAMED, Set.of("B", "C")),
                org.assertj.core.groups.Tuple.tuple(LEXICAL_DUP, Set.of("B")),
                org.assertj.core.groups.Tuple.tuple(SEMANTIC_OFF_TOPIC_4, Set.of("C")),
                org.assertj.core.groups.Tuple.tuple(SEMANTIC_DUP_OTHER, Set.of("C")));
        Agreement a = Agreement.of(g.criticalIssues(), 2);
        assertThat(a.flaggedByAll()).isEqualTo(1);
        assertThat(a.flaggedByOne()).isEqualTo(3);

        // the same near-duplicate said two ways is one issue flagged by both
        GateResult dup = new Gate(similarity).decide(criteria, List.of(review("B", List.of(LEXICAL_DUP)), review("C", List.of(SEMANTIC_DUP))));
        assertThat(dup.criticalIssues()).singleElement().satisfies(i -> assertThat(i.flaggedBy()).containsExactly("B", "C"));
        assertThat(Agreement.of(dup.criticalIssues(), 2).flaggedByAll()).isEqualTo(1);
    }

    /**
     * The batch-fix matcher compares an item's issue with a pattern's label, an issue of another
     * item: by the problem (the wording), not by the evidence, which differs between items by nature.
     */
    @Test
    void theBatchFixMatcherComparesIssuesOfDifferentItemsByWording() throws Exception {
        dev.santabatch.config.JobDefinition job = dev.santabatch.config.JobFileLoader.load(java.nio.file.Path.of("jobs/product-descriptions.yml"));
        org.h2.jdbcx.JdbcDataSource ds = new org.h2.jdbcx.JdbcDataSource();
        ds.setURL("jdbc:h2:mem:pattern-similarity-" + java.util.UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        IssueSimilarity wording = (x, y) -> dev.santabatch.text.IssueText.stripped(x).equals(dev.santabatch.text.IssueText.stripped(y));
        try (Panels panels = new Panels(job,
                java.util.Map.of("lexical", new OfflineReviewerTypes.Lexical(job, ds), "semantic", new OfflineReviewerTypes.Semantic(job, ds, Runnable::run)),
                dev.santabatch.review.RevisionCheck.NONE, new EvidenceIssueSimilarity(wording), new ExactIssueClassifier(),
                p -> new OfflineFixer(job, p), ModelCalls.none())) {
            String label = "original: near-duplicate of P00037 (cosine 0.99)";
            String otherItems = "original: near-duplicate of P00412 (cosine 0.98)";
            assertThat(panels.similarity().same(label, otherItems)).as("the gate: different evidence").isFalse();
            assertThat(panels.patternSimilarity().same(label, otherItems)).as("the matcher: the same problem").isTrue();
            assertThat(panels.patternSimilarity().same(SEMANTIC_OFF_TOPIC_4, SEMANTIC_OFF_TOPIC_2B)).isTrue();
        }
    }

    private static PanelReview review(String id, List<String> issues) {
        List<String> criteria = List.of("on-specification", "original");
        List<Check> checks = criteria.stream()
                .map(c -> new Check(c, issues.stream().anyMatch(i -> i.startsWith(c + ":")) ? CheckResult.FAIL : CheckResult.PASS, "x"))
                .toList();
        Review review = new Review(Verdict.FAIL, checks, issues, List.of());
        return new PanelReview(id, Set.copyOf(criteria), new ReviewOutcome.Reviewed(review, Duration.ZERO), Duration.ZERO);
    }
}
