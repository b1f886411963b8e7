package dev.santabatch.stats;

import dev.santabatch.review.SantaOutcome;
import dev.santabatch.review.SantaReason;
import dev.santabatch.review.SantaResult;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The seed's per-item metrics over the sampled items of a round ({@link #of}) or of a run ({@link
 * #ofRun}: every item once, however many rounds sampled it).
 *
 * <pre>
 * reviewed          = sampled items whose first panel review completed (every reviewer reviewed;
 *                     an item whose review 0 failed is not reviewed)
 * first-pass rate   = items NICE on their first review (NICE, 0 fixes) / reviewed
 * mean reviews to NICE = Σ reviews of NICE items / NICE items   (1 = nice on the first review)
 * mean reviews per item = Σ reviews / reviewed      (all reviewed items, NICE or not: for cost)
 * mean fixes per item   = Σ fixes / reviewed
 * </pre>
 *
 * Ratios are empty when their denominator is 0. Escalations are counted in total and per {@link
 * SantaReason}.
 *
 * @param sampled sampled items counted (at run level: distinct items)
 * @param reviewed sampled items whose first panel review completed
 * @param niceFirstReview NICE with no fix
 * @param nice NICE
 * @param reviewsOfNice Σ reviews over NICE items
 * @param reviews Σ reviews over reviewed items
 * @param fixes Σ accepted fixes over reviewed items
 * @param escalated ESCALATED items
 * @param unreviewed UNREVIEWED items
 * @param escalationsByReason ESCALATED items per reason name, sorted
 */
public record SantaMetrics(
        long sampled,
        long reviewed,
        long niceFirstReview,
        long nice,
        long reviewsOfNice,
        long reviews,
        long fixes,
        long escalated,
        long unreviewed,
        Map<String, Long> escalationsByReason) {

    /**
     * One sampled item's outcome.
     *
     * @param outcome NICE, ESCALATED or UNREVIEWED
     * @param reason why ESCALATED / UNREVIEWED; {@code null} for NICE
     * @param reviews panel reviews performed (1 for nice on the first review)
     * @param fixes accepted fixes
     * @param flagged failed by a reviewer outside its own review (a clean canary, a learned rule's
     *     fresh review) on the revision reviewed or its current one: not NICE on first review
     */
    public record ItemOutcome(SantaOutcome outcome, @Nullable SantaReason reason, int reviews, int fixes, boolean flagged) {
        public ItemOutcome {
            Objects.requireNonNull(outcome, "outcome");
            if (reviews < 0 || fixes < 0) {
                throw new IllegalArgumentException("negative reviews or fixes");
            }
            if (outcome == SantaOutcome.NICE && reviews < 1) {
                throw new IllegalArgumentException("a NICE item was reviewed at least once");
            }
        }

        /** The outcome of the item's own reviews (a flag from outside them is the store's: {@code LoopStore.sample}). */
        public static ItemOutcome of(SantaResult r) {
            return new ItemOutcome(r.outcome(), r.reason(), r.reviewsToNice(), r.fixes(), false);
        }

        /**
         * True when the item's first panel review completed, so the item was reviewed: NICE and
         * ESCALATED items always; an UNREVIEWED item whose reviewer failed in review k (reviews =
         * k + 1) only if k ≥ 1; an UNREVIEWED item whose fixer failed after a completed review.
         */
        public boolean firstReviewCompleted() {
            if (outcome == SantaOutcome.UNREVIEWED && reason == SantaReason.REVIEWER_FAILED) {
                return reviews >= 2;
            }
            return reviews >= 1;
        }

        /** True when the first review passed: NICE without a fix, and not {@link #flagged}. */
        boolean niceOnFirstReview() {
            return outcome == SantaOutcome.NICE && fixes == 0 && !flagged;
        }
    }

    public SantaMetrics {
        escalationsByReason = Map.copyOf(new TreeMap<>(escalationsByReason));
    }

    /** The metrics of one round's sampled items: each item's history is that round alone. */
    public static SantaMetrics of(Collection<ItemOutcome> items) {
        return ofRun(items.stream().map(List::of).toList());
    }

    /**
     * The metrics of a run, every sampled item counted once. {@code histories} holds one list per
     * item: its outcomes in the rounds that sampled it, in round order (an item is sampled again
     * only while it stays eligible: when it was left UNREVIEWED). Per item:
     *
     * <pre>
     * reviewed             if any round's first panel review completed
     * NICE on first review if the first such round was NICE without a fix
     * NICE, ESCALATED, UNREVIEWED: its last round's outcome (reviews to NICE: that round's reviews)
     * reviews and fixes    of the last round whose first review completed (the attempt that counted;
     *                      an unreviewed attempt's fixes are not kept)
     * </pre>
     */
    public static SantaMetrics ofRun(Collection<? extends List<ItemOutcome>> histories) {
        long reviewed = 0;
        long first = 0;
        long nice = 0;
        long reviewsOfNice = 0;
        long reviews = 0;
        long fixes = 0;
        long escalated = 0;
        long unreviewed = 0;
        TreeMap<String, Long> byReason = new TreeMap<>();
        long sampled = 0;
        for (List<ItemOutcome> history : histories) {
            if (history.isEmpty()) {
                continue;
            }
            sampled++;
            ItemOutcome firstCompleted = null;
            ItemOutcome lastCompleted = null;
            for (ItemOutcome o : history) {
                if (o.firstReviewCompleted()) {
                    if (firstCompleted == null) {
                        firstCompleted = o;
                    }
                    lastCompleted = o;
                }
            }
            if (firstCompleted != null) {
                reviewed++;
                reviews += lastCompleted.reviews();
                fixes += lastCompleted.fixes();
                if (firstCompleted.niceOnFirstReview()) {
                    first++;
                }
            }
            ItemOutcome last = history.get(history.size() - 1);
            switch (last.outcome()) {
                case NICE -> {
                    nice++;
                    reviewsOfNice += last.reviews();
                }
                case ESCALATED -> {
                    escalated++;
                    byReason.merge(last.reason() == null ? "UNKNOWN" : last.reason().name(), 1L, Long::sum);
                }
                case UNREVIEWED -> unreviewed++;
            }
        }
        return new SantaMetrics(sampled, reviewed, first, nice, reviewsOfNice, reviews, fixes, escalated, unreviewed,
                byReason);
    }

    /** niceFirstReview / reviewed. */
    public OptionalDouble firstPassRate() {
        return ratio(niceFirstReview, reviewed);
    }

    /** reviewsOfNice / nice. */
    public OptionalDouble meanReviewsToNice() {
        return ratio(reviewsOfNice, nice);
    }

    /** reviews / reviewed. */
    public OptionalDouble meanReviewsPerItem() {
        return ratio(reviews, reviewed);
    }

    /** fixes / reviewed. */
    public OptionalDouble meanFixesPerItem() {
        return ratio(fixes, reviewed);
    }

    static OptionalDouble ratio(long num, long den) {
        return den == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) num / den);
    }
}
