package dev.santabatch.stats;

/**
 * The acceptance number c of a round's sample of n items: the most isolated failures (items not
 * NICE on first review, in no systematic pattern) a clean sample may have. ISO 2859-1's single
 * sampling plan (n, c), with c chosen for judges that make mistakes.
 *
 * <p>A reviewer as real as the judges this tool runs with fails about 2 % of clean items; with two
 * reviewers either of whose FAIL makes a failure, a clean item fails with probability
 * q = 1 − 0.98² = 3.96 %. With c = 0 a clean catalog's sample of 100 would be accepted with
 * probability 0.9604^100 = 1.8 %: the loop would never converge. c is the smallest number with
 * P(X ≤ c) ≥ 90 % for X ~ Binomial(n, q), so that a sample of a clean catalog is accepted in nine
 * rounds out of ten. A larger c would converge more surely but weaken the bound: the bound is the
 * binomial upper limit for the failures observed ({@link CleanSampleBound}), so each accepted
 * failure widens it (n = 100: 2.95 % with none, 4.66 % with one, 6.16 % with two). The table
 * (docs/acceptance-number.md) is this function.
 */
public final class AcceptanceNumber {

    /** Share of clean items one reviewer fails: 2 %. */
    public static final double REVIEWER_FALSE_FAILURE = 0.02;

    /** Share of clean items the two-reviewer panel fails: 1 − (1 − 0.02)² = 3.96 %. */
    public static final double PANEL_FALSE_FAILURE = 1 - Math.pow(1 - REVIEWER_FALSE_FAILURE, 2);

    /** The probability with which a clean catalog's sample is accepted: 90 %. */
    public static final double CLEAN_ACCEPTED = 0.90;

    private AcceptanceNumber() {}

    /** The smallest c with P(X ≤ c) ≥ 90 % for X ~ Binomial(n, 3.96 %). */
    public static int forSampleSize(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a sample has at least one item, was " + n);
        }
        int c = 0;
        while (ClopperPearson.binomialCdf(c, n, PANEL_FALSE_FAILURE) < CLEAN_ACCEPTED) {
            c++;
        }
        return c;
    }
}
