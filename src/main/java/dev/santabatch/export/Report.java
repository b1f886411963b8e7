package dev.santabatch.export;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.santabatch.stats.Usage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * {@code report.json} of a run that exported, as Jackson writes it: keys in the order of the
 * components, snake_case; a {@code null} component is left out unless it is marked to be written
 * as {@code null}. The sections whose keys other packages name at run time (carry-over's kinds,
 * the plan's stored estimate, the canaries' reviewers and the panel fit's figures) are their maps.
 * Read back with {@link RunReport#load}, which ignores keys it does not know.
 */
@JsonInclude(Include.NON_NULL)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Report(String status, @Nullable String reason, String job, String runId, Input input, Outputs outputs,
        @Nullable Map<String, Object> carryOver, StrataReport.@Nullable Block strata, PrePass prePass,
        List<LearnedRule> learnedRules, PatternMemoryReport.@Nullable Block patternMemory, List<Round> rounds,
        @Nullable List<Unreachable> unreachablePatterns, Run run, @Nullable Map<String, Object> plan,
        @JsonProperty("escape_rates_against_ground_truth") GroundTruthEscapes.@Nullable Result groundTruth,
        List<String> warnings, SpendReport.@Nullable Panel panel, @Nullable Map<String, Object> canaries,
        @Nullable Map<String, Object> panelFit, @Nullable Audit escapeRateAudit, @Nullable BudgetStop budgetStop,
        @Nullable Escalations escalations) implements ReportFile {

    /** The seed targets' escape-rate row, if the report has one. */
    public Optional<Target> escapeTarget() {
        return run.seedTargets() == null ? Optional.empty()
                : run.seedTargets().stream().filter(t -> RunReport.ESCAPE_RATE.equals(t.metric())).findFirst();
    }

    /**
     * This report with the human spot-check: {@code escape_rate_audit} (when there is one) and the
     * seed targets' escape-rate row read from it ({@link RunReport#escapeTarget}).
     */
    public Report withAudit(@Nullable Audit audit, Path runDir) {
        List<Target> targets = null;
        if (run.seedTargets() != null) {
            targets = new ArrayList<>(run.seedTargets());
            targets.replaceAll(t -> RunReport.ESCAPE_RATE.equals(t.metric())
                    ? RunReport.escapeTarget(audit, groundTruth, runDir) : t);
        }
        Run r = new Run(run.rounds, run.firstPassRate, run.meanReviewsToNice, run.sampled, run.escalatedInReview,
                run.escalationsByCause, run.escalationsByReason, run.issuesReattributed, run.issuesDerivedFromDetail,
                run.issueTaxonomyByCriterion, run.issueTaxonomyByPattern, run.agreement, run.bound, targets,
                run.modelCalls, run.cost);
        return new Report(status, reason, job, runId, input, outputs, carryOver, strata, prePass, learnedRules,
                patternMemory, rounds, unreachablePatterns, r, plan, groundTruth, warnings, panel, canaries, panelFit,
                audit != null ? audit : escapeRateAudit, budgetStop, escalations);
    }

    /** {@code input}: records read, accepted as items, rejected. */
    public record Input(long records, long items, long rejects) {}

    /**
     * {@code outputs}: what an export wrote, per the shipping invariant; a failed run's {@code shipped}
     * 0 and {@code note}.
     *
     * @param shippedFile {@code catalog.csv} (clean, fully-reviewed) or {@code verified.csv}
     * @param shipped items in {@code shippedFile}
     * @param unverified items in {@code unverified.csv}
     * @param held items in {@code escalations.csv}
     * @param failUnresolved of {@code held}, the items held for a FAIL on their current revision that
     *     the run ended before resolving ({@code FAIL_UNRESOLVED})
     */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Outputs(@Nullable String shippedFile, long shipped, @Nullable Long unverified, @Nullable Long held,
            @Nullable Long failUnresolved, @Nullable String note) {

        /** An export's outputs. */
        public Outputs(String shippedFile, long shipped, long unverified, long held, long failUnresolved) {
            this(shippedFile, shipped, unverified, held, failUnresolved, null);
        }
    }

    /** {@code pre_pass}: found, fixed and escalated per rule. */
    public record PrePass(List<RuleCount> rules) {}

    public record RuleCount(String rule, String criterion, long found, long fixed, long escalated) {}

    /** One round of {@code rounds}. */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Round(int round, long seed, long eligible, int sampleSize, boolean fullReview,
            Map<String, Quota> strata, String decision, @Nullable Integer acceptanceNumber, @Nullable Integer failures,
            @JsonInclude(Include.ALWAYS) @Nullable Double firstPassRate,
            @JsonInclude(Include.ALWAYS) @Nullable Double meanReviewsToNice, long nice, long niceFirstReview,
            long escalated, long unreviewed, Map<String, Long> escalationsByReason, long issuesReattributed,
            long issuesDerivedFromDetail, Map<String, Long> issueTaxonomyByCriterion, Agreement agreement,
            List<Pattern> patterns, @Nullable ModelCost cost) {

        Round withCost(ModelCost c) {
            return new Round(round, seed, eligible, sampleSize, fullReview, strata, decision, acceptanceNumber, failures,
                    firstPassRate, meanReviewsToNice, nice, niceFirstReview, escalated, unreviewed, escalationsByReason,
                    issuesReattributed, issuesDerivedFromDetail, issueTaxonomyByCriterion, agreement, patterns, c);
        }
    }

    /** A stratum's sample in a round. */
    public record Quota(int sampled, int eligible) {}

    /**
     * Reviewer agreement. Without an item the whole panel reviewed, only the issue counts and why
     * kappa is undefined; kappa, positive and negative agreement are numbers or a word.
     */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Agreement(long issues, long flaggedByAll, long flaggedByOne, @Nullable Long flaggedBySome,
            @Nullable String kappaMethod, @Nullable Integer items, @Nullable Double rawAgreement,
            @Nullable Long itemsFlagged, @Nullable Object positiveAgreement, @Nullable Object negativeAgreement,
            Object kappa, @Nullable String kappaWhy, @Nullable Boolean lowAgreement, @Nullable String flag) {}

    /** A failure pattern of a round; {@code first_seen_in} and {@code known_as} when an earlier run had it. */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Pattern(String id, int pattern, String criterion, String label, int sampledItems, double sampleShare,
            boolean systematic, long matched, long fixed, long escalated, @Nullable String firstSeenIn,
            @Nullable String knownAs) {}

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record PatternCount(String id, String criterion, String label, int sampledItems) {}

    /** A pattern of the last round the batch fix cannot reach. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Unreachable(String id, String criterion, String label, int sampledItems, int sampleSize,
            double prevalence, @JsonProperty("interval_95") List<Double> interval95, long estimatedItems,
            @JsonProperty("estimated_items_95") List<Long> estimatedItems95, FellShort batchFixThatFellShort,
            String wouldReachIt) {}

    /** The batch fix that fell short, with the model matcher's narrowing when there was one. */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record FellShort(String pattern, long predictedItems, long reached, @Nullable Long eligible,
            @Nullable Long candidatesFound, @Nullable Long candidates) {}

    /** {@code run}: the run's figures over every round. */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Run(int rounds, @JsonInclude(Include.ALWAYS) @Nullable Double firstPassRate,
            @JsonInclude(Include.ALWAYS) @Nullable Double meanReviewsToNice, long sampled, long escalatedInReview,
            Map<String, Long> escalationsByCause, Map<String, Long> escalationsByReason, long issuesReattributed,
            long issuesDerivedFromDetail, Map<String, Long> issueTaxonomyByCriterion,
            List<PatternCount> issueTaxonomyByPattern, Agreement agreement, Bound bound,
            @Nullable List<Target> seedTargets, SpendReport.@Nullable ModelCalls modelCalls, @Nullable Cost cost) {}

    /** {@code run.cost}: the model calls against full verification; the offline reviewers' checks apart. */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Cost(ModelCost model, @Nullable OfflineChecks offlineChecks) {}

    /** {@code run.cost.offline_checks}: the offline reviewers' checks (and an offline fixer's fixes) against N x offline reviewers. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record OfflineChecks(int offlineReviewers, long reviewChecks, long batchFixChecks, long fixes, long total,
            @Nullable Double shareOfEveryItemReviewedOnce, @Nullable Double shareOfFullSantaOnEveryItem,
            double baselineEveryItemReviewedOnce, double baselineFullSanta, String note) {}

    /** A learned rule with its evidence and job-file fragment ({@link RunReport#learnedRules}). */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record LearnedRule(String rule, @JsonInclude(Include.ALWAYS) @Nullable String pattern, String criterion,
            String shape, String status, @JsonInclude(Include.ALWAYS) @Nullable String reason, int support,
            double looRecall, int flagged, int eligible, double cap, int freshReviews, ReviewCheck reviewCheck, long fixed,
            LaterSamples laterSamples, String fragment, @Nullable Remembered remembered) {}

    public record ReviewCheck(int reviewed, int failed) {}

    public record LaterSamples(int flagged, int confirmed, @Nullable Double precision) {}

    /** Where a remembered rule was learned and carried from, and its re-validation on round 1's sample. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Remembered(String learnedInRun, String learnedAs, String carriedFromRun,
            @JsonProperty("round_1_sample") LaterSamples round1Sample, String verdict) {}

    /** {@code budget_stop}: why a budget stopped the run and what it left undone (the round's part when one was open). */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record BudgetStop(String reason, @Nullable Integer round, @Nullable Integer sampled,
            @Nullable Long sampledNotReviewed, long eligibleItemsLeft, String resume) {}

    /** {@code escalations}: the count and the first rows of {@code escalations.csv} without their texts. */
    public record Escalations(long total, int listed, List<Escalation> items, String note) {}

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Escalation(String itemId, int round, String cause, @Nullable String reason, @Nullable String pattern,
            List<String> openIssues) {}

    /**
     * The model calls and tokens, by kind, against full verification ({@link SpendReport#modelCost});
     * without a model reviewer {@code shares} is written as {@code null}, with {@code why}.
     */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ModelCost(long calls, long tokens, ByKind byKind, @Nullable JsonNode shares, @Nullable String why,
            @Nullable Long items, @Nullable Integer modelReviewers, @Nullable Double meanReviewsPerItem,
            @Nullable Double meanFixesPerItem, @Nullable Double tokensPerReviewCall, @Nullable Double tokensPerFixCall,
            @Nullable Pair baselineEveryItemReviewedOnce, @Nullable Pair baselineFullSanta,
            @Nullable Pair shareOfEveryItemReviewedOnce, @Nullable Pair shareOfFullSantaOnEveryItem,
            @Nullable String method) {}

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ByKind(Usage reviewers, Usage fixer, Usage matcherAndOther) {}

    /** Calls and tokens: a count, a baseline or a share ({@code null}: no baseline to share). */
    public record Pair(@JsonInclude(Include.ALWAYS) @Nullable Number calls,
            @JsonInclude(Include.ALWAYS) @Nullable Number tokens) {}

    /**
     * {@code run.bound}: stated (from the last round's clean sample, or the strata's) or why not;
     * then what it covers, with the panel's canary sensitivity.
     */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Bound(boolean stated, @Nullable String why, @Nullable Integer strata, @Nullable Integer sampleSize,
            @Nullable Long eligible, @Nullable Integer roundsLookedAt, @Nullable Integer failures,
            @Nullable Integer acceptanceNumber, @Nullable Double confidence, @Nullable Double defectRateBelow,
            @Nullable String sentence, @Nullable String warning, @Nullable Long escalatedItemsCountedApart,
            @Nullable List<String> criteriaJudgedByPanel, @Nullable List<String> rulesOnlyCriteria,
            @Nullable String rulesOnlyNote, @Nullable String covers, @Nullable Sensitivity panelSensitivity,
            @Nullable Object allDefectsOfTheseKindsBelow, @Nullable String allDefectsMethod) {

        static Bound notStated(String why, @Nullable String sentence) {
            return new Bound(false, why, null, null, null, null, null, null, null, null, sentence, null, null, null,
                    null, null, null, null, null, null);
        }

        Bound counting(long escalated) {
            return new Bound(stated, why, strata, sampleSize, eligible, roundsLookedAt, failures, acceptanceNumber,
                    confidence, defectRateBelow, sentence, warning, escalated, null, null, null, null, null, null, null);
        }
    }

    /** The panel's canary sensitivity: caught of planted, with the estimate when measured. */
    @JsonInclude(Include.NON_NULL)
    public record Sensitivity(long caught, long of, Object estimate,
            @JsonProperty("interval_95") @Nullable List<Double> interval95) {}

    /** A seed target: the Santa Method's figure against its target; the escape rate with its source. */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Target(String metric, String target, @JsonInclude(Include.ALWAYS) @Nullable Double measured,
            String status, @Nullable String source, @Nullable Long audited, @Nullable Long defective,
            @JsonProperty("interval_95") @Nullable List<Double> interval95, @Nullable String howToMeasure,
            @Nullable Object groundTruthEscapeRateOfShipped, @Nullable String groundTruthNote) {}

    /** {@code escape_rate_audit}: the human spot-check, defective among audited with its exact interval. */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Audit(long audited, long defective, @Nullable Double escapeRate,
            @JsonProperty("interval_95") @Nullable List<Double> interval95, @Nullable String method,
            @Nullable Long notAudited) {}

    /** The figures {@code history} lists of this report and the run's patterns ({@link dev.santabatch.history.RunSummary}). */
    public dev.santabatch.history.RunSummary historyFigures(dev.santabatch.history.PatternMemory.Counts patterns) {
        Report report = this;
        var run = report.run();
        Map<?, ?> carry = report.carryOver() == null ? Map.of() : report.carryOver();
        boolean carrying = Boolean.TRUE.equals(carry.get("enabled"));
        SpendReport.@Nullable Calls calls = SummaryEvent.modelCallsOfRun(report);
        Long changed = carrying ? whole(map(carry.get("judged_afresh")).get("changed")) : null;
        var audit = report.escapeRateAudit();
        return new dev.santabatch.history.RunSummary(report.status(), report.input().items(), changed,
                carrying ? orZero(whole(carry.get("carried"))) : 0,
                report.outputs().shipped(), orZero(report.outputs().held()), run.firstPassRate(),
                patterns.fresh(),
                patterns.seenAgain(),
                calls == null ? 0 : calls.calls(),
                calls == null ? 0 : calls.estimatedCost(),
                run.bound().stated() ? run.bound().defectRateBelow() : null,
                audit == null ? 0 : audit.audited(), audit == null ? null : audit.escapeRate());
    }

    private static Map<?, ?> map(@Nullable Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }

    private static @Nullable Long whole(@Nullable Object o) {
        return o instanceof Number n ? n.longValue() : null;
    }

    private static long orZero(@Nullable Long n) {
        return n == null ? 0 : n;
    }
}
