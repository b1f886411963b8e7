package dev.santabatch.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.santabatch.llm.SpendSnapshot;
import dev.santabatch.review.SantaOutcome;
import dev.santabatch.review.SantaReason;
import dev.santabatch.review.Verdict;
import dev.santabatch.rounds.Decision;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.stats.Agreement;
import dev.santabatch.stats.CleanSampleBound;
import dev.santabatch.stats.Kappa;
import dev.santabatch.stats.KappaResult;
import dev.santabatch.stats.SantaMetrics;
import dev.santabatch.stats.SeedTargets;
import dev.santabatch.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Builds {@code report.json}: the run's status, the pre-pass counts per rule, per round the sample
 * per stratum, first-pass rate, mean reviews to NICE, escalations, issue taxonomy, agreement and
 * kappa, patterns; for the run the bound a clean sample gives, the seed's targets, and escape rates.
 * Also the one-screen summary printed at the end of a run.
 */
public final class RunReport {

    /** The run-level status, first thing in the report and the summary. */
    public static final String CLEAN = "clean";
    public static final String FULLY_REVIEWED = "fully-reviewed";
    public static final String NOT_CLEAN = "not-clean";
    public static final String BUDGET_STOPPED = "budget-stopped";
    public static final String FAILED = "failed";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RunReport() {}

    /**
     * Inputs the report needs beyond the store.
     *
     * @param spend the rendered model-call block ({@link SpendReport#render}), {@code run.model_calls}
     * @param batchFixChecks items the batch-fix steps scanned (each checked by the whole panel)
     * @param spendSnapshot the same spend, typed, for the model cost shares; {@code null}: none
     * @param modelReviewers the panel's model ({@code llm}) reviewers, r of the model cost shares
     * @param offlineReviewers the ids of the panel's offline reviewers (lexical, semantic): only
     *     their reviews are offline checks; {@code null}: every reviewer when there is no model
     *     reviewer, none when every reviewer is a model
     * @param offlineFixer true when the fixer is offline: its fixes are offline work, not model calls
     */
    public record Context(String job, String runId, long runPk, int panelSize, double lowAgreementKappa,
            List<String> warnings, @Nullable Map<String, Object> groundTruth, @Nullable Map<String, Object> spend,
            long batchFixChecks, @Nullable SpendSnapshot spendSnapshot, int modelReviewers,
            @Nullable List<String> offlineReviewers, boolean offlineFixer) {

        public Context(String job, String runId, long runPk, int panelSize, double lowAgreementKappa,
                List<String> warnings, @Nullable Map<String, Object> groundTruth, @Nullable Map<String, Object> spend,
                long batchFixChecks, @Nullable SpendSnapshot spendSnapshot, int modelReviewers) {
            this(job, runId, runPk, panelSize, lowAgreementKappa, warnings, groundTruth, spend, batchFixChecks,
                    spendSnapshot, modelReviewers, null, modelReviewers == 0);
        }

        /** The number of offline reviewers in the panel. */
        int offlineReviewerCount() {
            return offlineReviewers != null ? offlineReviewers.size() : modelReviewers == 0 ? panelSize : 0;
        }

        /** Without model cost shares (no model reviewers). */
        public Context(String job, String runId, long runPk, int panelSize, double lowAgreementKappa,
                List<String> warnings, @Nullable Map<String, Object> groundTruth, @Nullable Map<String, Object> spend,
                long batchFixChecks) {
            this(job, runId, runPk, panelSize, lowAgreementKappa, warnings, groundTruth, spend, batchFixChecks, null, 0);
        }
    }

    public static String status(@Nullable String lastDecision) {
        if (lastDecision == null) {
            return NOT_CLEAN;
        }
        return switch (lastDecision) {
            case Decision.CLEAN -> CLEAN;
            case Decision.FULLY_REVIEWED -> FULLY_REVIEWED;
            default -> NOT_CLEAN;
        };
    }

    /**
     * What an export wrote, per the shipping invariant.
     *
     * @param shippedFile {@code catalog.csv} (clean, fully-reviewed) or {@code verified.csv}
     * @param shipped items in {@code shippedFile}
     * @param unverified items in {@code unverified.csv}
     * @param held items in {@code escalations.csv}
     * @param failUnresolved of {@code held}, the items held for a FAIL on their current revision that
     *     the run ended before resolving ({@code FAIL_UNRESOLVED})
     */
    public record Outputs(String shippedFile, long shipped, long unverified, long held, long failUnresolved) {}

    public static Map<String, Object> build(Store store, LoopStore loop, Context ctx, String status, Outputs outputs,
            long rejects) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("status", status);
        List<LoopStore.Round> rounds = loop.rounds(ctx.runPk());
        if (NOT_CLEAN.equals(status) && !rounds.isEmpty()
                && (Decision.UNREACHABLE_PATTERN.equals(rounds.get(rounds.size() - 1).decision())
                        || Decision.PANEL_DOES_NOT_FIT.equals(rounds.get(rounds.size() - 1).decision()))) {
            r.put("reason", rounds.get(rounds.size() - 1).decision());
        }
        r.put("job", ctx.job());
        r.put("run_id", ctx.runId());
        long items = store.countItems(ctx.runPk());
        r.put("input", Map.of("records", items + rejects, "items", items, "rejects", rejects));
        r.put("outputs", ordered("shipped_file", outputs.shippedFile(), "shipped", outputs.shipped(),
                "unverified", outputs.unverified(), "held", outputs.held(), "fail_unresolved", outputs.failUnresolved()));
        StrataReport strata = StrataReport.of(store, loop, ctx.runPk(), status, rounds);
        if (strata != null) {
            r.put("strata", strata.block());
        }

        List<Map<String, Object>> rules = new ArrayList<>();
        for (Store.RuleCount c : store.ruleCounts(ctx.runPk())) {
            rules.add(ordered("rule", c.ruleId(), "criterion", c.criterionId(), "found", c.found(), "fixed", c.fixed(),
                    "escalated", c.escalated()));
        }
        r.put("pre_pass", Map.of("rules", rules));
        r.put("learned_rules", learnedRules(store, ctx.runPk()));

