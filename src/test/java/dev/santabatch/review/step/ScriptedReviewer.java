package dev.santabatch.review.step;

import dev.santabatch.review.Check;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.Reviewer;
import dev.santabatch.review.Verdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Scripted reviewers for tests of the whole job: a reviewer type whose reviewers answer each request
 * with the critical issues a function gives ({@code "criterion: text"} each). The criteria the issues
 * name fail (their first issue's text as the check's detail), every other criterion passes; no issue
 * is a PASS.
 */
public final class ScriptedReviewer {

    private ScriptedReviewer() {}

    public static ReviewerType answering(Function<ReviewRequest, List<String>> issues) {
        return spec -> new Reviewer() {
            @Override
            public String id() {
                return spec.id();
            }

            @Override
            public Set<String> criteria() {
                return new LinkedHashSet<>(spec.criteria());
            }

            @Override
            public ReviewOutcome review(ReviewRequest request) {
                List<String> found = issues.apply(request);
                Map<String, String> failed = new LinkedHashMap<>();
                for (String issue : found) {
                    int colon = issue.indexOf(':');
                    failed.putIfAbsent(issue.substring(0, colon), issue.substring(colon + 1).strip());
                }
                List<Check> checks = new ArrayList<>();
                for (var c : request.rubric()) {
                    String detail = failed.get(c.id());
                    checks.add(new Check(c.id(), detail != null ? CheckResult.FAIL : CheckResult.PASS, detail != null ? detail : "ok"));
                }
                return new ReviewOutcome.Reviewed(new Review(found.isEmpty() ? Verdict.PASS : Verdict.FAIL, checks, List.copyOf(found),
                        List.of()), Duration.ofMillis(1));
            }
        };
    }
}
