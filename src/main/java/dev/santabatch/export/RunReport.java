package dev.santabatch.export;

import dev.santabatch.persistence.Cause;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.santabatch.history.PatternMemory;
import dev.santabatch.model.SpendSnapshot;
import dev.santabatch.review.SantaOutcome;
import dev.santabatch.review.SantaReason;
import dev.santabatch.review.Verdict;
import dev.santabatch.rounds.Decision;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.stats.Agreement;
import dev.santabatch.stats.CleanSampleBound;
import dev.santabatch.stats.Kappa;
import dev.santabatch.stats.KappaResult;
import dev.santabatch.stats.Percent;
import dev.santabatch.stats.SantaMetrics;
import dev.santabatch.stats.SeedTargets;
import dev.santabatch.persistence.Store;
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

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

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
            List<String> warnings, GroundTruthEscapes.@Nullable Result groundTruth, SpendReport.@Nullable ModelCalls spend,
            long batchFixChecks, @Nullable SpendSnapshot spendSnapshot, int modelReviewers,
            @Nullable List<String> offlineReviewers, boolean offlineFixer) {

        public Context(String job, String runId, long runPk, int panelSize, double lowAgreementKappa,
                List<String> warnings, GroundTruthEscapes.@Nullable Result groundTruth, SpendReport.@Nullable ModelCalls spend,
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
                List<String> warnings, GroundTruthEscapes.@Nullable Result groundTruth, SpendReport.@Nullable ModelCalls spend,
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
     * What the export adds to the report beyond the run's own figures; a {@code null} section is
     * left out.
     *
     * @param patternMemory tonight's patterns against the job's earlier runs', {@code matchedBy} how
     *     they were matched
     * @param panelCriteria the criteria the panel judged; {@code rulesOnlyCriteria} those only the
     *     pre-pass checks
     */
    public record Additions(@Nullable Map<String, Object> carryOver, @Nullable Map<String, Object> plan,
            dev.santabatch.history.PatternMemory.@Nullable Memory patternMemory, String matchedBy,
            SpendReport.@Nullable Panel panel, dev.santabatch.canary.@Nullable CanaryEstimates canaries,
            dev.santabatch.canary.@Nullable PanelFit fit, List<String> panelCriteria, List<String> rulesOnlyCriteria,
            Report.@Nullable BudgetStop budgetStop, Report.@Nullable Escalations escalations) {

        static final Additions NONE = new Additions(null, null, null, "", null, null, null, List.of(), List.of(), null,
                null);
    }

    /** The report of the run's own figures, without what the export adds ({@link Additions}). */
    public static Report build(Store store, LoopStore loop, Context ctx, String status, Report.Outputs outputs,
            long rejects) {
        return build(store, loop, ctx, status, outputs, rejects, Additions.NONE);
    }

    public static Report build(Store store, LoopStore loop, Context ctx, String status, Report.Outputs outputs,
            long rejects, Additions add) {
        List<LoopStore.Round> rounds = loop.rounds(ctx.runPk());
        String reason = null;
        if (NOT_CLEAN.equals(status) && !rounds.isEmpty()
                && (Decision.UNREACHABLE_PATTERN.equals(rounds.get(rounds.size() - 1).decision())
                        || Decision.PANEL_DOES_NOT_FIT.equals(rounds.get(rounds.size() - 1).decision()))) {
            reason = rounds.get(rounds.size() - 1).decision();
        }
        long items = store.countItems(ctx.runPk());
        StrataReport strata = StrataReport.of(store, loop, ctx.runPk(), status, rounds);
        Map<String, PatternMemory.SeenAgain> seenAgain = new LinkedHashMap<>();
        if (add.patternMemory() != null) {
            add.patternMemory().seenAgain().forEach(s -> s.patterns().forEach(p -> seenAgain.put(p, s)));
        }

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
        List<Report.PatternCount> taxonomyByPattern = new ArrayList<>();
        List<Report.Round> perRound = new ArrayList<>();
        for (LoopStore.Round round : rounds) {
            LoopStore.@Nullable Acceptance acceptance = loop.acceptance(ctx.runPk(), round.round()).orElse(null);
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
            LoopStore.IssueAttribution attributed = attribution.getOrDefault(round.round(), LoopStore.IssueAttribution.NONE);
            attributionRun = attributionRun.plus(attributed);
            Map<String, Long> taxonomy = new TreeMap<>();
            List<Set<String>> flagged = new ArrayList<>();
            for (LoopStore.IssueRow i : loop.issues(ctx.runPk(), round.round())) {
                String c = i.criterion() == null ? "(none)" : i.criterion();
                taxonomy.merge(c, 1L, Long::sum);
                taxonomyRun.merge(c, 1L, Long::sum);
                Set<String> by = new HashSet<>(Arrays.asList(i.flaggedBy().split(",")));
                flagged.add(by);
                runFlagged.computeIfAbsent(i.itemId() + "#" + sampledRev.get(i.itemId()), k -> new ArrayList<>()).add(by);
            }
            Agreement agreement = Agreement.ofFlaggedBy(flagged, ctx.panelSize());
            Map<String, List<Verdict>> ratings = ratings(loop.firstReviews(ctx.runPk(), round.round()), ctx.panelSize());
            runRatings.putAll(ratings);
            List<Report.Pattern> patterns = new ArrayList<>();
            for (LoopStore.PatternRow p : loop.patterns(ctx.runPk(), round.round())) {
                String id = p.id(round.round());
                taxonomyByPattern.add(new Report.PatternCount(id, p.criterion(), p.label(), p.items().size()));
                PatternMemory.SeenAgain known = seenAgain.get(id);
                patterns.add(new Report.Pattern(id, p.patternNo(), p.criterion(), p.label(), p.items().size(), p.share(),
                        p.systematic(), p.matched(), p.fixed(), p.escalated(), known == null ? null : known.firstSeenIn(),
                        known == null ? null : known.label()));
            }
            perRound.add(new Report.Round(round.round(), round.seed(), round.eligible(), round.sampleSize(),
                    round.fullReview(), strata(round.strata()), round.decision(),
                    acceptance == null ? null : acceptance.acceptanceNumber(),
                    acceptance == null ? null : acceptance.failures(), value(metrics.firstPassRate()),
                    value(metrics.meanReviewsToNice()), metrics.nice(), metrics.niceFirstReview(), metrics.escalated(),
                    metrics.unreviewed(), metrics.escalationsByReason(), attributed.reattributed(),
                    attributed.derivedFromDetail(), taxonomy,
                    agreement(agreement, List.copyOf(ratings.values()), ctx.lowAgreementKappa()), patterns, null));
        }
        List<Report.Unreachable> unreachable = rounds.isEmpty() ? List.of()
                : unreachable(store, loop, ctx.runPk(), rounds.get(rounds.size() - 1));

        SantaMetrics runMetrics = SantaMetrics.ofRun(histories.values());
        // per round: that round's model calls and tokens against the run's baselines (N x reviewers,
        // and full Santa with the run's observed means); offline checks are counted for the run only
        SpendSnapshot spent = ctx.spendSnapshot() == null ? SpendSnapshot.NONE : ctx.spendSnapshot();
        perRound.replaceAll(m -> {
            var tally = spent.rounds().getOrDefault(m.round(), SpendSnapshot.NONE.run());
            return m.withCost(SpendReport.modelCost(new SpendSnapshot(m.round(), tally, Map.of(m.round(), tally)), items,
                    ctx.modelReviewers(), runMetrics.meanReviewsPerItem().orElse(1.0),
                    runMetrics.meanFixesPerItem().orElse(0.0)));
        });
        Agreement runAgreement = Agreement.ofFlaggedBy(
                runFlagged.values().stream().flatMap(List::stream).toList(), ctx.panelSize());
        Map<String, Long> byReason = new TreeMap<>(store.escalationsByReason(ctx.runPk()));
        if (outputs.failUnresolved() != null && outputs.failUnresolved() > 0) {
            byReason.merge("FAIL_UNRESOLVED", outputs.failUnresolved(), Long::sum); // and any carried over as held
        }
        Report.Bound stratified = strata == null ? null : strata.bound();
        Report.Bound bound = (stratified != null ? stratified : bound(status, rounds,
                rounds.isEmpty() ? null : loop.acceptance(ctx.runPk(), rounds.get(rounds.size() - 1).round()).orElse(null)))
                .counting(store.escalationsByCause(ctx.runPk()).values().stream().mapToLong(Long::longValue).sum());
        if (add.canaries() != null && add.fit() != null) {
            bound = covered(bound, add.canaries(), add.panelCriteria(), add.rulesOnlyCriteria());
        }
        Report.Run run = new Report.Run(rounds.size(), value(runMetrics.firstPassRate()),
                value(runMetrics.meanReviewsToNice()), runMetrics.sampled(), runMetrics.escalated(),
                store.escalationsByCause(ctx.runPk()), byReason, attributionRun.reattributed(),
                attributionRun.derivedFromDetail(), taxonomyRun, taxonomyByPattern,
                agreement(runAgreement, List.copyOf(runRatings.values()), ctx.lowAgreementKappa()), bound,
                targets(runMetrics, ctx.groundTruth()), ctx.spend(), cost(store, loop, ctx, runMetrics, items));
        List<Report.RuleCount> rules = store.ruleCounts(ctx.runPk()).stream()
                .map(c -> new Report.RuleCount(c.ruleId(), c.criterionId(), c.found(), c.fixed(), c.escalated())).toList();
        return new Report(status, reason, ctx.job(), ctx.runId(), new Report.Input(items + rejects, items, rejects),
                outputs,
                add.carryOver(), strata == null ? null : strata.block(), new Report.PrePass(rules),
                learnedRules(store, ctx.runPk()),
                add.patternMemory() == null ? null : PatternMemoryReport.block(add.patternMemory(), add.matchedBy()),
                perRound, unreachable.isEmpty() ? null : unreachable, run, add.plan(), ctx.groundTruth(), ctx.warnings(),
                add.panel(), add.canaries() == null ? null : add.canaries().render(),
                add.fit() == null ? null : add.fit().render(), null, add.budgetStop(), add.escalations());
    }

    /**
     * The last round's patterns the batch fix cannot reach: each with its prevalence in the sample
     * (exact 95 % interval), the items it stands for in the eligible catalog, the batch fix that
     * fell short, and what would reach it.
     */
    private static List<Report.Unreachable> unreachable(Store store, LoopStore loop, long runPk, LoopStore.Round last) {
        List<Report.Unreachable> out = new ArrayList<>();
        List<dev.santabatch.model.SpendStore.MatchStat> stats = new dev.santabatch.model.SpendStore(store.jdbc()).matchStats(runPk);
        for (dev.santabatch.rounds.UnreachablePatterns.Entry e : new dev.santabatch.rounds.UnreachablePatterns(loop).entries(runPk, last, stats)) {
            var u = e.unreachable();
            var s = e.narrowing();
            Report.FellShort fell = new Report.FellShort(LoopStore.PatternRow.id(u.shortRound(), u.shortPattern()),
                    Math.round(u.predicted()), u.reached(), s.map(m -> m.eligible()).orElse(null),
                    s.map(m -> m.found()).orElse(null), s.map(m -> m.candidates()).orElse(null));
            out.add(new Report.Unreachable(e.pattern().id(last.round()), e.pattern().criterion(), e.pattern().label(),
                    e.pattern().items().size(), e.sampleSize(), e.prevalence(),
                    List.of(e.interval().lower(), e.interval().upper()), Math.round(e.prevalence() * e.eligible()),
                    List.of(Math.round(e.interval().lower() * e.eligible()), Math.round(e.interval().upper() * e.eligible())),
                    fell, e.wouldReach()));
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
    private static Report.Cost cost(Store store, LoopStore loop, Context ctx, SantaMetrics metrics, long items) {
        Report.ModelCost model = SpendReport.modelCost(ctx.spendSnapshot() == null ? SpendSnapshot.NONE
                : ctx.spendSnapshot(), items, ctx.modelReviewers(), metrics.meanReviewsPerItem().orElse(1.0),
                metrics.meanFixesPerItem().orElse(0.0));
        int offlineReviewers = ctx.offlineReviewerCount();
        if (offlineReviewers == 0) {
            // an all-model panel: every review and fix is a model call, counted above
            return new Report.Cost(model, null);
        }
        long reviewChecks = ctx.offlineReviewers() == null ? loop.countReviews(ctx.runPk())
                : loop.countReviews(ctx.runPk(), ctx.offlineReviewers());
        long batchChecks = ctx.batchFixChecks() * offlineReviewers;
        long fixes = ctx.offlineFixer()
                ? store.countRevisions(ctx.runPk(), Cause.SANTA_FIX) + store.countRevisions(ctx.runPk(), Cause.BATCH_FIX)
                : 0;
        double meanReviews = metrics.meanReviewsPerItem().orElse(1.0);
        double meanFixes = metrics.meanFixesPerItem().orElse(0.0);
        dev.santabatch.stats.CostShares offline = dev.santabatch.stats.CostShares.of(items, offlineReviewers, meanReviews,
                meanFixes, new dev.santabatch.stats.Usage(reviewChecks, 0), new dev.santabatch.stats.Usage(fixes, 0),
                new dev.santabatch.stats.Usage(batchChecks, 0));
        Report.OfflineChecks checks = new Report.OfflineChecks(offlineReviewers, reviewChecks, batchChecks, fixes,
                reviewChecks + batchChecks + fixes, value(offline.shareOfReviewOnceCalls()),
                value(offline.shareOfFullSantaCalls()), offline.reviewOnceCalls(), offline.fullSantaCalls(),
                (batchChecks > 0
                        ? "the batch-fix was a full scan: the panel's checks ran on every eligible item, so this share is"
                                + " far above the 15-20 % of full verification the Santa Method claims for model calls; "
                        : "")
                        + "only the offline reviewers' reviews (and an offline fixer's fixes) count here, against"
                        + " baselines of N x offline reviewers; model calls are counted under model; checks cost no tokens");
        return new Report.Cost(model, checks);
    }

    /**
     * The human spot-check's escape rate from the stored verdicts of the current {@code audit.csv}'s
     * items ({@code auditIds}), with {@code not_audited} the rest of them; {@code null} when none of
     * them has a verdict. The export and the {@code audit} command both use it, so they agree.
     */
    public static Report.@Nullable Audit storedAudit(Store store, long runPk, List<String> auditIds) {
        Store.AuditCounts c = store.auditCounts(runPk, auditIds);
        if (c.audited() == 0) {
            return null;
        }
        return audit(c.audited(), c.defective(), new HashSet<>(auditIds).size() - c.audited());
    }

    /** The human spot-check's escape rate: defective among audited, exact 95 % interval. */
    public static Report.Audit audit(long audited, long defective, @Nullable Long notAudited) {
        var ci = dev.santabatch.stats.ClopperPearson.interval((int) defective, (int) audited);
        return new Report.Audit(audited, defective, defective / (double) audited, List.of(ci.lower(), ci.upper()),
                "defective among audited shipped items; exact (Clopper-Pearson) 95 % interval", notAudited);
    }

    /**
     * The bound object; {@code acceptance} is the last round's (null for a round decided before it
     * was recorded, when clean meant no failure: c = 0).
     */
    static Report.Bound bound(String status, List<LoopStore.Round> rounds, LoopStore.@Nullable Acceptance acceptance) {
        if (rounds.isEmpty()) {
            return Report.Bound.notStated("no sampling round ran", null);
        }
        LoopStore.Round last = rounds.get(rounds.size() - 1);
        // a full review is the run's last word only when the run ended well; a not-clean run whose
        // last round happened to review everything still has no clean sample to speak of
        if (FULLY_REVIEWED.equals(status) || (CLEAN.equals(status) && last.fullReview())) {
            return Report.Bound.notStated("fully reviewed, no sampling bound",
                    CleanSampleBound.fullReviewSentence(last.sampleSize()));
        }
        if (!CLEAN.equals(status)) {
            return Report.Bound.notStated("no clean sample: no bound can be stated", null);
        }
        LoopStore.Acceptance a = acceptance != null ? acceptance : new LoopStore.Acceptance(0, 0);
        CleanSampleBound b = CleanSampleBound.of(last.sampleSize(), last.eligible(), rounds.size(), a.failures(),
                a.acceptanceNumber());
        return new Report.Bound(true, null, null, b.sampleSize(), b.eligible(), b.roundsLookedAt(), b.failures(),
                b.acceptanceNumber(), b.confidence(), b.upperBound(), b.sentence(), b.warning().orElse(null), null, null,
                null, null, null, null, null, null);
    }

    /** The seed's targets; the escape rate not measured yet (the export and the audit command put the spot-check's in). */
    private static List<Report.Target> targets(SantaMetrics metrics, GroundTruthEscapes.@Nullable Result groundTruth) {
        List<Report.Target> out = new ArrayList<>();
        for (SeedTargets.Target t : SeedTargets.of(metrics, OptionalDouble.empty())) {
            out.add(ESCAPE_RATE.equals(t.metric()) ? escapeTarget(null, groundTruth, null)
                    : new Report.Target(t.metric(), t.target(), value(t.measured()), t.status().name(), null, null, null,
                            null, null, null, null));
        }
        return out;
    }

    static final String ESCAPE_RATE = "escape-rate";

    /**
     * The seed's escape-rate target: the human spot-check's rate (defective among the audited
     * shipped items, with its 95 % interval) once a filled {@code audit.csv} was handed back
     * ({@code audit} with at least one verdict), else NOT_MEASURED with how to measure it. A ground
     * truth's escape rate is not that measure: it stands beside it, named as such.
     */
    static Report.Target escapeTarget(Report.@Nullable Audit audit, GroundTruthEscapes.@Nullable Result groundTruth,
            @Nullable Path runDir) {
        boolean measured = audit != null && audit.audited() > 0;
        SeedTargets.Target t = SeedTargets.escapeRate(measured && audit.escapeRate() != null
                ? OptionalDouble.of(audit.escapeRate()) : OptionalDouble.empty());
        String dir = runDir == null ? "<run-output-dir>" : runDir.toString();
        return new Report.Target(t.metric(), t.target(), value(t.measured()), t.status().name(),
                "human spot-check: defective among the audited shipped items of audit.csv (escape_rate_audit)",
                measured ? audit.audited() : null, measured ? audit.defective() : null,
                measured ? audit.interval95() : null,
                measured ? null : "fill the verdict column of " + dir + "/audit.csv (ok or defective), then: santa-batch"
                        + " audit " + dir + " <filled-audit.csv>",
                groundTruth == null ? null : groundTruth.escapeRateOfShipped(),
                groundTruth == null ? null : "shipped items still carrying a planted defect, against the generator's"
                        + " ground truth (escape_rates_against_ground_truth): not the spot-check's escape rate the"
                        + " target is about");
    }

    private static Report.Agreement agreement(Agreement a, List<List<Verdict>> ratings, double low) {
        Long some = a.panelSize() > 2 ? a.flaggedBySome() : null; // more than one reviewer, not all
        if (ratings.isEmpty()) {
            return new Report.Agreement(a.issues(), a.flaggedByAll(), a.flaggedByOne(), some, null, null, null, null,
                    null, null, "undefined", "no item reviewed by the whole panel", null, null);
        }
        KappaResult k = Kappa.of(ratings);
        long flagged = ratings.stream().filter(r -> r.contains(Verdict.FAIL)).count();
        Object[] specific = specificAgreement(ratings);
        if (flagged < MIN_FLAGGED_FOR_KAPPA) {
            // with few flagged items kappa swings on one verdict: positive and negative agreement say more
            return new Report.Agreement(a.issues(), a.flaggedByAll(), a.flaggedByOne(), some, k.method(), k.items(),
                    k.observedAgreement(), flagged, specific[0], specific[1], "not reported",
                    "only " + flagged + " item(s) flagged; kappa is reported from " + MIN_FLAGGED_FOR_KAPPA, null, null);
        }
        return new Report.Agreement(a.issues(), a.flaggedByAll(), a.flaggedByOne(), some, k.method(), k.items(),
                k.observedAgreement(), flagged, specific[0], specific[1],
                k.kappa().isPresent() ? (Object) k.kappa().getAsDouble() : "undefined", null, k.lowAgreement(low),
                k.lowAgreement(low) ? "low reviewer agreement (kappa below " + low + "): the rubric needs tightening" : null);
    }

    /** Items flagged (failed by some reviewer) a kappa needs before it is reported. */
    static final int MIN_FLAGGED_FOR_KAPPA = 10;

    /**
     * Positive and negative specific agreement over items rated by m reviewers: with f_i FAILs on
     * item i, positive = sum f_i(f_i - 1) / sum f_i(m - 1), negative likewise with the PASSes (for two
     * reviewers, 2a / (2a + b + c) and 2d / (2d + b + c)); "undefined" when no item has a FAIL (a PASS).
     */
    static Object[] specificAgreement(List<List<Verdict>> ratings) {
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
        return new Object[] {pDen == 0 ? "undefined" : (Object) (pNum / pDen), nDen == 0 ? "undefined" : (Object) (nNum / nDen)};
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

    private static Map<String, Report.Quota> strata(String encoded) {
        Map<String, Report.Quota> m = new LinkedHashMap<>();
        for (String part : encoded.split(";")) {
            int eq = part.lastIndexOf('=');
            if (eq > 0) {
                String[] qs = part.substring(eq + 1).split("/");
                m.put(part.substring(0, eq), new Report.Quota(Integer.parseInt(qs[0]), Integer.parseInt(qs[1])));
            }
        }
        return m;
    }

    private static @Nullable Double value(OptionalDouble d) {
        return d.isPresent() ? d.getAsDouble() : null;
    }

    public static void write(Path file, ReportFile report) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        JSON.writeValue(tmp.toFile(), report);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** A {@code report.json} as its JSON tree of maps and lists. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> read(Path file) throws IOException {
        return JSON.readValue(file.toFile(), LinkedHashMap.class);
    }

    /** A {@code report.json}, this version's or an earlier one's (keys it does not know are ignored). */
    public static ReportFile load(Path file) throws IOException {
        return of(read(file));
    }

    /** The report a JSON tree of maps and lists ({@link #read}, {@link #tree}) describes. */
    public static ReportFile of(Map<String, Object> tree) {
        Class<? extends ReportFile> type = FAILED.equals(tree.get("status")) ? FailedReport.class : Report.class;
        return JSON.convertValue(tree, type);
    }

    /** {@code report} as the JSON tree of maps and lists {@link #read} gives of its file. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> tree(ReportFile report) {
        return JSON.convertValue(report, LinkedHashMap.class);
    }

    /**
     * The bound with what it covers: the criteria the panel judged (rules-only criteria are the
     * pre-pass's, reported under {@code rules}), defects the panel detects, the panel's canary
     * sensitivity beside it, and the bound divided by that sensitivity's lower 95 % limit as the bound
     * on all defects of those kinds (docs/canaries.md).
     */
    private static Report.Bound covered(Report.Bound b, dev.santabatch.canary.CanaryEstimates estimates,
            List<String> panelCriteria, List<String> rulesOnlyCriteria) {
        dev.santabatch.canary.Rate s = estimates.panel().sensitivity();
        Report.Sensitivity sens = s.measured()
                ? new Report.Sensitivity(s.events(), s.trials(), s.estimate(), List.of(s.interval().lower(), s.interval().upper()))
                : new Report.Sensitivity(s.events(), s.trials(), "not measured", null);
        String sentence = b.sentence();
        Object all = null;
        String allMethod = null;
        if (b.stated() && b.defectRateBelow() != null) {
            sentence += " It covers the criteria the panel judged (" + String.join(", ", panelCriteria) + ")";
            if (s.measured() && s.interval().lower() > 0) {
                double below = Math.min(1.0, b.defectRateBelow() / s.interval().lower());
                all = below;
                allMethod = "defect_rate_below / the lower 95 % limit of the panel's canary sensitivity"
                        + " (each at 95 %: together at least 90 %)";
                sentence += String.format(java.util.Locale.ROOT, "; the panel caught %d of %d canaries (sensitivity %s,"
                        + " 95 %% CI %s-%s), so the rate of all defects of these kinds is below %s.", s.events(), s.trials(),
                        Percent.format(s.estimate()), Percent.format(s.interval().lower()),
                        Percent.format(s.interval().upper()), Percent.format(below));
            } else {
                all = "not stated";
                sentence += s.measured() ? "; the canaries' sensitivity has a lower limit of 0: nothing is stated of"
                        + " defects the panel does not detect." : "; no canary was reviewed: nothing is stated of defects"
                        + " the panel does not detect.";
            }
        }
        return new Report.Bound(b.stated(), b.why(), b.strata(), b.sampleSize(), b.eligible(), b.roundsLookedAt(),
                b.failures(), b.acceptanceNumber(), b.confidence(), b.defectRateBelow(), sentence, b.warning(),
                b.escalatedItemsCountedApart(), panelCriteria, rulesOnlyCriteria, rulesOnlyCriteria.isEmpty() ? null
                        : "checked on every item by the rules pre-pass (report.json rules), not sampled",
                "defects of the criteria judged by the panel that the panel detects", sens, all, allMethod);
    }

    /** The one-screen summary: the status first. */
    public static List<String> summary(Report r) {
        List<String> lines = new ArrayList<>();
        lines.add("status:   " + r.status().toUpperCase() + (r.reason() != null ? " (" + r.reason() + ")" : ""));
        Report.Run run = r.run();
        Report.Outputs outputs = r.outputs();
        lines.add("read:     " + r.input().records() + " records: " + r.input().items() + " items, " + r.input().rejects()
                + " rejected");
        String file = outputs.shippedFile() != null ? outputs.shippedFile() : "catalog.csv";
        lines.add(("catalog.csv".equals(file) ? "shipped:  " : "verified: ") + outputs.shipped() + " items in " + file
                + "; unverified: " + (outputs.unverified() != null ? outputs.unverified() : 0)
                + " (unverified.csv); held for a person: " + outputs.held() + " (escalations.csv)");
        if (!"catalog.csv".equals(file)) {
            lines.add("          no catalog.csv: the run did not end clean; publish nothing from it unverified");
        }
        lines.addAll(dev.santabatch.carry.CarryReport.summary(r.carryOver()));
        lines.addAll(StrataReport.summary(r.strata()));
        lines.add("rounds:   " + run.rounds() + "; first-pass rate " + pct(run.firstPassRate())
                + " (target > 70 %); mean reviews to NICE " + num(run.meanReviewsToNice()) + " (target < 1.5)");
        lines.addAll(PatternMemoryReport.summary(r.patternMemory()));
        escapeLine(r).ifPresent(lines::add);
        if (r.unreachablePatterns() != null) {
            lines.add("unreachable: " + r.unreachablePatterns().size()
                    + " pattern(s) the batch fix cannot reach (report.json unreachable_patterns):");
            for (Report.Unreachable u : r.unreachablePatterns()) {
                Report.FellShort fell = u.batchFixThatFellShort();
                lines.add("  " + u.id() + " " + u.criterion() + ": prevalence " + pct(u.prevalence())
                        + String.format(" (95 %% CI %.1f-%.1f %%)", u.interval95().get(0) * 100, u.interval95().get(1) * 100)
                        + ", about " + u.estimatedItems() + " items; the batch fix of " + fell.pattern()
                        + " reached " + fell.reached() + " of " + fell.predictedItems() + " predicted");
                lines.add("    to reach it: " + u.wouldReachIt());
            }
        }
        Report.Bound bound = run.bound();
        lines.add("bound:    " + (bound.stated() ? bound.sentence() : bound.why()));
        if (bound.warning() != null) {
            lines.add("          " + bound.warning());
        }
        canaryLines(r).forEach(lines::add);
        Report.Agreement agreement = run.agreement();
        lines.add("agreement: kappa " + num(agreement.kappa())
                + ("undefined".equals(agreement.kappa()) && agreement.rawAgreement() != null
                        ? " (raw agreement " + pct(agreement.rawAgreement()) + ")"
                        : agreement.kappaWhy() != null ? " (" + agreement.kappaWhy() + ")" : "")
                + (agreement.positiveAgreement() != null ? ", positive agreement "
                        + pct(agreement.positiveAgreement()) + ", negative " + pct(agreement.negativeAgreement()) : "")
                + ", issues flagged by all " + agreement.flaggedByAll()
                + (agreement.flaggedBySome() != null ? ", by some " + agreement.flaggedBySome() : "")
                + ", by one " + agreement.flaggedByOne()
                + (agreement.flag() != null ? "  <-- " + agreement.flag() : ""));
        Report.BudgetStop budgetStop = r.budgetStop();
        if (budgetStop != null) {
            lines.add("budget:   " + budgetStop.reason());
            lines.add("          sampled items not reviewed: " + (budgetStop.sampledNotReviewed() == null ? 0
                    : budgetStop.sampledNotReviewed()) + "; items still eligible: " + budgetStop.eligibleItemsLeft());
        }
        SpendReport.ModelCalls calls = run.modelCalls();
        if (calls != null && calls.run().calls() > 0) {
            SpendReport.Calls total = calls.run();
            lines.add("model:    " + total.calls() + " calls, " + total.retries() + " retries, " + total.errors()
                    + " errors, " + total.inputTokens() + " in + " + total.outputTokens() + " out tokens, est. cost "
                    + String.format("%.4f", total.estimatedCost()) + (calls.matcher().shareOfEligible() != null
                            ? "; matcher calls " + pct(calls.matcher().shareOfEligible()) + " of eligible" : ""));
            Report.ModelCost model = run.cost() == null ? null : run.cost().model();
            if (model != null && model.shareOfFullSantaOnEveryItem() != null && model.shareOfEveryItemReviewedOnce() != null) {
                Report.Pair once = model.shareOfEveryItemReviewedOnce();
                Report.Pair full = model.shareOfFullSantaOnEveryItem();
                lines.add("cost:     model calls " + pct(once.calls()) + " of every item reviewed once, " + pct(full.calls())
                        + " of full Santa on every item (tokens " + pct(once.tokens()) + ", " + pct(full.tokens())
                        + "; the Santa Method's claim: 15-20 %)");
            }
            if (r.plan() != null && r.plan().get("estimate") instanceof Map<?, ?> estimate
                    && estimate.get("round_1") instanceof Map<?, ?> planned && r.plan().get("spent") instanceof Map<?, ?> spent
                    && spent.get("round_1") instanceof Map<?, ?> made) {
                lines.add("plan:     round 1 " + planned.get("calls") + " calls expected before it, " + made.get("calls")
                        + " made (report.json plan)");
            }
        }
        lines.addAll(learnedRuleLines(r.learnedRules()));
        if (r.panel() != null && r.panel().flag() != null) {
            lines.add("panel:    <-- " + r.panel().flag());
        }
        GroundTruthEscapes.Result gt = r.groundTruth();
        if (gt != null) {
            lines.add("ground truth: escape rate " + pct(gt.escapeRate()) + " of planted defects in shipped items, "
                    + pct(gt.escapeRateOfShipped()) + " of all shipped items");
            lines.add("              false holds " + pct(gt.falseHoldRate()) + " of items planted clean, "
                    + pct(gt.falseHoldRateAfterPrepass()) + " of items clean after the pre-pass ("
                    + gt.heldAfterPrepassFixedAllPlanted() + " held whose planted defects the pre-pass fixed)");
        }
        return lines;
    }

    /**
     * The run's learned rules with their evidence and job-file fragment: what an operator reads to
     * decide whether to paste a rule into the job file ({@code docs/learned-rules.md}).
     */
    static List<Report.LearnedRule> learnedRules(Store store, long runPk) {
        dev.santabatch.rounds.LearnedRuleStore learned = new dev.santabatch.rounds.LearnedRuleStore(store.jdbc());
        Map<String, dev.santabatch.rounds.LearnedRuleStore.Remembered> remembered = new LinkedHashMap<>();
        learned.remembered(runPk).forEach(r -> remembered.put(r.ruleId(), r));
        return learned.rules(runPk).stream().map(l -> {
            var r = remembered.get(l.ruleId());
            return new Report.LearnedRule(l.ruleId(), l.patternNo() == 0 ? null : LoopStore.PatternRow.id(l.round(),
                    l.patternNo()), l.criterion(), l.shape().toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
                    l.status(), l.reason(), l.support(), l.looRecall(), l.flagged(), l.eligible(), l.cap(),
                    l.freshReviews(), new Report.ReviewCheck(l.checked(), l.checkFailed()), l.fixed(),
                    new Report.LaterSamples(l.laterFlagged(), l.laterConfirmed(), l.laterPrecision()), l.fragment(),
                    r == null ? null : new Report.Remembered(r.learnedRunId(), r.learnedRuleId(), r.fromRunId(),
                            new Report.LaterSamples(r.flagged(), r.confirmed(), r.precision()), r.verdict()));
        }).toList();
    }

    /** The summary's lines for the learned rules: one per rule, then its fragment when it is a candidate. */
    private static List<String> learnedRuleLines(@Nullable List<Report.LearnedRule> learned) {
        List<String> lines = new ArrayList<>();
        for (Report.LearnedRule l : learned == null ? List.<Report.LearnedRule>of() : learned) {
            lines.add("learned:  " + l.rule() + " (" + l.shape() + ", " + l.criterion() + "): " + l.status()
                    + (l.reason() != null ? " (" + l.reason() + ")" : "") + "; support " + l.support()
                    + ", leave-one-out recall " + num(l.looRecall()) + ", flags " + l.flagged() + " of " + l.eligible()
                    + " eligible (cap " + num(l.cap()) + "), review check " + l.reviewCheck().failed() + " of "
                    + l.reviewCheck().reviewed() + " failed, fixed " + l.fixed());
            Report.Remembered m = l.remembered();
            if (m != null && m.round1Sample() != null) {
                lines.add("          remembered: learned in run '" + m.learnedInRun() + "' as " + m.learnedAs()
                        + ", carried from run '" + m.carriedFromRun() + "'; round 1's sample flags "
                        + m.round1Sample().flagged() + ", confirmed " + m.round1Sample().confirmed() + ": " + m.verdict());
            }
            if (dev.santabatch.rounds.LearnedRuleStore.CANDIDATE.equals(l.status())) {
                lines.add("          to keep it, paste under the criterion's rules (checked-by: both):");
                String.valueOf(l.fragment()).lines().forEach(f -> lines.add("            " + f));
            }
        }
        return lines;
    }

    /** The seed's escape rate, the human spot-check's: measured, or how to measure it. */
    private static java.util.Optional<String> escapeLine(Report report) {
        return report.escapeTarget().map(t -> t.measured() == null
                ? "escape:   not measured yet (target 0): " + t.howToMeasure()
                : "escape:   " + pct(t.measured()) + " of " + t.audited() + " audited shipped items defective"
                        + (t.interval95() != null && t.interval95().size() == 2
                                ? String.format(" (95 %% CI %.1f-%.1f %%)", t.interval95().get(0) * 100,
                                        t.interval95().get(1) * 100)
                                : "")
                        + "; target 0: " + t.status());
    }

    /** The summary's canary line and, when the panel does not fit, a line per failing figure. */
    @SuppressWarnings("unchecked")
    private static List<String> canaryLines(Report r) {
        List<String> out = new ArrayList<>();
        Map<String, Object> c = r.canaries();
        if (c == null) {
            return out;
        }
        Map<String, Object> panel = (Map<String, Object>) c.get("panel");
        StringBuilder sb = new StringBuilder("canaries: panel " + rate(panel, "sensitivity", "caught", "planted")
                + ", " + rate(panel, "false_flag_rate", "failed", "clean copies"));
        ((Map<String, Object>) c.get("reviewers")).forEach((id, f) -> sb.append("; ").append(id).append(' ')
                .append(rate((Map<String, Object>) f, "sensitivity", "caught", "planted")));
        out.add(sb.toString());
        Map<String, Object> fit = r.panelFit();
        if (fit != null && Boolean.FALSE.equals(fit.get("fits"))) {
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
