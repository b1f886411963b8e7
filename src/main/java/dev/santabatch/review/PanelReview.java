package dev.santabatch.review;

import java.time.Duration;
import java.util.Objects;

/**
 * One reviewer's outcome in one panel round.
 *
 * @param reviewerId the reviewer's id
 * @param criteria the criteria the reviewer declares it judges
 * @param outcome its review or failure
 * @param elapsed wall time of the reviewer's call, measured by the panel
 */
public record PanelReview(String reviewerId, java.util.Set<String> criteria, ReviewOutcome outcome, Duration elapsed) {

    public PanelReview {
        Objects.requireNonNull(reviewerId, "reviewerId");
        criteria = java.util.Set.copyOf(criteria);
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(elapsed, "elapsed");
    }
}
