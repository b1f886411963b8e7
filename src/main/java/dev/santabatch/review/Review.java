package dev.santabatch.review;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One reviewer's typed review of one item: the seed's contract shape
 * {@code {"verdict", "checks":[{"criterion","result","detail"}], "critical_issues", "suggestions"}}.
 * A review as parsed is not yet trusted: {@link ReviewValidator} decides whether it is valid.
 */
public record Review(Verdict verdict, List<Check> checks, List<String> criticalIssues, List<String> suggestions) {

    public Review {
        Objects.requireNonNull(verdict, "verdict");
        checks = List.copyOf(checks);
        criticalIssues = List.copyOf(criticalIssues);
        suggestions = List.copyOf(suggestions);
    }

    /** The first check for the criterion, if any. */
    public Optional<Check> check(String criterion) {
        return checks.stream().filter(c -> c.criterion().equals(criterion)).findFirst();
    }

    /** Parses the contract JSON strictly. */
    public static Review fromJson(String json) throws MalformedReviewException {
        return ReviewJson.read(json);
    }

    /** The contract JSON of this review. */
    public String toJson() {
        return ReviewJson.write(this);
    }
}
