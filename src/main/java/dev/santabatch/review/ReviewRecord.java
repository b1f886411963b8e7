package dev.santabatch.review;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One reviewer's outcome in one iteration, flattened for the store.
 *
 * @param reviewerId the reviewer
 * @param iteration 0 for the review of the original text, n for the review after the n-th fix
 * @param outcome REVIEWED, or the failure kind
 * @param verdict the review's verdict; {@code null} when the reviewer failed to review
 * @param checks the review's checks (empty on failure)
 * @param criticalIssues the review's critical issues after validation (empty on failure)
 * @param suggestions the review's suggestions (empty on failure)
 * @param duration the reviewer's wall time as measured by the panel
 * @param reattributedIssues critical issues without a criterion prefix attributed to a failed
 *     criterion by validation
 * @param derivedIssues failed checks without a critical issue whose detail became their issue
 * @param failure the failure message; {@code null} when reviewed
 * @param invalidKind for an invalid answer, why it was invalid
 * @param reused true when this is a review stored earlier for the same revision and reused (the
 *     reviewer was not called again); such a record is already in the store
 */
public record ReviewRecord(
        String reviewerId,
        int iteration,
        Kind outcome,
        @Nullable Verdict verdict,
        List<Check> checks,
        List<String> criticalIssues,
        List<String> suggestions,
        Duration duration,
        int reattributedIssues,
        int derivedIssues,
        @Nullable String failure,
        @Nullable InvalidReviewKind invalidKind,
        boolean reused) {

    public ReviewRecord {
        Objects.requireNonNull(reviewerId, "reviewerId");
        Objects.requireNonNull(outcome, "outcome");
        checks = List.copyOf(checks);
        criticalIssues = List.copyOf(criticalIssues);
        suggestions = List.copyOf(suggestions);
        Objects.requireNonNull(duration, "duration");
    }

    public enum Kind {
        REVIEWED,
        TRANSPORT,
        INVALID_ANSWER
    }

    static ReviewRecord of(int iteration, PanelReview pr) {
        return of(iteration, pr, false);
    }

    static ReviewRecord of(int iteration, PanelReview pr, boolean reused) {
        if (pr.outcome() instanceof ReviewOutcome.Reviewed r) {
            Review review = r.review();
            return new ReviewRecord(pr.reviewerId(), iteration, Kind.REVIEWED, review.verdict(), review.checks(),
                    review.criticalIssues(), review.suggestions(), pr.elapsed(), r.reattributedIssues(), r.derivedIssues(), null, null,
                    reused);
        }
        ReviewOutcome.FailedToReview f = (ReviewOutcome.FailedToReview) pr.outcome();
        Kind kind = f.kind() == ReviewOutcome.FailureKind.TRANSPORT ? Kind.TRANSPORT : Kind.INVALID_ANSWER;
        return new ReviewRecord(pr.reviewerId(), iteration, kind, null, List.of(), List.of(), List.of(),
                pr.elapsed(), 0, 0, f.message(), f.invalidKind(), false);
    }
}
