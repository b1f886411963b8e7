package dev.santabatch.batchfix.induction;

import dev.santabatch.config.RuleSpec;
import dev.santabatch.prepass.rules.RuleEngine;
import dev.santabatch.stats.ClopperPearson;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Whether a learned rule earns its way into the catalog. Pure: the reviews it needs are the
 * caller's (the panel's) to make.
 *
 * <ol>
 *   <li><b>Support</b>: at least {@value #MIN_SUPPORT} sampled items whose fix has the rule's shape
 *       and that the rule flags before and not after their fix.
 *   <li><b>Leave-one-out recall</b>: for each supporting item, the rule induced without its fix
 *       flags it; at least {@value #MIN_LOO_RECALL} of them (the share that makes a shape shared).
 *   <li><b>Passed sampled items</b>: a sampled item both reviewers passed that the rule flags is
 *       counter-evidence. When the rule's evidence is checkable against the item's own source (a
 *       number-grounding rule: the stated number contradicts its column) the reviewers may have
 *       missed it: the item is queued for a fresh review ({@link #afterFreshReview}); otherwise the
 *       rule is rejected.
 *   <li><b>Catalog share</b>: the rule flags no more of the eligible items than the Clopper-Pearson
 *       upper limit (95 %) of the pattern's sampled prevalence, times the eligible count, times
 *       {@value #CAP_MARGIN}: a rule that flags more finds something else than the pattern.
 *   <li><b>Review check</b>: both reviewers review up to {@value #REVIEW_CHECK_SIZE} unsampled items
 *       the rule fixed, before it fixes the rest; it is rejected when more than
 *       {@value #REVIEW_TOLERANCE} of them fail the pattern's criterion ({@link #afterReviewCheck}).
 *       The tolerance allows for reviewers that fail a few clean items (2 % each: one or two of ten
 *       by chance), not for a rule whose fixes are wrong (reviewers catch most of those).
 * </ol>
 */
public final class RuleValidator {

    public static final int MIN_SUPPORT = 3;
    public static final double MIN_LOO_RECALL = RuleInducer.MIN_SHARE;
    public static final double CAP_MARGIN = 1.5;
    public static final int REVIEW_CHECK_SIZE = 10;
    public static final double REVIEW_TOLERANCE = 0.2;

    /**
     * What validation found before the catalog is touched.
     *
     * @param rejection why the rule is rejected; {@code null} when it passed so far
     * @param looRecall leave-one-out recall on the supporting items
     * @param freshReview passed sampled items the rule flags with checkable evidence (to review again)
     * @param flagged the eligible items the rule flags, in the order given
     * @param cap the most eligible items the rule may flag
     */
    public record Screening(@Nullable String rejection, int support, double looRecall, List<String> freshReview,
            List<String> flagged, int eligible, double cap) {

        public boolean passed() {
            return rejection == null;
        }

        /** The items the review check reviews: the first {@value #REVIEW_CHECK_SIZE} flagged. */
        public List<String> reviewSample() {
            return flagged.subList(0, Math.min(REVIEW_CHECK_SIZE, flagged.size()));
        }
    }

    private RuleValidator() {}

    /**
     * @param minItems {@code santa.systematic-min-items} (induction's minimum, also for leave-one-out)
     * @param sampleSize the round's sample size
     * @param eligible the eligible unsampled items of the catalog
     */
    public static Screening screen(LearnedRule rule, PatternEvidence pattern, int minItems, int sampleSize,
            List<PassedItem> eligible) {
        RuleEngine engine = rule.engine();
        List<String> flagged = new ArrayList<>();
        for (PassedItem e : eligible) {
            if (!engine.check(e.text(), e.facts()).isEmpty()) {
                flagged.add(e.itemId());
            }
        }
        return screen(rule, engine, pattern, minItems, sampleSize, eligible.size(), flagged);
    }

    /**
     * As {@link #screen(LearnedRule, PatternEvidence, int, int, List)}, for a caller that flagged the
     * eligible items itself (in one pass for every rule of the round, each compiled once).
     *
     * @param engine the rule compiled ({@link LearnedRule#engine()})
     * @param eligible how many eligible unsampled items the catalog has
     * @param flagged the eligible items the rule flags, in catalog order
     */
    public static Screening screen(LearnedRule rule, RuleEngine engine, PatternEvidence pattern, int minItems,
            int sampleSize, int eligible, List<String> flagged) {
        int support = rule.support();
        double loo = looRecall(rule, pattern, minItems);
        List<String> fresh = new ArrayList<>();
        String rejection = null;
        if (support < MIN_SUPPORT) {
            rejection = "support " + support + " < " + MIN_SUPPORT + " items";
        } else if (loo < MIN_LOO_RECALL) {
            rejection = String.format(java.util.Locale.ROOT, "leave-one-out recall %.2f < %.2f", loo, MIN_LOO_RECALL);
        }
        for (PassedItem p : pattern.passed()) {
            if (rejection == null && !engine.check(p.text(), p.facts()).isEmpty()) {
                if (checkable(rule)) {
                    fresh.add(p.itemId());
                } else {
                    rejection = "flags " + p.itemId() + ", which both reviewers passed";
                }
            }
        }
        int prevalent = pattern.fixes().stream().map(AcceptedFix::itemId).distinct().toList().size();
        double cap = cap(prevalent, sampleSize, eligible);
        if (rejection == null && flagged.size() > cap) {
            rejection = String.format(java.util.Locale.ROOT,
                    "flags %d of %d eligible items, more than the cap %.1f (sampled prevalence %d/%d)", flagged.size(),
                    eligible, cap, prevalent, sampleSize);
        }
        return new Screening(rejection, support, loo, List.copyOf(fresh), List.copyOf(flagged), eligible, cap);
    }

    /**
     * The most items a pattern seen in {@code k} of {@code n} sampled items can plausibly carry among
     * {@code eligible}: the Clopper-Pearson upper limit (95 %) of {@code k} in {@code n}, times the
     * eligible count, times the margin. A learned rule may flag no more; the matcher is asked about
     * no more candidates ({@code batchfix.PatternNarrowing}).
     */
    public static double cap(int k, int n, int eligible) {
        return ClopperPearson.interval(k, Math.max(n, k)).upper() * eligible * CAP_MARGIN;
    }

    /** A number-grounding violation says the text contradicts the item's own source column. */
    public static boolean checkable(LearnedRule rule) {
        return rule.spec() instanceof RuleSpec.NumberGrounding;
    }

    /** Leave-one-out: the share of supporting items the rule induced without their own fix flags. */
    static double looRecall(LearnedRule rule, PatternEvidence pattern, int minItems) {
        if (rule.support() == 0) {
            return 0;
        }
        int hits = 0;
        int loMin = Math.max(1, Math.min(minItems, rule.support() - 1));
        for (String item : rule.supportItems()) {
            AcceptedFix left = pattern.fixes().stream().filter(f -> f.itemId().equals(item)).findFirst().orElseThrow();
            Optional<LearnedRule> without = RuleInducer.induce(rule.id(), pattern.without(left), loMin);
            RuleEngine engine = without.map(LearnedRule::engine).orElse(null);
            if (engine != null && !engine.check(left.before(), left.facts()).isEmpty()
                    && !engine.apply(left.before(), left.facts()).mustEscalate()) {
                hits++;
            }
        }
        return hits / (double) rule.support();
    }

    /**
     * The fresh reviews of the passed items the rule flags: one both reviewers pass again rejects
     * the rule (two reviews of the item disagree with it); empty when every one failed the criterion.
     *
     * @param passedAgain the items of {@link Screening#freshReview} the fresh review passed
     */
    public static Optional<String> afterFreshReview(List<String> passedAgain) {
        return passedAgain.isEmpty() ? Optional.empty()
                : Optional.of("flags " + passedAgain.get(0) + ", which both reviewers passed, also on a fresh review");
    }

    /**
     * The review check: the rejection when more than {@value #REVIEW_TOLERANCE} of the reviewed fixed
     * items fail the pattern's criterion.
     */
    public static Optional<String> afterReviewCheck(int reviewed, int failed) {
        return failed > REVIEW_TOLERANCE * reviewed
                ? Optional.of("review check: " + failed + " of " + reviewed + " fixed items failed the criterion")
                : Optional.empty();
    }
}
