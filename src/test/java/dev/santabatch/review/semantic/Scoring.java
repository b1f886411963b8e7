package dev.santabatch.review.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.Criterion;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.review.Check;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.ReviewValidation;
import dev.santabatch.review.ReviewValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Predicate;

/** Reviews every item of a catalog and scores the reviews against what is expected (tests only). */
final class Scoring {

    static final String TASK = "Write a product description of 2 to 5 sentences for an online shop. Describe only the product\n"
            + "named in the source facts, using its brand, category, price and specifications exactly as given.\n"
            + "Make no medical or absolute claims. Supplements must carry the shop's FDA disclaimer. Each\n"
            + "description must be written for its own product, not reused from another.\n";

    static final List<Criterion> RUBRIC = List.of(
            new Criterion("compliance", "Compliance", "no banned claims", "banned term", Criterion.CheckedBy.RULES, List.of()),
            new Criterion("on-specification", "On specification", "Every sentence is about this item's own product.",
                    "A sentence, or the whole text, about another product or an unrelated topic.", Criterion.CheckedBy.SANTA, List.of()),
            new Criterion("original", "Original", "The text is written for this item, not shared boilerplate.",
                    "The text is a copy or paraphrase of another item's text.", Criterion.CheckedBy.SANTA, List.of()));

    static final List<String> REVIEWED = List.of("on-specification", "original");

    private Scoring() {}

    static ReviewRequest request(SnapshotItem it) {
        return new ReviewRequest(TASK, it.id(), it.source(), it.content(), RUBRIC.subList(1, 3));
    }

    /** Reviews every item on the pool; asserts every review is valid under the contract. */
    static Map<String, Review> reviewAll(SemanticReviewer reviewer, List<SnapshotItem> items, ExecutorService pool) throws Exception {
        Map<String, Review> out = new ConcurrentHashMap<>();
        List<Future<?>> fs = new ArrayList<>();
        ReviewValidator validator = new ReviewValidator();
        for (SnapshotItem it : items) {
            fs.add(pool.submit(() -> {
                ReviewOutcome o = reviewer.review(request(it));
                assertThat(o).isInstanceOf(ReviewOutcome.Reviewed.class);
                Review r = ((ReviewOutcome.Reviewed) o).review();
                ReviewValidation v = validator.validate(r, REVIEWED, reviewer.criteria());
                assertThat(v).as("review of %s: %s", it.id(), r).isInstanceOf(ReviewValidation.Valid.class);
                assertThat(((ReviewValidation.Valid) v).attributed()).as("issues attributed by validation").isFalse();
                out.put(it.id(), r);
            }));
        }
        for (Future<?> f : fs) {
            f.get();
        }
        return out;
    }

    static boolean failed(Review r, String criterion) {
        return r.check(criterion).map(Check::result).orElse(CheckResult.NOT_EVALUATED) == CheckResult.FAIL;
    }

    static boolean failedAny(Review r) {
        return failed(r, "on-specification") || failed(r, "original");
    }

    /**
     * Recall over the targets (each caught by its own criterion) and precision over targets and
     * clean items only (any FAIL of a clean item is a false positive, any FAIL of a target a true
     * one). Every other item (the other method's cases, i.e. copies, light edits and named drift, and
     * items whose only defects are the rules' numbers, terms or disclaimer) is left out of both and
     * counted in {@code excluded}: a flag on it is neither credited nor charged.
     */
    record Figures(String name, int targets, int caught, int clean, int cleanFlagged, int flaggedTargets, int excluded, int excludedFlagged) {
        double recall() {
            return targets == 0 ? 1 : (double) caught / targets;
        }

        double precision() {
            int flagged = flaggedTargets + cleanFlagged;
            return flagged == 0 ? 1 : (double) flaggedTargets / flagged;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%-34s targets %4d caught %4d recall %.3f | clean %4d flagged %3d | precision %.3f"
                            + " (%d targets flagged; %d other items left out, %d of them flagged)",
                    name, targets, caught, recall(), clean, cleanFlagged, precision(), flaggedTargets, excluded, excludedFlagged);
        }
    }

    static Figures figures(String name, Map<String, Review> reviews, List<String> ids, Predicate<String> target,
            java.util.function.Function<String, String> criterionOf, Predicate<String> clean) {
        int targets = 0;
        int caught = 0;
        int cleanN = 0;
        int cleanFlagged = 0;
        int flaggedTargets = 0;
        int excluded = 0;
        int excludedFlagged = 0;
        for (String id : ids) {
            Review r = reviews.get(id);
            if (target.test(id)) {
                targets++;
                if (failed(r, criterionOf.apply(id))) {
                    caught++;
                }
                if (failedAny(r)) {
                    flaggedTargets++;
                }
            } else if (clean.test(id)) {
                cleanN++;
                if (failedAny(r)) {
                    cleanFlagged++;
                }
            } else {
                excluded++;
                if (failedAny(r)) {
                    excludedFlagged++;
                }
            }
        }
        return new Figures(name, targets, caught, cleanN, cleanFlagged, flaggedTargets, excluded, excludedFlagged);
    }
}
