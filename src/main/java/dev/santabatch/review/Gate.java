package dev.santabatch.review;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Phase 3, "naughty or nice", over one panel round.
 *
 * <ol>
 *   <li>some reviewer returned a FAIL (a failed check) → NAUGHTY, whatever happened to the others:
 *       a FAIL is a finding, and a reviewer that failed to review cannot outvote it. The critical
 *       issues of every reviewer that reviewed are merged and de-duplicated (issues of one
 *       criterion that {@link IssueSimilarity} calls the same become one issue, flagged by each
 *       reviewer that raised it), and suggestions likewise;
 *   <li>otherwise, some reviewer failed to review → UNREVIEWED;
 *   <li>no reviewer returned FAIL on any criterion and every Santa criterion was judged (PASS or
 *       FAIL) by at least one reviewer → NICE;
 *   <li>otherwise (a criterion judged by nobody) NAUGHTY.
 * </ol>
 *
 * Thread-safe when its {@link IssueSimilarity} is.
 */
public final class Gate {

    private final IssueSimilarity similarity;

    public Gate(IssueSimilarity similarity) {
        this.similarity = Objects.requireNonNull(similarity, "similarity");
    }

    /** A gate with {@link IssueSimilarity#exactNormalised()}. */
    public Gate() {
        this(IssueSimilarity.exactNormalised());
    }

    /**
     * @param santaCriteria the ids of the reviewed criteria, in rubric order
     * @param reviews one round's reviews, in panel order
     */
    public GateResult decide(List<String> santaCriteria, List<PanelReview> reviews) {
        List<String> failedReviewers = reviews.stream()
                .filter(r -> r.outcome() instanceof ReviewOutcome.FailedToReview)
                .map(PanelReview::reviewerId)
                .toList();
        boolean someFail = reviews.stream().anyMatch(r -> r.outcome() instanceof ReviewOutcome.Reviewed rv
                && rv.review().checks().stream().anyMatch(c -> c.result() == CheckResult.FAIL));
        if (!failedReviewers.isEmpty() && !someFail) {
            return new GateResult(GateVerdict.UNREVIEWED, List.of(), List.of(), List.of(), List.of(), failedReviewers);
        }
        Set<String> judged = new LinkedHashSet<>();
        Set<String> failed = new LinkedHashSet<>();
        List<MergedIssue> issues = new ArrayList<>();
        List<MergedIssue> suggestions = new ArrayList<>();
        for (PanelReview pr : reviews) {
            if (!(pr.outcome() instanceof ReviewOutcome.Reviewed reviewed)) {
                continue;
            }
            Review review = reviewed.review();
            for (Check check : review.checks()) {
                if (check.result().judged()) {
                    judged.add(check.criterion());
                }
                if (check.result() == CheckResult.FAIL) {
                    failed.add(check.criterion());
                }
            }
            for (String issue : review.criticalIssues()) {
                String criterion = ReviewValidator.criterionOf(issue, santaCriteria).orElse(null);
                merge(issues, issue, criterion, pr.reviewerId());
            }
            for (String suggestion : review.suggestions()) {
                merge(suggestions, suggestion, null, pr.reviewerId());
            }
        }
        List<String> failedCriteria = santaCriteria.stream().filter(failed::contains).toList();
        List<String> unjudged = santaCriteria.stream().filter(c -> !judged.contains(c)).toList();
        GateVerdict verdict = failed.isEmpty() && unjudged.isEmpty() ? GateVerdict.NICE : GateVerdict.NAUGHTY;
        return new GateResult(
                verdict,
                verdict == GateVerdict.NICE ? List.of() : issues,
                suggestions,
                failedCriteria,
                unjudged,
                failedReviewers);
    }

    /**
     * The decision on a panel round of a text that already carries FAILs, seen outside the round
     * (an item flagged on its current revision: a clean canary's review, a learned rule's fresh review
     * or review check, the batch fix). Each standing FAIL is a FAIL from one reviewer on this text, so
     * rule 1 applies whatever the round said: NAUGHTY, even when the round passed it or a reviewer
     * failed to review it. The standing issues are merged into the round's after its own (de-duplicated
     * as the round's own are, so an issue the round raised again reaches the fixer once), and their
     * criteria are failed.
     *
     * @param round the gate's decision on the round ({@link #decide})
     * @param santaCriteria the ids of the reviewed criteria, in rubric order
     * @param standing the standing FAILs' issues, each as {@code <reviewer>: <issue>} (several reviewers
     *     joined by commas); none leaves {@code round} as it is
     */
    public GateResult withStanding(GateResult round, List<String> santaCriteria, List<String> standing) {
        if (standing.isEmpty()) {
            return round;
        }
        List<MergedIssue> issues = new ArrayList<>(round.criticalIssues());
        Set<String> failed = new LinkedHashSet<>(round.failedCriteria());
        for (String line : standing) {
            int sep = line.indexOf(": ");
            String issue = sep > 0 ? line.substring(sep + 2) : line;
            List<String> by = sep > 0 ? List.of(line.substring(0, sep).split(",")) : List.of(STANDING);
            String criterion = ReviewValidator.criterionOf(issue, santaCriteria).orElse(null);
            if (criterion != null) {
                failed.add(criterion);
            }
            by.forEach(reviewer -> merge(issues, issue, criterion, reviewer.strip()));
        }
        return new GateResult(GateVerdict.NAUGHTY, issues, round.suggestions(),
                santaCriteria.stream().filter(failed::contains).toList(), round.unjudgedCriteria(), round.failedReviewers());
    }

    /** Who raised a standing issue whose line names no reviewer. */
    static final String STANDING = "earlier review";

    private void merge(List<MergedIssue> merged, String text, @Nullable String criterion, String reviewerId) {
        if (text.isBlank()) {
            return;
        }
        for (int i = 0; i < merged.size(); i++) {
            MergedIssue m = merged.get(i);
            if (Objects.equals(m.criterion(), criterion) && similarity.same(m.text(), text)) {
                Set<String> by = new LinkedHashSet<>(m.flaggedBy());
                by.add(reviewerId);
                merged.set(i, new MergedIssue(m.text(), m.criterion(), by));
                return;
            }
        }
        merged.add(new MergedIssue(text.strip(), criterion, Set.of(reviewerId)));
    }
}
