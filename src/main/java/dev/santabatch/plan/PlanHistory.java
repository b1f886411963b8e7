package dev.santabatch.plan;

import dev.santabatch.carry.CarryStore;
import dev.santabatch.history.RunSummary;
import dev.santabatch.history.RunSummaryStore;
import dev.santabatch.model.LlmRoles;
import dev.santabatch.model.Tally;
import dev.santabatch.model.SpendStore;
import dev.santabatch.sampling.StratumStore;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.stats.SeedTargets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What the job's last runs measured, as a plan assumes it: the first-pass rate (the median over the
 * latest {@value #RUNS} exported runs that measured one, else the Santa Method's 70 % target) and the
 * rounds a run takes (the median over the same runs, else two: round 1 finds the patterns, round 2
 * is the first that can be clean), and how many matcher calls round 1's batch fix made per defect the
 * first-pass rate predicts among the eligible items it chose from (the median over the same runs), and
 * how often their covered strata were reopened.
 *
 * @param firstPassRate the expected share of sampled items NICE on their first review
 * @param runs the runs it comes from, newest first; empty: the target
 * @param rounds the expected rounds of a whole run; {@code null}: no history (the plan decides)
 * @param matcherPerDefect round 1's matcher calls / ((1 − first-pass rate) × the eligible items left
 *     after its sample); {@code null}: no run to say (the plan assumes the candidate caps)
 * @param coveredReopened the share of the same runs' covered strata whose sample failed (reopened);
 *     {@code null}: none of them drew one
 */
public record PlanHistory(double firstPassRate, List<Run> runs, @Nullable Integer rounds,
        @Nullable Double matcherPerDefect, @Nullable Double coveredReopened) {

    /** How many of the job's last exported runs are looked at. */
    public static final int RUNS = 5;

    /**
     * An earlier run's figures.
     *
     * @param matcherPerDefect its round 1's matcher calls per predicted defect ({@link PlanHistory});
     *     {@code null} when it predicts none (a first-pass rate of 1, or no item left after the sample)
     */
    public record Run(String runId, double firstPassRate, int rounds, @Nullable Double matcherPerDefect,
            @Nullable Boolean coveredReopened) {}

    public PlanHistory {
        runs = List.copyOf(runs);
    }

    /**
     * The job's latest {@value #RUNS} runs created before {@code beforeRunPk} ({@link Long#MAX_VALUE}:
     * every run) whose export finished and that measured a first-pass rate.
     */
    public static PlanHistory read(JdbcTemplate jdbc, String job, long beforeRunPk) {
        CarryStore carry = new CarryStore(jdbc);
        RunSummaryStore summaries = new RunSummaryStore(jdbc);
        List<Long> exported = summaries.measuredRuns(job, beforeRunPk, RUNS);
        Map<Long, RunSummary> figures = summaries.load(exported);
        LoopStore loop = new LoopStore(jdbc);
        SpendStore spend = new SpendStore(jdbc);
        StratumStore strata = new StratumStore(jdbc);
        List<Run> runs = new ArrayList<>();
        for (CarryStore.SourceRun r : carry.runs(exported)) {
            RunSummary s = figures.get(r.runPk());
            if (s == null || s.firstPassRate() == null) {
                continue;
            }
            List<LoopStore.Round> rounds = loop.rounds(r.runPk());
            Double perDefect = null;
            if (!rounds.isEmpty()) {
                long left = rounds.get(0).eligible() - rounds.get(0).sampleSize();
                double defects = (1 - s.firstPassRate()) * left;
                long matcher = spend.load(r.runPk()).rounds().getOrDefault(1, Tally.EMPTY).role(LlmRoles.MATCHER).calls();
                perDefect = defects > 0 ? matcher / defects : null;
            }
            runs.add(new Run(r.runId(), s.firstPassRate(), rounds.size(), perDefect,
                    strata.covered(r.runPk()).map(StratumStore.Draw::reopened).orElse(null)));
        }
        if (runs.isEmpty()) {
            return new PlanHistory(SeedTargets.FIRST_PASS_RATE_ABOVE, List.of(), null, null, null);
        }
        List<Double> perDefect = runs.stream().map(Run::matcherPerDefect).filter(java.util.Objects::nonNull).toList();
        List<Boolean> drawn = runs.stream().map(Run::coveredReopened).filter(java.util.Objects::nonNull).toList();
        return new PlanHistory(median(runs.stream().map(Run::firstPassRate).toList()), runs,
                (int) Math.ceil(median(runs.stream().map(r -> (double) r.rounds()).toList())),
                perDefect.isEmpty() ? null : median(perDefect),
                drawn.isEmpty() ? null : drawn.stream().filter(b -> b).count() / (double) drawn.size());
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
