package dev.santabatch.review;

import dev.santabatch.config.Criterion;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/** Scripted reviewers, fixers and review builders for the review package's tests. */
final class ReviewFixtures {

    private ReviewFixtures() {}

    static Criterion criterion(String id) {
        return new Criterion(id, id, id + " holds", id + " broken", Criterion.CheckedBy.SANTA, List.of());
    }

    static List<Criterion> criteria(String... ids) {
        return java.util.Arrays.stream(ids).map(ReviewFixtures::criterion).toList();
    }

    /** A review with the given result per criterion; every FAIL gets an issue "<id>: <id> is wrong". */
    static Review review(Map<String, CheckResult> results) {
        List<Check> checks = new ArrayList<>();
        List<String> issues = new ArrayList<>();
        results.forEach((id, r) -> {
            checks.add(new Check(id, r, r == CheckResult.FAIL ? id + " is wrong" : ""));
            if (r == CheckResult.FAIL) {
                issues.add(id + ": " + id + " is wrong");
            }
        });
        Verdict verdict = results.containsValue(CheckResult.FAIL) ? Verdict.FAIL : Verdict.PASS;
        return new Review(verdict, checks, issues, List.of());
    }

    static Review passAll(List<String> ids) {
        Map<String, CheckResult> m = new LinkedHashMap<>();
        ids.forEach(id -> m.put(id, CheckResult.PASS));
        return review(m);
    }

    /** Fails {@code failed} with one issue, passes the other criteria. */
    static Review failOn(List<String> ids, String failed, String issue) {
        List<Check> checks = new ArrayList<>();
        for (String id : ids) {
            checks.add(new Check(id, id.equals(failed) ? CheckResult.FAIL : CheckResult.PASS, ""));
        }
        return new Review(Verdict.FAIL, checks, List.of(issue), List.of());
    }

    static ReviewOutcome reviewed(Review review) {
        return new ReviewOutcome.Reviewed(review, Duration.ofMillis(5));
    }

    static ReviewOutcome transportFailure() {
        return new ReviewOutcome.FailedToReview(ReviewOutcome.FailureKind.TRANSPORT, "connection reset");
    }

    /** A reviewer playing one scripted outcome per call; records what it was given. */
    /** A reviewer judging {@code criteria} whose every review is what {@code answer} gives (or throws). */
    static Reviewer answering(String id, Set<String> criteria, java.util.function.Supplier<ReviewOutcome> answer) {
        return new Reviewer() {
            @Override
            public String id() {
                return id;
            }

            @Override
            public Set<String> criteria() {
                return Set.copyOf(criteria);
            }

            @Override
            public ReviewOutcome review(ReviewRequest request) {
                return answer.get();
            }
        };
    }

    static final class ScriptedReviewer implements Reviewer {
        final String id;
        final Set<String> criteria;
        final Deque<ReviewOutcome> script;
        final List<ReviewRequest> requests = Collections.synchronizedList(new ArrayList<>());

        ScriptedReviewer(String id, Set<String> criteria, List<ReviewOutcome> script) {
            this.id = id;
            this.criteria = Set.copyOf(criteria);
            this.script = new ArrayDeque<>(script);
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public Set<String> criteria() {
            return criteria;
        }

        @Override
        public synchronized ReviewOutcome review(ReviewRequest request) {
            requests.add(request);
            if (script.isEmpty()) {
                throw new AssertionError("reviewer " + id + " called more often than scripted");
            }
            return script.poll();
        }
    }

    /**
     * A reviewer factory whose every panel holds new reviewer instances; reviewer {@code id} plays
     * the next outcome of its script in each round.
     */
    static final class ScriptedPanel implements ReviewerFactory {
        final Map<String, Deque<ReviewOutcome>> scripts = new LinkedHashMap<>();
        final Map<String, Set<String>> judged = new HashMap<>();
        final List<List<ScriptedReviewer>> panels = new ArrayList<>();

        ScriptedPanel reviewer(String id, Set<String> criteria, ReviewOutcome... rounds) {
            scripts.put(id, new ArrayDeque<>(List.of(rounds)));
            judged.put(id, criteria);
            return this;
        }

        @Override
        public synchronized List<Reviewer> newPanel() {
            List<ScriptedReviewer> panel = new ArrayList<>();
            scripts.forEach((id, script) -> {
                if (script.isEmpty()) {
                    throw new AssertionError("reviewer " + id + " asked for more rounds than scripted");
                }
                panel.add(new ScriptedReviewer(id, judged.get(id), List.of(script.poll())));
            });
            panels.add(panel);
            return List.copyOf(panel);
        }

        List<ScriptedReviewer> allInstances() {
            return panels.stream().flatMap(List::stream).toList();
        }
    }

    /** A fixer playing scripted outcomes; records every request. */
    static final class ScriptedFixer implements Fixer {
        final Deque<FixOutcome> script;
        final List<FixRequest> requests = new ArrayList<>();
        final AtomicInteger calls = new AtomicInteger();
        /** Calls announced as retries of an unusable fix (answer retries), with the call count then. */
        final List<Integer> retryingAt = new ArrayList<>();

        ScriptedFixer(FixOutcome... script) {
            this.script = new ArrayDeque<>(List.of(script));
        }

        @Override
        public synchronized FixOutcome fix(FixRequest request) {
            calls.incrementAndGet();
            requests.add(request);
            if (script.isEmpty()) {
                throw new AssertionError("fixer called more often than scripted");
            }
            return script.poll();
        }

        @Override
        public synchronized void retrying(FixRequest request) {
            retryingAt.add(calls.get());
        }
    }

    static Set<String> set(String... ids) {
        return new LinkedHashSet<>(List.of(ids));
    }
}
