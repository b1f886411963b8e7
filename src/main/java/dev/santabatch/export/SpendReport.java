package dev.santabatch.export;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.model.CallCounts;
import dev.santabatch.model.LlmRoles;
import dev.santabatch.model.SpendSnapshot;
import dev.santabatch.model.Tally;
import dev.santabatch.model.SpendStore;
import dev.santabatch.stats.CostShares;
import dev.santabatch.stats.Usage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The model-call part of {@code report.json}, as the call governor counted it over every execution
 * of the run: calls (HTTP attempts, retries included), transport retries, answer retries, errors by kind, input and output
 * tokens and estimated cost, for the run, per role and per round; and the batch fix's matcher
 * calls as a share of the eligible items, per pattern.
 */
public final class SpendReport {

    private SpendReport() {}

    /** {@code run.model_calls}: the run's, per round, the matcher's; the note says what is counted. */
    public record ModelCalls(Calls run, List<Calls> rounds, Matcher matcher, String note) {}

    /** Calls, retries, errors, tokens and cost: of the run or a round ({@code round}), with errors by kind and per role; or of a role. */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Calls(@Nullable Integer round, long calls, long retries, long answerRetries, long errors,
            long inputTokens, long outputTokens, long tokens, double estimatedCost, @Nullable Map<String, Long> errorsByKind,
            @Nullable Map<String, Calls> byRole) {

        static Calls of(@Nullable Integer round, Tally t) {
            Map<String, Calls> roles = new LinkedHashMap<>();
            t.byRole().forEach((role, c) -> roles.put(role, of(null, c, null, null)));
            return of(round, t.total(), new TreeMap<>(t.errorsByKind()), roles);
        }

        private static Calls of(@Nullable Integer round, CallCounts c, @Nullable Map<String, Long> errorsByKind,
                @Nullable Map<String, Calls> byRole) {
            return new Calls(round, c.calls(), c.retries(), c.answerRetries(), c.errors(), c.inputTokens(),
                    c.outputTokens(), c.tokens(), c.cost(), errorsByKind, byRole);
        }
    }

    /** The batch fix's matcher requests against the eligible items, per pattern. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Matcher(long requests, @Nullable Double shareOfEligible, List<MatchPattern> patterns, String method) {}

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record MatchPattern(String id, int round, int pattern, long eligible, String narrowing, long offlineChecks,
            long candidatesFound, long candidates, long requests, @Nullable Double shareOfEligible) {}

    public static ModelCalls render(SpendSnapshot spend, List<SpendStore.MatchStat> matching) {
        List<Calls> rounds = new ArrayList<>();
        spend.rounds().forEach((n, t) -> rounds.add(Calls.of(n, t)));
        return new ModelCalls(Calls.of(null, spend.run()), rounds, matcher(matching),
                "calls are HTTP attempts sent, every retry included; retries are transport retries (another HTTP"
                + " attempt of the same call after a 429, 5xx, timeout or connection failure); answer_retries are fresh"
                + " calls made because the previous answer was unusable (an invalid review, an empty, truncated or"
                + " unchanged fix); cost is estimated from the job file's prices (0 where none are given); errors count"
                + " failed attempts and unusable answers by kind; matcher.requests are the batch fix's match requests"
                + " (one per candidate and pattern), by_role.matcher.calls the HTTP attempts they took");
    }

    /**
     * The run's model calls and tokens against full verification (the seed claims 15-20 %), from
     * what the governor counted over every execution: reviewers are every {@code reviewer:*} role,
     * the fixer the {@code fixer} role (Santa fixes), everything else (the matcher, which also
     * returns the batch fix's corrected text) counts as actual use but not in the baselines. N is
     * {@code items}, r the panel's model reviewers; see {@link CostShares} for the formulas. Calls
     * are HTTP attempts, retries included; tokens per call are over those attempts.
     */
    public static Report.ModelCost modelCost(SpendSnapshot spend, long items, int modelReviewers,
            double meanReviewsPerItem, double meanFixesPerItem) {
        Usage review = Usage.NONE;
        Usage fix = Usage.NONE;
        Usage other = Usage.NONE;
        for (Map.Entry<String, CallCounts> e : spend.run().byRole().entrySet()) {
            Usage u = new Usage(e.getValue().calls(), e.getValue().tokens());
            if (e.getKey().startsWith(LlmRoles.reviewer(""))) {
                review = review.plus(u);
            } else if (e.getKey().equals(LlmRoles.FIXER)) {
                fix = fix.plus(u);
            } else {
                other = other.plus(u);
            }
        }
        Usage actual = review.plus(fix).plus(other);
        Report.ByKind byKind = new Report.ByKind(review, fix, other);
        if (modelReviewers < 1) {
            return new Report.ModelCost(actual.calls(), actual.tokens(), byKind, NullNode.getInstance(),
                    "no model reviewer in the panel: no model baseline (offline checks are counted apart)", null, null,
                    null, null, null, null, null, null, null, null, null);
        }
        CostShares c = CostShares.of(items, modelReviewers, meanReviewsPerItem, meanFixesPerItem, review, fix, other);
        return new Report.ModelCost(actual.calls(), actual.tokens(), byKind, null, null, items, modelReviewers,
                meanReviewsPerItem, meanFixesPerItem, review.tokensPerCall(), fix.tokensPerCall(),
                new Report.Pair(c.reviewOnceCalls(), c.reviewOnceTokens()),
                new Report.Pair(c.fullSantaCalls(), c.fullSantaTokens()),
                new Report.Pair(value(c.shareOfReviewOnceCalls()), value(c.shareOfReviewOnceTokens())),
                new Report.Pair(value(c.shareOfFullSantaCalls()), value(c.shareOfFullSantaTokens())),
                "actual = every model call of the run (reviewers, fixer, matcher), in calls and in tokens;"
                + " baselines: N x r (every item reviewed once by every model reviewer, at the observed tokens per review"
                + " call) and N x r x mean reviews per item + N x mean fixes per item (full Santa on every item, at the"
                + " observed tokens per review and fix call); the Santa Method's claim: 15-20 % of full verification");
    }

