package dev.santabatch.stats;

import dev.santabatch.review.Verdict;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Cohen's kappa (two raters) and Fleiss' kappa (three or more) of binary item verdicts (PASS /
 * FAIL). The caller passes each item's verdicts over the criteria every panel member judged.
 *
 * <h2>Cohen (two raters, n items)</h2>
 *
 * <pre>
 * P_o = (items rated alike) / n
 * P_e = (A_pass · B_pass + A_fail · B_fail) / n²      (A_pass: items rater A passed, ...)
 * κ   = (P_o − P_e) / (1 − P_e)
 * </pre>
 *
 * <h2>Fleiss (m raters per item, n items)</h2>
 *
 * <pre>
 * P_i = (pass_i² + fail_i² − m) / (m (m − 1))      share of agreeing rater pairs on item i
 * P̄   = Σ P_i / n
 * p_j = Σ_i n_ij / (n m)                          share of all verdicts in category j
 * P̄_e = p_pass² + p_fail²
 * κ   = (P̄ − P̄_e) / (1 − P̄_e)
 * </pre>
 *
 * <p>Kappa is undefined when the expected agreement is 1 (every verdict in the same category: the
 * raters all passed everything, or all failed everything); it is then empty and the raw
 * agreement is reported. The undefined test is exact (integer counts), not a floating-point
 * comparison. Perfect agreement with both categories used gives 1; total disagreement of two
 * raters who each pass half the items gives −1.
 */
public final class Kappa {

    private Kappa() {}

    /** Cohen's kappa; {@code a.get(i)} and {@code b.get(i)} are the two raters' verdicts on item i. */
    public static KappaResult cohen(List<Verdict> a, List<Verdict> b) {
        if (a.size() != b.size()) {
            throw new IllegalArgumentException("raters rated " + a.size() + " and " + b.size() + " items");
        }
        long n = a.size();
        if (n == 0) {
            return new KappaResult("cohen", 2, 0, Double.NaN, Double.NaN, OptionalDouble.empty());
        }
        long alike = 0;
        long aPass = 0;
        long bPass = 0;
        for (int i = 0; i < n; i++) {
            Verdict va = a.get(i);
            Verdict vb = b.get(i);
            if (va == vb) {
                alike++;
            }
            if (va == Verdict.PASS) {
                aPass++;
            }
            if (vb == Verdict.PASS) {
                bPass++;
            }
        }
        long expectedNumerator = aPass * bPass + (n - aPass) * (n - bPass); // P_e · n²
        double po = (double) alike / n;
        double pe = (double) expectedNumerator / ((double) n * n);
        // κ = (n·alike − E) / (n² − E) with E = P_e·n²: one division of exact integers, so a kappa
        // of exactly 0.4 is 0.4 and not 0.39999999999999997 (the low-agreement flag compares it)
        OptionalDouble kappa = expectedNumerator == n * n ? OptionalDouble.empty()
                : OptionalDouble.of((double) (n * alike - expectedNumerator) / (n * n - expectedNumerator));
        return new KappaResult("cohen", 2, (int) n, po, pe, kappa);
    }

    /**
     * Fleiss' kappa; {@code ratings.get(i)} holds item i's verdicts, the same number (≥ 2) for every
     * item.
     */
    public static KappaResult fleiss(List<List<Verdict>> ratings) {
        if (ratings.isEmpty()) {
            return new KappaResult("fleiss", 0, 0, Double.NaN, Double.NaN, OptionalDouble.empty());
        }
        int m = ratings.get(0).size();
        if (m < 2) {
            throw new IllegalArgumentException("Fleiss' kappa needs at least 2 raters per item, got " + m);
        }
        long n = ratings.size();
        long totalPass = 0;
        long pairNumerator = 0; // Σ (pass_i² + fail_i² − m)
        for (int i = 0; i < n; i++) {
            List<Verdict> item = ratings.get(i);
            if (item.size() != m) {
                throw new IllegalArgumentException("item " + i + " has " + item.size() + " verdicts, expected " + m);
            }
            long pass = item.stream().filter(v -> v == Verdict.PASS).count();
            long fail = m - pass;
            pairNumerator += pass * pass + fail * fail - m;
            totalPass += pass;
        }
        long all = n * m;
        double pBar = (double) pairNumerator / ((double) n * m * (m - 1));
        double pPass = (double) totalPass / all;
        double pFail = 1 - pPass;
        double pe = pPass * pPass + pFail * pFail;
        boolean oneCategory = totalPass == 0 || totalPass == all;
        // κ = (A·n·m − B·(m − 1)) / ((n²m² − B)(m − 1)) with A = Σ(pass² + fail² − m) and
        // B = T² + (nm − T)²: exact integers, one division
        long b = totalPass * totalPass + (all - totalPass) * (all - totalPass);
        OptionalDouble kappa = oneCategory ? OptionalDouble.empty()
                : OptionalDouble.of((double) (pairNumerator * n * m - b * (m - 1)) / ((double) (all * all - b) * (m - 1)));
        return new KappaResult("fleiss", m, (int) n, pBar, oneCategory ? 1 : pe, kappa);
    }

    /**
     * The panel's kappa: Cohen's for two verdicts per item, Fleiss' for three or more. {@code
     * ratings.get(i)} holds item i's verdicts in panel order.
     */
    public static KappaResult of(List<List<Verdict>> ratings) {
        if (!ratings.isEmpty() && ratings.get(0).size() == 2) {
            List<Verdict> a = ratings.stream().map(r -> {
                if (r.size() != 2) {
                    throw new IllegalArgumentException("every item needs the same number of verdicts");
                }
                return r.get(0);
            }).toList();
            List<Verdict> b = ratings.stream().map(r -> r.get(1)).toList();
            return cohen(a, b);
        }
        return fleiss(ratings);
    }
}
