package dev.santabatch.stats;

import dev.santabatch.review.SantaOutcome;
import dev.santabatch.review.SantaReason;
import dev.santabatch.review.SantaResult;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The seed's per-item metrics over the sampled items of a round (or of a run).
 *
 * <pre>
 * reviewed          = sampled items with at least one completed panel review (reviews ≥ 1)
 * first-pass rate   = items NICE on their first review (NICE, 0 fixes) / reviewed
 * mean reviews to NICE = Σ reviews of NICE items / NICE items   (1 = nice on the first review)
 * mean reviews per item = Σ reviews / reviewed      (all reviewed items, NICE or not: for cost)
 * mean fixes per item   = Σ fixes / reviewed
 * </pre>
 *
 * Ratios are empty when their denominator is 0. Escalations are counted in total and per {@link
 * SantaReason}.
 *
 * @param sampled sampled items counted
 * @param reviewed sampled items with reviews ≥ 1
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
     */
    public record ItemOutcome(SantaOutcome outcome, @Nullable SantaReason reason, int reviews, int fixes) {
        public ItemOutcome {
            Objects.requireNonNull(outcome, "outcome");
            if (reviews < 0 || fixes < 0) {
                throw new IllegalArgumentException("negative reviews or fixes");
            }
            if (outcome == SantaOutcome.NICE && reviews < 1) {
                throw new IllegalArgumentException("a NICE item was reviewed at least once");
            }
        }

        public static ItemOutcome of(SantaResult r) {
            return new ItemOutcome(r.outcome(), r.reason(), r.reviewsToNice(), r.fixes());
        }
    }

    public SantaMetrics {
        escalationsByReason = Map.copyOf(new TreeMap<>(escalationsByReason));
    }

    /** The metrics of {@code items}. */
    public static SantaMetrics of(Collection<ItemOutcome> items) {
        long reviewed = 0;
        long first = 0;
        long nice = 0;
        long reviewsOfNice = 0;
        long reviews = 0;
        long fixes = 0;
        long escalated = 0;
        long unreviewed = 0;
        TreeMap<String, Long> byReason = new TreeMap<>();
        for (ItemOutcome i : items) {
            if (i.reviews() >= 1) {
                reviewed++;
                reviews += i.reviews();
                fixes += i.fixes();
            }
            switch (i.outcome()) {
                case NICE -> {
                    nice++;
                    reviewsOfNice += i.reviews();
                    if (i.fixes() == 0) {
                        first++;
                    }
                }
                case ESCALATED -> {
                    escalated++;
                    byReason.merge(i.reason() == null ? "UNKNOWN" : i.reason().name(), 1L, Long::sum);
                }
                case UNREVIEWED -> unreviewed++;
            }
        }
        return new SantaMetrics(items.size(), reviewed, first, nice, reviewsOfNice, reviews, fixes, escalated,
                unreviewed, byReason);
    }

    /** The sum of two rounds' metrics. */
    public SantaMetrics plus(SantaMetrics o) {
        TreeMap<String, Long> byReason = new TreeMap<>(escalationsByReason);
        o.escalationsByReason.forEach((k, v) -> byReason.merge(k, v, Long::sum));
        return new SantaMetrics(sampled + o.sampled, reviewed + o.reviewed, niceFirstReview + o.niceFirstReview,
                nice + o.nice, reviewsOfNice + o.reviewsOfNice, reviews + o.reviews, fixes + o.fixes,
                escalated + o.escalated, unreviewed + o.unreviewed, byReason);
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
