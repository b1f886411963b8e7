package dev.santabatch.config;

import org.jspecify.annotations.Nullable;

/**
 * The convergence loop and the Pattern C rounds.
 *
 * @param maxIterations fixes per item before escalation. Defaults to 3 (1-10).
 * @param maxRounds sampling rounds before the run ends not clean. Defaults to 5 (1-100).
 * @param systematicMinItems sampled items a pattern needs to be systematic. Defaults to 2.
 * @param failedReviewThreshold share of failed-to-review items that fails a step. Defaults to 0.10.
 * @param lowAgreementKappa kappa below which agreement is flagged as low. Defaults to 0.4.
 * @param patternSimilarity issue-text similarity that joins failures into one pattern (cosine of all-MiniLM-L6-v2 embeddings of the stripped issue texts). Defaults to 0.45,
 *     measured on the sample (docs/offline-reviewers.md).
 * @param auditSize shipped items drawn into audit.csv. Defaults to 20.
 * @param acceptanceNumber the most isolated failures a clean sample may have (0-100); null, the
 *     default, chooses it from the sample size ({@code dev.santabatch.stats.AcceptanceNumber}).
 * @param fit canaries and the panel's fit
 */
public record SantaSpec(
        int maxIterations,
        int maxRounds,
        int systematicMinItems,
        double failedReviewThreshold,
        double lowAgreementKappa,
        double patternSimilarity,
        int auditSize,
        @Nullable Integer acceptanceNumber,
        FitSpec fit) {

    /** With the default canaries and fit limits. */
    public SantaSpec(int maxIterations, int maxRounds, int systematicMinItems, double failedReviewThreshold,
            double lowAgreementKappa, double patternSimilarity, int auditSize, @Nullable Integer acceptanceNumber) {
        this(maxIterations, maxRounds, systematicMinItems, failedReviewThreshold, lowAgreementKappa, patternSimilarity,
                auditSize, acceptanceNumber, FitSpec.defaults());
    }
}
