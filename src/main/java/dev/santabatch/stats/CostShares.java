package dev.santabatch.stats;

import java.util.OptionalDouble;

/**
 * The run's cost against full verification, in calls and in tokens, two ways (the seed claims
 * 15–20 %). Compute it once for model calls (reviewers, fixer, matcher) and, if wanted, once for
 * offline checks: the formulas do not care what a call is.
 *
 * <pre>
 * actual            = review + fix + other usage of the run
 * reviewOnce.calls  = N · r                                    (every item reviewed once by every reviewer)
 * reviewOnce.tokens = N · r · t_review
 * fullSanta.calls   = N · r · R̄ + N · F̄                        (full Santa on every item)
 * fullSanta.tokens  = N · r · R̄ · t_review + N · F̄ · t_fix
 * share             = actual / baseline                         (empty when the baseline is 0)
 * </pre>
 *
 * where N is the items to verify (the caller's population, e.g. the accepted items), r the panel
 * size, R̄ the observed mean panel reviews per reviewed item, F̄ the observed mean fixes per reviewed
 * item ({@link SantaMetrics#meanReviewsPerItem()}, {@link SantaMetrics#meanFixesPerItem()}),
 * t_review the observed tokens per reviewer call and t_fix the observed tokens per fixer call (0
 * when there was no fixer call).
 *
 * @param actual what the run used
 * @param reviewOnceCalls baseline 1, calls
 * @param reviewOnceTokens baseline 1, tokens
 * @param fullSantaCalls baseline 2, calls
 * @param fullSantaTokens baseline 2, tokens
 */
public record CostShares(
        Usage actual, double reviewOnceCalls, double reviewOnceTokens, double fullSantaCalls, double fullSantaTokens) {

    /**
     * @param items N
     * @param panelSize r
     * @param meanReviewsPerItem R̄
     * @param meanFixesPerItem F̄
     * @param review every reviewer call of the run
     * @param fix every fixer call of the run (Santa fixes and batch-fixes)
     * @param other any other model call (e.g. pattern matchers)
     */
    public static CostShares of(long items, int panelSize, double meanReviewsPerItem, double meanFixesPerItem,
            Usage review, Usage fix, Usage other) {
        if (items < 0 || panelSize < 1 || meanReviewsPerItem < 0 || meanFixesPerItem < 0) {
            throw new IllegalArgumentException("items >= 0, panel size >= 1 and non-negative means expected");
        }
        double n = items;
        double tReview = review.tokensPerCall();
        double tFix = fix.tokensPerCall();
        return new CostShares(
                review.plus(fix).plus(other),
                n * panelSize,
                n * panelSize * tReview,
                n * panelSize * meanReviewsPerItem + n * meanFixesPerItem,
                n * panelSize * meanReviewsPerItem * tReview + n * meanFixesPerItem * tFix);
    }

    /** actual calls / (N · r). */
    public OptionalDouble shareOfReviewOnceCalls() {
        return share(actual.calls(), reviewOnceCalls);
    }

    /** actual tokens / (N · r · t_review). */
    public OptionalDouble shareOfReviewOnceTokens() {
        return share(actual.tokens(), reviewOnceTokens);
    }

    /** actual calls / full Santa calls. */
    public OptionalDouble shareOfFullSantaCalls() {
        return share(actual.calls(), fullSantaCalls);
    }

    /** actual tokens / full Santa tokens. */
    public OptionalDouble shareOfFullSantaTokens() {
        return share(actual.tokens(), fullSantaTokens);
    }

    private static OptionalDouble share(double actual, double baseline) {
        return baseline > 0 ? OptionalDouble.of(actual / baseline) : OptionalDouble.empty();
    }
}