    private static @org.jspecify.annotations.Nullable Double value(java.util.OptionalDouble d) {
        return d.isPresent() ? d.getAsDouble() : null;
    }

    /** Matcher calls per pattern against the eligible items the batch fix had to choose from. */
    static Matcher matcher(List<SpendStore.MatchStat> stats) {
        List<MatchPattern> patterns = new ArrayList<>();
        long calls = 0;
        long eligible = 0;
        for (SpendStore.MatchStat s : stats) {
            patterns.add(new MatchPattern(dev.santabatch.rounds.LoopStore.PatternRow.id(s.round(), s.patternNo()),
                    s.round(), s.patternNo(), s.eligible(), s.method(), s.offlineChecks(), s.found(), s.candidates(),
                    s.calls(), s.eligible() == 0 ? null : s.calls() / (double) s.eligible()));
            calls += s.calls();
            eligible += s.eligible();
        }
        return new Matcher(calls, eligible == 0 ? null : calls / (double) eligible, patterns, stats.isEmpty()
                ? "no model matcher ran (an all-offline panel, or no matcher model: the batch fix runs the panel's"
                        + " checks on every eligible item)"
                : "candidates narrowed without model calls, by meaning: the eligible items with a sentence whose"
                        + " embedding is at least matcher.min-similarity from a failing sentence of the pattern's sampled"
                        + " items, ranked by that similarity (meaning); for criteria the offline reviewers judge"
                        + " (on-specification, original), also the items their per-item checks flag on the round's catalog,"
                        + " ranked after those (meaning+offline-checks: the semantic reviewer's sentence typicality and"
                        + " near-duplicates, the lexical reviewer's checks); then one matcher request per candidate and pattern, at most max-candidate-share of the eligible items"
                        + " (candidates_found is before that cap); shares are matcher requests over the eligible items;"
                        + " requests count each question once: a transport retry of one is an extra HTTP attempt in"
                        + " by_role.matcher.calls, not an extra request here");
    }

    /**
     * The panel and its flags: reviewers that share an endpoint and model share its biases.
     *
     * @param same {@link JobDefinition#sameModelReviewers(java.util.function.Function)}, resolved in
     *     the environment the models see
     */
    public static Panel panel(JobDefinition job, List<String> same) {
        return new Panel(job.reviewers().stream().map(r -> new PanelReviewer(r.id(), r.type(),
                r.model() == null ? null : r.model().model(), r.model() == null ? null
                        : r.model().baseUrl() == null ? "(default)" : r.model().baseUrl())).toList(), same,
                same.isEmpty() ? null : "reviewers share an endpoint and model (" + String.join("; ", same)
                        + "): they share its biases, so their agreement says little; use different model families");
    }

    /** {@code panel}: the reviewers, and those that share an endpoint and model with the flag saying so. */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Panel(List<PanelReviewer> reviewers, List<String> sameModelReviewers, @Nullable String flag) {}

    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record PanelReviewer(String id, String type, @Nullable String model, @Nullable String baseUrl) {}
}