        List<Map<String, Object>> perRound = new ArrayList<>();
        // critical issues the review validator attributed: free-text (unprefixed) issues given to a
        // failed check's criterion, and failed checks without an issue whose detail became it
        Map<Integer, LoopStore.IssueAttribution> attribution = loop.issueAttribution(ctx.runPk());
        LoopStore.IssueAttribution attributionRun = LoopStore.IssueAttribution.NONE;
        // run level: every item once (an item left unreviewed is sampled again in a later round, its
        // stored reviews reused): outcomes per item in round order; panel verdicts and flagged
        // issues per item and revision, the latest round's
        Map<String, List<SantaMetrics.ItemOutcome>> histories = new LinkedHashMap<>();
        Map<String, List<Set<String>>> runFlagged = new LinkedHashMap<>();
        Map<String, List<Verdict>> runRatings = new LinkedHashMap<>();
        Map<String, Long> taxonomyRun = new TreeMap<>();
        List<Map<String, Object>> taxonomyByPattern = new ArrayList<>();
        for (LoopStore.Round round : rounds) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("round", round.round());
            m.put("seed", round.seed());
            m.put("eligible", round.eligible());
            m.put("sample_size", round.sampleSize());
            m.put("full_review", round.fullReview());
            m.put("strata", strata(round.strata()));
            m.put("decision", round.decision());
            loop.acceptance(ctx.runPk(), round.round()).ifPresent(a -> {
                m.put("acceptance_number", a.acceptanceNumber());
                m.put("failures", a.failures());
            });
            List<LoopStore.SampleOutcome> sample = loop.sample(ctx.runPk(), round.round());
            List<SantaMetrics.ItemOutcome> outcomes = new ArrayList<>();
            Map<String, Integer> sampledRev = new LinkedHashMap<>();
            for (LoopStore.SampleOutcome s : sample) {
                sampledRev.put(s.itemId(), s.rev());
                if (s.outcome() != null) {
                    SantaMetrics.ItemOutcome o = new SantaMetrics.ItemOutcome(SantaOutcome.valueOf(s.outcome()),
                            s.reason() == null ? null : SantaReason.valueOf(s.reason()),
                            s.reviews() == null ? 0 : s.reviews(), s.fixes() == null ? 0 : s.fixes(), s.flagged());
                    outcomes.add(o);
                    histories.computeIfAbsent(s.itemId(), k -> new ArrayList<>()).add(o);
                    if (o.firstReviewCompleted()) {
                        runFlagged.put(s.itemId() + "#" + s.rev(), new ArrayList<>());
                    }
                }
            }
            SantaMetrics metrics = SantaMetrics.of(outcomes);
            m.put("first_pass_rate", value(metrics.firstPassRate()));
            m.put("mean_reviews_to_nice", value(metrics.meanReviewsToNice()));
            m.put("nice", metrics.nice());
            m.put("nice_first_review", metrics.niceFirstReview());
            m.put("escalated", metrics.escalated());
            m.put("unreviewed", metrics.unreviewed());
            m.put("escalations_by_reason", metrics.escalationsByReason());
            LoopStore.IssueAttribution attributed = attribution.getOrDefault(round.round(), LoopStore.IssueAttribution.NONE);
            attributionRun = attributionRun.plus(attributed);
            m.put("issues_reattributed", attributed.reattributed());
            m.put("issues_derived_from_detail", attributed.derivedFromDetail());
            List<LoopStore.IssueRow> issues = loop.issues(ctx.runPk(), round.round());
            Map<String, Long> taxonomy = new TreeMap<>();
            List<Set<String>> flagged = new ArrayList<>();
            for (LoopStore.IssueRow i : issues) {
                String c = i.criterion() == null ? "(none)" : i.criterion();
                taxonomy.merge(c, 1L, Long::sum);
                taxonomyRun.merge(c, 1L, Long::sum);
                Set<String> by = new HashSet<>(Arrays.asList(i.flaggedBy().split(",")));
                flagged.add(by);
                runFlagged.computeIfAbsent(i.itemId() + "#" + sampledRev.get(i.itemId()), k -> new ArrayList<>()).add(by);
            }
            m.put("issue_taxonomy_by_criterion", taxonomy);
            Agreement agreement = Agreement.ofFlaggedBy(flagged, ctx.panelSize());
            Map<String, List<Verdict>> ratings = ratings(loop.firstReviews(ctx.runPk(), round.round()), ctx.panelSize());
            runRatings.putAll(ratings);
            m.put("agreement", agreement(agreement, List.copyOf(ratings.values()), ctx.lowAgreementKappa()));
            List<Map<String, Object>> patterns = new ArrayList<>();
            for (LoopStore.PatternRow p : loop.patterns(ctx.runPk(), round.round())) {
                taxonomyByPattern.add(ordered("id", p.id(round.round()), "criterion", p.criterion(), "label", p.label(),
                        "sampled_items", p.items().size()));
                patterns.add(ordered("id", p.id(round.round()), "pattern", p.patternNo(), "criterion", p.criterion(),
                        "label", p.label(),
                        "sampled_items", p.items().size(), "sample_share", p.share(), "systematic", p.systematic(),
                        "matched", p.matched(), "fixed", p.fixed(), "escalated", p.escalated()));
            }
            m.put("patterns", patterns);
            perRound.add(m);
        }
        r.put("rounds", perRound);
        if (!rounds.isEmpty()) {
            List<Map<String, Object>> unreachable = unreachable(store, loop, ctx.runPk(), rounds.get(rounds.size() - 1));
            if (!unreachable.isEmpty()) {
                r.put("unreachable_patterns", unreachable);
            }
        }

        SantaMetrics runMetrics = SantaMetrics.ofRun(histories.values());
        // per round: that round's model calls and tokens against the run's baselines (N x reviewers,
        // and full Santa with the run's observed means); offline checks are counted for the run only
        SpendSnapshot spent = ctx.spendSnapshot() == null ? SpendSnapshot.NONE : ctx.spendSnapshot();
        for (Map<String, Object> m : perRound) {
            int n = (Integer) m.get("round");
            var tally = spent.rounds().getOrDefault(n, SpendSnapshot.NONE.run());
            m.put("cost", SpendReport.modelCost(new SpendSnapshot(n, tally, Map.of(n, tally)), items, ctx.modelReviewers(),
                    runMetrics.meanReviewsPerItem().orElse(1.0), runMetrics.meanFixesPerItem().orElse(0.0)));
        }
        Agreement runAgreement = Agreement.ofFlaggedBy(
                runFlagged.values().stream().flatMap(List::stream).toList(), ctx.panelSize());
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("rounds", rounds.size());
        run.put("first_pass_rate", value(runMetrics.firstPassRate()));
        run.put("mean_reviews_to_nice", value(runMetrics.meanReviewsToNice()));
        run.put("sampled", runMetrics.sampled());
        run.put("escalated_in_review", runMetrics.escalated());
        run.put("escalations_by_cause", store.escalationsByCause(ctx.runPk()));
        Map<String, Long> byReason = new TreeMap<>(store.escalationsByReason(ctx.runPk()));
        if (outputs.failUnresolved() > 0) {
            byReason.merge("FAIL_UNRESOLVED", outputs.failUnresolved(), Long::sum); // and any carried over as held
        }
        run.put("escalations_by_reason", byReason);
        run.put("issues_reattributed", attributionRun.reattributed());
        run.put("issues_derived_from_detail", attributionRun.derivedFromDetail());
        run.put("issue_taxonomy_by_criterion", taxonomyRun);
        run.put("issue_taxonomy_by_pattern", taxonomyByPattern);
        run.put("agreement", agreement(runAgreement, List.copyOf(runRatings.values()), ctx.lowAgreementKappa()));
        Map<String, Object> stratified = strata == null ? null : strata.bound();
        Map<String, Object> boundMap = new LinkedHashMap<>(stratified != null ? stratified : bound(status, rounds,
                rounds.isEmpty() ? null : loop.acceptance(ctx.runPk(), rounds.get(rounds.size() - 1).round()).orElse(null)));
        boundMap.put("escalated_items_counted_apart", store.escalationsByCause(ctx.runPk()).values().stream()
                .mapToLong(Long::longValue).sum());
        run.put("bound", boundMap);
        run.put("seed_targets", targets(runMetrics, ctx.groundTruth()));
        if (ctx.spend() != null) {
            run.put("model_calls", ctx.spend());
        }
        run.put("cost", cost(store, loop, ctx, runMetrics, items));
        r.put("run", run);
        if (ctx.groundTruth() != null) {
            r.put("escape_rates_against_ground_truth", ctx.groundTruth());
        }
        r.put("warnings", ctx.warnings());
        return r;
    }

    /**
     * The last round's patterns the batch fix cannot reach: each with its prevalence in the sample
     * (exact 95 % interval), the items it stands for in the eligible catalog, the batch fix that
     * fell short, and what would reach it.
     */
    private static List<Map<String, Object>> unreachable(Store store, LoopStore loop, long runPk, LoopStore.Round last) {
        List<Map<String, Object>> out = new ArrayList<>();
        List<dev.santabatch.loop.SpendStore.MatchStat> stats = new dev.santabatch.loop.SpendStore(store.jdbc()).matchStats(runPk);
        for (dev.santabatch.loop.UnreachablePatterns.Entry e : new dev.santabatch.loop.UnreachablePatterns(loop).entries(runPk, last, stats)) {
            var u = e.unreachable();
            Map<String, Object> m = ordered("id", e.pattern().id(last.round()), "criterion", e.pattern().criterion(),
                    "label", e.pattern().label(), "sampled_items", e.pattern().items().size(), "sample_size", e.sampleSize(),
                    "prevalence", e.prevalence(), "interval_95", List.of(e.interval().lower(), e.interval().upper()),
                    "estimated_items", Math.round(e.prevalence() * e.eligible()),
                    "estimated_items_95", List.of(Math.round(e.interval().lower() * e.eligible()),
                            Math.round(e.interval().upper() * e.eligible())));
            Map<String, Object> fell = ordered("pattern", LoopStore.PatternRow.id(u.shortRound(), u.shortPattern()),
                    "predicted_items", Math.round(u.predicted()), "reached", u.reached());
            e.narrowing().ifPresent(s -> {
                fell.put("eligible", s.eligible());
                fell.put("candidates_found", s.found());
                fell.put("candidates", s.candidates());
            });
            m.put("batch_fix_that_fell_short", fell);
            m.put("would_reach_it", e.wouldReach());
            out.add(m);
        }
        return out;
    }

    /**
     * Cost against full verification, two ways (the seed claims 15-20 %): as a share of N x reviewers
     * (every item reviewed once by every reviewer), and of full Santa on every item (N x reviewers x
     * observed mean reviews per item + N x observed mean fixes per item). Model calls and tokens come
     * from the call governor ({@link SpendReport#modelCost}; the detail is {@code run.model_calls});
     * the offline reviewers' checks are counted apart, the batch-fix's full scan included.
     */
    private static Map<String, Object> cost(Store store, LoopStore loop, Context ctx, SantaMetrics metrics, long items) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("model", SpendReport.modelCost(ctx.spendSnapshot() == null ? SpendSnapshot.NONE : ctx.spendSnapshot(),
                items, ctx.modelReviewers(), metrics.meanReviewsPerItem().orElse(1.0), metrics.meanFixesPerItem().orElse(0.0)));
        int offlineReviewers = ctx.offlineReviewerCount();
        if (offlineReviewers == 0) {
            // an all-model panel: every review and fix is a model call, counted above
            return m;
        }
        long reviewChecks = ctx.offlineReviewers() == null ? loop.countReviews(ctx.runPk())
                : loop.countReviews(ctx.runPk(), ctx.offlineReviewers());
        long batchChecks = ctx.batchFixChecks() * offlineReviewers;
        long fixes = ctx.offlineFixer()
                ? store.countRevisions(ctx.runPk(), "santa-fix") + store.countRevisions(ctx.runPk(), "batch-fix")
                : 0;
        double meanReviews = metrics.meanReviewsPerItem().orElse(1.0);
        double meanFixes = metrics.meanFixesPerItem().orElse(0.0);
        dev.santabatch.stats.CostShares offline = dev.santabatch.stats.CostShares.of(items, offlineReviewers, meanReviews,
                meanFixes, new dev.santabatch.stats.Usage(reviewChecks, 0), new dev.santabatch.stats.Usage(fixes, 0),
                new dev.santabatch.stats.Usage(batchChecks, 0));
        Map<String, Object> checks = new LinkedHashMap<>();
        checks.put("offline_reviewers", offlineReviewers);
        checks.put("review_checks", reviewChecks);
        checks.put("batch_fix_checks", batchChecks);
        checks.put("fixes", fixes);
        checks.put("total", reviewChecks + batchChecks + fixes);
        checks.put("share_of_every_item_reviewed_once", value(offline.shareOfReviewOnceCalls()));
        checks.put("share_of_full_santa_on_every_item", value(offline.shareOfFullSantaCalls()));
        checks.put("baseline_every_item_reviewed_once", offline.reviewOnceCalls());
        checks.put("baseline_full_santa", offline.fullSantaCalls());
        checks.put("note", (batchChecks > 0
                ? "the batch-fix was a full scan: the panel's checks ran on every eligible item, so this share is far"
                        + " above the 15-20 % of full verification the Santa Method claims for model calls; "
                : "")
                + "only the offline reviewers' reviews (and an offline fixer's fixes) count here, against baselines of"
                + " N x offline reviewers; model calls are counted under model; checks cost no tokens");
        m.put("offline_checks", checks);
        return m;
    }

    /**
     * The human spot-check's escape rate from the stored verdicts of the current {@code audit.csv}'s
     * items ({@code auditIds}), with {@code not_audited} the rest of them; {@code null} when none of
     * them has a verdict. The export and the {@code audit} command both use it, so they agree.
     */
    public static @Nullable Map<String, Object> storedAudit(Store store, long runPk, List<String> auditIds) {
        long[] c = store.auditCounts(runPk, auditIds);
        if (c[0] == 0) {
            return null;
        }
        Map<String, Object> m = audit(c[0], c[1]);
        m.put("not_audited", new java.util.HashSet<>(auditIds).size() - c[0]);
        return m;
    }

    /** The human spot-check's escape rate: defective among audited, exact 95 % interval. */
    public static Map<String, Object> audit(long audited, long defective) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("audited", audited);
        m.put("defective", defective);
        m.put("escape_rate", defective / (double) audited);
        var ci = dev.santabatch.stats.ClopperPearson.interval((int) defective, (int) audited);
        m.put("interval_95", List.of(ci.lower(), ci.upper()));
        m.put("method", "defective among audited shipped items; exact (Clopper-Pearson) 95 % interval");
        return m;
    }

    /**
     * The bound object; {@code acceptance} is the last round's (null for a round decided before it
     * was recorded, when clean meant no failure: c = 0).
     */
    static Map<String, Object> bound(String status, List<LoopStore.Round> rounds, LoopStore.@Nullable Acceptance acceptance) {
        if (rounds.isEmpty()) {
            return Map.of("stated", false, "why", "no sampling round ran");
        }
        LoopStore.Round last = rounds.get(rounds.size() - 1);
        // a full review is the run's last word only when the run ended well; a not-clean run whose
        // last round happened to review everything still has no clean sample to speak of
        if (FULLY_REVIEWED.equals(status) || (CLEAN.equals(status) && last.fullReview())) {
            return ordered("stated", false, "why", "fully reviewed, no sampling bound",
                    "sentence", CleanSampleBound.fullReviewSentence(last.sampleSize()));
        }
        if (!CLEAN.equals(status)) {
            return ordered("stated", false, "why", "no clean sample: no bound can be stated");
        }
        LoopStore.Acceptance a = acceptance != null ? acceptance : new LoopStore.Acceptance(0, 0);
        CleanSampleBound b = CleanSampleBound.of(last.sampleSize(), last.eligible(), rounds.size(), a.failures(),
                a.acceptanceNumber());
        Map<String, Object> m = ordered("stated", true, "sample_size", b.sampleSize(), "eligible", b.eligible(),
                "rounds_looked_at", b.roundsLookedAt(), "failures", b.failures(), "acceptance_number",
                b.acceptanceNumber(), "confidence", b.confidence(), "defect_rate_below", b.upperBound(),
                "sentence", b.sentence());
        b.warning().ifPresent(w -> m.put("warning", w));
        return m;
    }

    /** The seed's targets; the escape rate not measured yet (the export and the audit command put the spot-check's in). */
    private static List<Map<String, Object>> targets(SantaMetrics metrics, @Nullable Map<String, Object> groundTruth) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (SeedTargets.Target t : SeedTargets.of(metrics, OptionalDouble.empty())) {
            out.add(ESCAPE_RATE.equals(t.metric()) ? escapeTarget(null, groundTruth, null) : target(t));
        }
        return out;
    }

    private static final String ESCAPE_RATE = "escape-rate";

    private static Map<String, Object> target(SeedTargets.Target t) {
        return ordered("metric", t.metric(), "target", t.target(), "measured", value(t.measured()), "status",
                t.status().name());
    }

    /**
     * The seed's escape-rate target: the human spot-check's rate (defective among the audited
     * shipped items, with its 95 % interval) once a filled {@code audit.csv} was handed back
     * ({@code audit} with at least one verdict), else NOT_MEASURED with how to measure it. A ground
     * truth's escape rate is not that measure: it stands beside it, named as such.
     */
    static Map<String, Object> escapeTarget(@Nullable Map<String, Object> audit, @Nullable Map<String, Object> groundTruth,
            @Nullable Path runDir) {
        boolean measured = audit != null && audit.get("audited") instanceof Number n && n.longValue() > 0;
        Map<String, Object> m = target(SeedTargets.escapeRate(measured
                ? OptionalDouble.of(((Number) audit.get("escape_rate")).doubleValue()) : OptionalDouble.empty()));
        m.put("source", "human spot-check: defective among the audited shipped items of audit.csv (escape_rate_audit)");
        if (measured) {
            m.put("audited", audit.get("audited"));
            m.put("defective", audit.get("defective"));
            m.put("interval_95", audit.get("interval_95"));
        } else {
            String dir = runDir == null ? "<run-output-dir>" : runDir.toString();
            m.put("how_to_measure", "fill the verdict column of " + dir + "/audit.csv (ok or defective), then: santa-batch"
                    + " audit " + dir + " <filled-audit.csv>");
        }
        if (groundTruth != null) {
            m.put("ground_truth_escape_rate_of_shipped", groundTruth.get("escape_rate_of_shipped"));
            m.put("ground_truth_note", "shipped items still carrying a planted defect, against the generator's ground"
                    + " truth (escape_rates_against_ground_truth): not the spot-check's escape rate the target is about");
        }
        return m;
    }

    /**
     * Puts the human spot-check into a report: {@code escape_rate_audit} (when there is one) and the
     * seed targets' escape-rate row ({@link #escapeTarget}). The export and the {@code audit}
     * command both use it, so the row always reads the report's own spot-check.
     */
    @SuppressWarnings("unchecked")
    public static void applyAudit(Map<String, Object> report, @Nullable Map<String, Object> audit, Path runDir) {
        if (audit != null) {
            report.put("escape_rate_audit", audit);
        }
        if (report.get("run") instanceof Map<?, ?> run && run.get("seed_targets") instanceof List<?> targets) {
            List<Object> rows = (List<Object>) targets;
            for (int i = 0; i < rows.size(); i++) {
                if (rows.get(i) instanceof Map<?, ?> row && ESCAPE_RATE.equals(row.get("metric"))) {
                    rows.set(i, escapeTarget(audit, (Map<String, Object>) report.get("escape_rates_against_ground_truth"),
                            runDir));
                }
            }
        }
    }

    private static Map<String, Object> agreement(Agreement a, List<List<Verdict>> ratings, double low) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("issues", a.issues());
        m.put("flagged_by_all", a.flaggedByAll());
        m.put("flagged_by_one", a.flaggedByOne());
        if (a.panelSize() > 2) {
            m.put("flagged_by_some", a.flaggedBySome()); // more than one reviewer, not all
        }
        if (ratings.isEmpty()) {
            m.put("kappa", "undefined");
            m.put("kappa_why", "no item reviewed by the whole panel");
            return m;
        }
        KappaResult k = Kappa.of(ratings);
        m.put("kappa_method", k.method());
        m.put("items", k.items());
        m.put("raw_agreement", k.observedAgreement());
        long flagged = ratings.stream().filter(r -> r.contains(Verdict.FAIL)).count();
        m.put("items_flagged", flagged);
        specificAgreement(ratings).forEach(m::put);
        if (flagged < MIN_FLAGGED_FOR_KAPPA) {
            // with few flagged items kappa swings on one verdict: positive and negative agreement say more
            m.put("kappa", "not reported");
            m.put("kappa_why", "only " + flagged + " item(s) flagged; kappa is reported from " + MIN_FLAGGED_FOR_KAPPA);
            return m;
        }
        m.put("kappa", k.kappa().isPresent() ? (Object) k.kappa().getAsDouble() : "undefined");
        m.put("low_agreement", k.lowAgreement(low));
        if (k.lowAgreement(low)) {
            m.put("flag", "low reviewer agreement (kappa below " + low + "): the rubric needs tightening");
        }
        return m;
    }

    /** Items flagged (failed by some reviewer) a kappa needs before it is reported. */
    static final int MIN_FLAGGED_FOR_KAPPA = 10;

    /**
     * Positive and negative specific agreement over items rated by m reviewers: with f_i FAILs on
     * item i, positive = sum f_i(f_i - 1) / sum f_i(m - 1), negative likewise with the PASSes (for two
     * reviewers, 2a / (2a + b + c) and 2d / (2d + b + c)); "undefined" when no item has a FAIL (a PASS).
     */
    static Map<String, Object> specificAgreement(List<List<Verdict>> ratings) {
        double pNum = 0, pDen = 0, nNum = 0, nDen = 0;
        for (List<Verdict> r : ratings) {
            int m = r.size();
            long f = r.stream().filter(v -> v == Verdict.FAIL).count();
            long p = m - f;
            pNum += f * (f - 1);
            pDen += f * (m - 1);
            nNum += p * (p - 1);
            nDen += p * (m - 1);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("positive_agreement", pDen == 0 ? "undefined" : (Object) (pNum / pDen));
        out.put("negative_agreement", nDen == 0 ? "undefined" : (Object) (nNum / nDen));
        return out;
    }

    /**
     * First-iteration verdicts per item over the criteria every panel member judged (a reviewer's
     * verdict restricted to those: FAIL if it failed any of them), for items the whole panel
     * reviewed; keyed by item and revision ({@code id#rev}), so that a run counts each once.
     */
    private static Map<String, List<Verdict>> ratings(List<LoopStore.ReviewRow> reviews, int panelSize) {
        Map<String, List<dev.santabatch.review.Review>> byItem = new LinkedHashMap<>();
        for (LoopStore.ReviewRow r : reviews) {
            if (r.reviewJson() != null) {
                try {
                    byItem.computeIfAbsent(r.itemId() + "#" + r.rev(), k -> new ArrayList<>())
                            .add(dev.santabatch.review.Review.fromJson(r.reviewJson()));
                } catch (dev.santabatch.review.MalformedReviewException e) {
                    // stored reviews were validated when written; skip anything unreadable
                }
            }
        }
        Map<String, List<Verdict>> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<dev.santabatch.review.Review>> e : byItem.entrySet()) {
            List<dev.santabatch.review.Review> panel = e.getValue();
            if (panel.size() != panelSize) {
                continue;
            }
            Set<String> common = null;
            for (dev.santabatch.review.Review rv : panel) {
                Set<String> judged = new HashSet<>();
                rv.checks().stream().filter(c -> c.result().judged()).forEach(c -> judged.add(c.criterion()));
                if (common == null) {
                    common = judged;
                } else {
                    common.retainAll(judged);
                }
            }
            if (common == null || common.isEmpty()) {
                continue;
            }
            List<Verdict> verdicts = new ArrayList<>();
            for (dev.santabatch.review.Review rv : panel) {
                Set<String> c = common;
                boolean failed = rv.checks().stream()
                        .anyMatch(ch -> c.contains(ch.criterion()) && ch.result() == dev.santabatch.review.CheckResult.FAIL);
                verdicts.add(failed ? Verdict.FAIL : Verdict.PASS);
            }
            out.put(e.getKey(), verdicts);
        }
        return out;
    }

    private static Map<String, Object> strata(String encoded) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String part : encoded.split(";")) {
            int eq = part.lastIndexOf('=');
            if (eq > 0) {
                String[] qs = part.substring(eq + 1).split("/");
                m.put(part.substring(0, eq), Map.of("sampled", Integer.parseInt(qs[0]), "eligible", Integer.parseInt(qs[1])));
            }
        }
        return m;
    }

    private static @Nullable Double value(OptionalDouble d) {
        return d.isPresent() ? d.getAsDouble() : null;
    }

    static Map<String, Object> ordered(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    public static void write(Path file, Map<String, Object> report) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        JSON.writeValue(tmp.toFile(), report);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> read(Path file) throws IOException {
        return JSON.readValue(file.toFile(), LinkedHashMap.class);
    }

    /**
     * Puts the canaries and the panel's fit into a report ({@code canaries}, {@code panel_fit}) and
     * says in the bound what it covers: the criteria the panel judged (rules-only criteria are the
     * pre-pass's, reported under {@code rules}), defects the panel detects, the panel's canary
     * sensitivity beside it, and the bound divided by that sensitivity's lower 95 % limit as the bound
     * on all defects of those kinds (docs/canaries.md).
     */
    @SuppressWarnings("unchecked")
    public static void applyCanaries(Map<String, Object> report, dev.santabatch.canary.CanaryEstimates estimates,
            dev.santabatch.canary.PanelFit fit, List<String> panelCriteria, List<String> rulesOnlyCriteria) {
        report.put("canaries", estimates.render());
        report.put("panel_fit", fit.render());
        if (!(report.get("run") instanceof Map<?, ?> run) || !(run.get("bound") instanceof Map<?, ?> b)) {
            return;
        }
        Map<String, Object> bound = (Map<String, Object>) b;
        bound.put("criteria_judged_by_panel", panelCriteria);
        bound.put("rules_only_criteria", rulesOnlyCriteria);
        if (!rulesOnlyCriteria.isEmpty()) {
            bound.put("rules_only_note", "checked on every item by the rules pre-pass (report.json rules), not sampled");
        }
        bound.put("covers", "defects of the criteria judged by the panel that the panel detects");
        dev.santabatch.canary.Rate s = estimates.panel().sensitivity();
        Map<String, Object> sens = new LinkedHashMap<>();
        sens.put("caught", s.events());
        sens.put("of", s.trials());
        if (s.measured()) {
            sens.put("estimate", s.estimate());
            sens.put("interval_95", List.of(s.interval().lower(), s.interval().upper()));
        } else {
            sens.put("estimate", "not measured");
        }
        bound.put("panel_sensitivity", sens);
        if (!Boolean.TRUE.equals(bound.get("stated")) || !(bound.get("defect_rate_below") instanceof Number upper)) {
            return;
        }
        String criteria = String.join(", ", panelCriteria);
        String sentence = bound.get("sentence") + " It covers the criteria the panel judged (" + criteria + ")";
        if (s.measured() && s.interval().lower() > 0) {
            double all = Math.min(1.0, upper.doubleValue() / s.interval().lower());
            bound.put("all_defects_of_these_kinds_below", all);
            bound.put("all_defects_method", "defect_rate_below / the lower 95 % limit of the panel's canary sensitivity"
                    + " (each at 95 %: together at least 90 %)");
            sentence += String.format(java.util.Locale.ROOT, "; the panel caught %d of %d canaries (sensitivity %s, 95 %% CI"
                    + " %s-%s), so the rate of all defects of these kinds is below %s.", s.events(), s.trials(),
                    dev.santabatch.stats.Percent.format(s.estimate()), dev.santabatch.stats.Percent.format(s.interval().lower()),
                    dev.santabatch.stats.Percent.format(s.interval().upper()), dev.santabatch.stats.Percent.format(all));
        } else {
            bound.put("all_defects_of_these_kinds_below", "not stated");
            sentence += s.measured() ? "; the canaries' sensitivity has a lower limit of 0: nothing is stated of defects"
                    + " the panel does not detect." : "; no canary was reviewed: nothing is stated of defects the panel does"
                    + " not detect.";
        }
        bound.put("sentence", sentence);
    }

    /** A copy of {@code report} with {@code key} inserted after {@code afterKey} (at the end without it). */
    public static Map<String, Object> after(Map<String, Object> report, String afterKey, String key, Object value) {
        Map<String, Object> out = new LinkedHashMap<>();
        report.forEach((k, v) -> {
            out.put(k, v);
            if (k.equals(afterKey)) {
                out.put(key, value);
            }
        });
        out.putIfAbsent(key, value);
        return out;
    }

    /** The one-screen summary: the status first. */
    public static List<String> summary(Map<String, Object> r) {
        List<String> lines = new ArrayList<>();
        lines.add("status:   " + String.valueOf(r.get("status")).toUpperCase()
                + (r.get("reason") != null ? " (" + r.get("reason") + ")" : ""));
        @SuppressWarnings("unchecked")
        Map<String, Object> run = (Map<String, Object>) r.get("run");
        @SuppressWarnings("unchecked")
        Map<String, Object> outputs = (Map<String, Object>) r.get("outputs");
        @SuppressWarnings("unchecked")
        Map<String, Object> input = (Map<String, Object>) r.get("input");
        lines.add("read:     " + input.get("records") + " records: " + input.get("items") + " items, " + input.get("rejects")
                + " rejected");
        Object file = outputs.getOrDefault("shipped_file", "catalog.csv");
        lines.add(("catalog.csv".equals(file) ? "shipped:  " : "verified: ") + outputs.get("shipped") + " items in " + file
                + "; unverified: " + outputs.getOrDefault("unverified", 0) + " (unverified.csv); held for a person: "
                + outputs.get("held") + " (escalations.csv)");
        if (!"catalog.csv".equals(file)) {
            lines.add("          no catalog.csv: the run did not end clean; publish nothing from it unverified");
        }
        lines.addAll(dev.santabatch.carry.CarryReport.summary(r));
        lines.addAll(StrataReport.summary(r));
        lines.add("rounds:   " + run.get("rounds") + "; first-pass rate " + pct(run.get("first_pass_rate"))
                + " (target > 70 %); mean reviews to NICE " + num(run.get("mean_reviews_to_nice")) + " (target < 1.5)");
        lines.addAll(PatternMemoryReport.summary(r));
        escapeLine(r).ifPresent(lines::add);
        if (r.get("unreachable_patterns") instanceof List<?> unreachable) {
            lines.add("unreachable: " + unreachable.size() + " pattern(s) the batch fix cannot reach (report.json unreachable_patterns):");
            for (Object o : unreachable) {
                Map<?, ?> u = (Map<?, ?>) o;
                List<?> ci = (List<?>) u.get("interval_95");
                Map<?, ?> fell = (Map<?, ?>) u.get("batch_fix_that_fell_short");
                lines.add("  " + u.get("id") + " " + u.get("criterion") + ": prevalence " + pct(u.get("prevalence"))
                        + String.format(" (95 %% CI %.1f-%.1f %%)", ((Number) ci.get(0)).doubleValue() * 100,
                                ((Number) ci.get(1)).doubleValue() * 100)
                        + ", about " + u.get("estimated_items") + " items; the batch fix of " + fell.get("pattern")
                        + " reached " + fell.get("reached") + " of " + fell.get("predicted_items") + " predicted");
                lines.add("    to reach it: " + u.get("would_reach_it"));
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> bound = (Map<String, Object>) run.get("bound");
        lines.add("bound:    " + (Boolean.TRUE.equals(bound.get("stated")) ? bound.get("sentence") : bound.get("why")));
        if (bound.get("warning") != null) {
            lines.add("          " + bound.get("warning"));
        }
        canaryLines(r).forEach(lines::add);
        @SuppressWarnings("unchecked")
        Map<String, Object> agreement = (Map<String, Object>) run.get("agreement");
        lines.add("agreement: kappa " + num(agreement.get("kappa"))
                + ("undefined".equals(agreement.get("kappa")) && agreement.get("raw_agreement") != null
                        ? " (raw agreement " + pct(agreement.get("raw_agreement")) + ")"
                        : agreement.get("kappa_why") != null ? " (" + agreement.get("kappa_why") + ")" : "")
                + (agreement.get("positive_agreement") != null ? ", positive agreement "
                        + pct(agreement.get("positive_agreement")) + ", negative " + pct(agreement.get("negative_agreement")) : "")
                + ", issues flagged by all " + agreement.get("flagged_by_all")
                + (agreement.get("flagged_by_some") != null ? ", by some " + agreement.get("flagged_by_some") : "")
                + ", by one " + agreement.get("flagged_by_one")
                + (agreement.get("flag") != null ? "  <-- " + agreement.get("flag") : ""));
        @SuppressWarnings("unchecked")
        Map<String, Object> budgetStop = (Map<String, Object>) r.get("budget_stop");
        if (budgetStop != null) {
            lines.add("budget:   " + budgetStop.get("reason"));
            lines.add("          sampled items not reviewed: " + budgetStop.getOrDefault("sampled_not_reviewed", 0)
                    + "; items still eligible: " + budgetStop.get("eligible_items_left"));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> calls = (Map<String, Object>) run.get("model_calls");
        if (calls != null && calls.get("run") instanceof Map<?, ?> total && total.get("calls") instanceof Number n
                && n.longValue() > 0) {
            lines.add("model:    " + n + " calls, " + total.get("retries") + " retries, " + total.get("errors") + " errors, "
                    + total.get("input_tokens") + " in + " + total.get("output_tokens") + " out tokens, est. cost "
                    + String.format("%.4f", ((Number) total.get("estimated_cost")).doubleValue())
                    + (calls.get("matcher") instanceof Map<?, ?> mm && mm.get("share_of_eligible") instanceof Number share
                            ? "; matcher calls " + pct(share) + " of eligible" : ""));
            if (run.get("cost") instanceof Map<?, ?> cost && cost.get("model") instanceof Map<?, ?> model
                    && model.get("share_of_full_santa_on_every_item") instanceof Map<?, ?> full
                    && model.get("share_of_every_item_reviewed_once") instanceof Map<?, ?> once) {
                lines.add("cost:     model calls " + pct(once.get("calls")) + " of every item reviewed once, "
                        + pct(full.get("calls")) + " of full Santa on every item (tokens " + pct(once.get("tokens")) + ", "
                        + pct(full.get("tokens")) + "; the Santa Method's claim: 15-20 %)");
            }
            if (r.get("plan") instanceof Map<?, ?> plan && plan.get("estimate") instanceof Map<?, ?> estimate
                    && estimate.get("round_1") instanceof Map<?, ?> planned && plan.get("spent") instanceof Map<?, ?> spent
                    && spent.get("round_1") instanceof Map<?, ?> made) {
                lines.add("plan:     round 1 " + planned.get("calls") + " calls expected before it, " + made.get("calls")
                        + " made (report.json plan)");
            }
        }
        lines.addAll(learnedRuleLines(r));
        @SuppressWarnings("unchecked")
        Map<String, Object> panel = (Map<String, Object>) r.get("panel");
        if (panel != null && panel.get("flag") != null) {
            lines.add("panel:    <-- " + panel.get("flag"));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> gt = (Map<String, Object>) r.get("escape_rates_against_ground_truth");
        if (gt != null) {
            lines.add("ground truth: escape rate " + pct(gt.get("escape_rate")) + " of planted defects in shipped items, "
                    + pct(gt.get("escape_rate_of_shipped")) + " of all shipped items");
            lines.add("              false holds " + pct(gt.get("false_hold_rate")) + " of items planted clean, "
                    + pct(gt.get("false_hold_rate_after_prepass")) + " of items clean after the pre-pass ("
                    + gt.get("held_after_prepass_fixed_all_planted") + " held whose planted defects the pre-pass fixed)");
        }
        return lines;
    }

    /**
     * The run's learned rules with their evidence and job-file fragment: what an operator reads to
     * decide whether to paste a rule into the job file ({@code docs/learned-rules.md}).
     */
    static List<Map<String, Object>> learnedRules(Store store, long runPk) {
        List<Map<String, Object>> out = new ArrayList<>();
        dev.santabatch.rounds.LearnedRuleStore learned = new dev.santabatch.rounds.LearnedRuleStore(store.jdbc());
        Map<String, dev.santabatch.rounds.LearnedRuleStore.Remembered> remembered = new LinkedHashMap<>();
        learned.remembered(runPk).forEach(r -> remembered.put(r.ruleId(), r));
        for (dev.santabatch.rounds.LearnedRuleStore.Row l : learned.rules(runPk)) {
            Map<String, Object> m = ordered("rule", l.ruleId(),
                    "pattern", l.patternNo() == 0 ? null : dev.santabatch.rounds.LoopStore.PatternRow.id(l.round(), l.patternNo()),
                    "criterion", l.criterion(), "shape", l.shape().toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
                    "status", l.status());
            m.put("reason", l.reason());
            m.put("support", l.support());
            m.put("loo_recall", l.looRecall());
            m.put("flagged", l.flagged());
            m.put("eligible", l.eligible());
            m.put("cap", l.cap());
            m.put("fresh_reviews", l.freshReviews());
            m.put("review_check", ordered("reviewed", l.checked(), "failed", l.checkFailed()));
            m.put("fixed", l.fixed());
            m.put("later_samples", ordered("flagged", l.laterFlagged(), "confirmed", l.laterConfirmed(),
                    "precision", l.laterPrecision()));
            m.put("fragment", l.fragment());
            dev.santabatch.rounds.LearnedRuleStore.Remembered r = remembered.get(l.ruleId());
            if (r != null) {
                m.put("remembered", ordered("learned_in_run", r.learnedRunId(), "learned_as", r.learnedRuleId(),
                        "carried_from_run", r.fromRunId(), "round_1_sample", ordered("flagged", r.flagged(),
                                "confirmed", r.confirmed(), "precision", r.precision()), "verdict", r.verdict()));
            }
            out.add(m);
        }
        return out;
    }

    /** The summary's lines for the learned rules: one per rule, then its fragment when it is a candidate. */
    private static List<String> learnedRuleLines(Map<String, Object> r) {
        List<String> lines = new ArrayList<>();
        if (!(r.get("learned_rules") instanceof List<?> learned)) {
            return lines;
        }
        for (Object o : learned) {
            Map<?, ?> l = (Map<?, ?>) o;
            Map<?, ?> check = (Map<?, ?>) l.get("review_check");
            lines.add("learned:  " + l.get("rule") + " (" + l.get("shape") + ", " + l.get("criterion") + "): "
                    + l.get("status") + (l.get("reason") != null ? " (" + l.get("reason") + ")" : "") + "; support "
                    + l.get("support") + ", leave-one-out recall " + num(l.get("loo_recall")) + ", flags " + l.get("flagged")
                    + " of " + l.get("eligible") + " eligible (cap " + num(l.get("cap")) + "), review check "
                    + check.get("failed") + " of " + check.get("reviewed") + " failed, fixed " + l.get("fixed"));
            if (l.get("remembered") instanceof Map<?, ?> m && m.get("round_1_sample") instanceof Map<?, ?> sample) {
                lines.add("          remembered: learned in run '" + m.get("learned_in_run") + "' as " + m.get("learned_as")
                        + ", carried from run '" + m.get("carried_from_run") + "'; round 1's sample flags "
                        + sample.get("flagged") + ", confirmed " + sample.get("confirmed") + ": " + m.get("verdict"));
            }
            if (dev.santabatch.rounds.LearnedRuleStore.CANDIDATE.equals(l.get("status"))) {
                lines.add("          to keep it, paste under the criterion's rules (checked-by: both):");
                String.valueOf(l.get("fragment")).lines().forEach(f -> lines.add("            " + f));
            }
        }
        return lines;
    }

    /** The seed targets' escape-rate row of a report ({@link #escapeTarget}), if it has one. */
    public static java.util.Optional<Map<?, ?>> escapeTarget(Map<String, Object> report) {
        if (!(report.get("run") instanceof Map<?, ?> run) || !(run.get("seed_targets") instanceof List<?> targets)) {
            return java.util.Optional.empty();
        }
        return targets.stream()
                .filter(t -> t instanceof Map<?, ?> row && ESCAPE_RATE.equals(row.get("metric")))
                .<Map<?, ?>>map(t -> (Map<?, ?>) t)
                .findFirst();
    }

    /** The seed's escape rate, the human spot-check's: measured, or how to measure it. */
    private static java.util.Optional<String> escapeLine(Map<String, Object> report) {
        return escapeTarget(report)
                .map(t -> {
                    if (!(t.get("measured") instanceof Number)) {
                        return "escape:   not measured yet (target 0): " + t.get("how_to_measure");
                    }
                    List<?> ci = t.get("interval_95") instanceof List<?> l ? l : List.of();
                    return "escape:   " + pct(t.get("measured")) + " of " + t.get("audited")
                            + " audited shipped items defective" + (ci.size() == 2
                                    ? String.format(" (95 %% CI %.1f-%.1f %%)", ((Number) ci.get(0)).doubleValue() * 100,
                                            ((Number) ci.get(1)).doubleValue() * 100)
                                    : "")
                            + "; target 0: " + t.get("status");
                });
    }

    /** The summary's canary line and, when the panel does not fit, a line per failing figure. */
    @SuppressWarnings("unchecked")
    private static List<String> canaryLines(Map<String, Object> r) {
        List<String> out = new ArrayList<>();
        if (!(r.get("canaries") instanceof Map<?, ?> c)) {
            return out;
        }
        Map<String, Object> panel = (Map<String, Object>) c.get("panel");
        StringBuilder sb = new StringBuilder("canaries: panel " + rate(panel, "sensitivity", "caught", "planted")
                + ", " + rate(panel, "false_flag_rate", "failed", "clean copies"));
        ((Map<String, Object>) c.get("reviewers")).forEach((id, f) -> sb.append("; ").append(id).append(' ')
                .append(rate((Map<String, Object>) f, "sensitivity", "caught", "planted")));
        out.add(sb.toString());
        if (r.get("panel_fit") instanceof Map<?, ?> fit && Boolean.FALSE.equals(fit.get("fits"))) {
            for (Object o : (List<Object>) fit.get("figures")) {
                Map<String, Object> f = (Map<String, Object>) o;
                if (Boolean.TRUE.equals(f.get("fails"))) {
                    out.add("fit:      the panel does not fit: " + f.get("figure") + " " + num(f.get("value"))
                            + ("sensitivity".equals(f.get("figure")) ? " below " : " above ") + f.get("limit_key") + " "
                            + num(f.get("limit")) + " (" + f.get("rule") + ")");
                    out.add("          " + f.get("what_to_do"));
                }
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static String rate(Map<String, Object> figures, String name, String events, String what) {
        Map<String, Object> m = (Map<String, Object>) figures.get(name);
        if (!(m.get("estimate") instanceof Number e)) {
            return name.replace('_', ' ') + " not measured";
        }
        List<Number> ci = (List<Number>) m.get("interval_95");
        return String.format(java.util.Locale.ROOT, "%s %s of %s %s (%s %.0f %%, 95 %% CI %.0f-%.0f %%)", events,
                m.get(events), m.get("of"), what, name.replace('_', ' '), e.doubleValue() * 100,
                ci.get(0).doubleValue() * 100, ci.get(1).doubleValue() * 100);
    }

    private static String pct(@Nullable Object v) {
        return v instanceof Number n ? String.format("%.1f %%", n.doubleValue() * 100) : "n/a";
    }

    private static String num(@Nullable Object v) {
        return v instanceof Number n ? String.format("%.2f", n.doubleValue()) : String.valueOf(v);
    }
}
