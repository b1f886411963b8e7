package dev.santabatch.export;

import dev.santabatch.model.SpendStore;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.persistence.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code report.json} of a run that ended without exporting: FAILED (a step failed: the
 * failed-review threshold, a 401 from a model, ...) or stopped by a signal. Its {@code status} is
 * {@code failed}, so a downstream job that checks it cannot publish by accident; and nothing in
 * the folder looks shippable: it replaces the run's output folder whole, so the CSV outputs an
 * earlier export of the same run left there (a not-clean run resumed after raising max rounds),
 * which describe a state the run has moved past, are gone with it. The run is restartable; its successful end writes every output again. Its
 * {@code run.model_calls} is the spend stored with the run ({@link SpendReport#render}), every
 * execution's, failed calls included (a 401, an outage's 503s), raised to what the call ledger holds
 * where it holds more (a stopped execution's calls in flight): at least every call the endpoint received.
 */
public final class FailedRunReport {

    private FailedRunReport() {}

    private static final Report.Outputs SHIPS_NOTHING = new Report.Outputs(null, 0, null, null, null,
            "a failed run ships nothing: no catalog.csv or verified.csv is written (those left by an earlier"
                    + " export of this run are removed); restart the run");

    /**
     * @param batchStatus the execution's Spring Batch status (FAILED, STOPPED)
     * @param why one line: what ended the run
     * @param failures the root causes, one line each
     * @param restart the command that continues the run
     */
    public static FailedReport build(Store store, LoopStore loop, String job, String runId, long runPk,
            long executionId, String batchStatus, String why, List<String> failures, String restart) {
        long items = store.countItems(runPk);
        long rejects = store.countRejects(runPk);
        List<FailedReport.Round> rounds = new ArrayList<>();
        for (LoopStore.Round round : loop.rounds(runPk)) {
            long nice = 0;
            long escalated = 0;
            long unreviewed = 0;
            long pending = 0;
            for (LoopStore.SampleOutcome s : loop.sample(runPk, round.round())) {
                if (s.outcome() == null) {
                    pending++;
                } else {
                    switch (s.outcome()) {
                        case "NICE" -> nice++;
                        case "ESCALATED" -> escalated++;
                        default -> unreviewed++;
                    }
                }
            }
            rounds.add(new FailedReport.Round(round.round(), round.eligible(), round.sampleSize(), round.decision(), nice,
                    escalated, unreviewed, pending));
        }
        // the model calls of every execution so far, as the governor stored them at the failed step's
        // end, or as its ledger reserved them if more: a 401, an outage's 503s are in the report of
        // the run they failed, and the calls in flight at a stop in the stopped run's
        SpendStore spend = new SpendStore(store.jdbc());
        return new FailedReport(RunReport.FAILED, job, runId, new FailedReport.Execution(executionId, batchStatus, why),
                List.copyOf(failures), restart, new Report.Input(items + rejects, items, rejects), SHIPS_NOTHING, rounds,
                new FailedReport.Run(SpendReport.render(spend.counted(runPk), spend.matchStats(runPk))), null);
    }

    /**
     * {@link #build}'s report when the store does not answer (its connection died): what needs no
     * store (status, execution, failures, restart), and why the counts are missing.
     *
     * @param storeFailure why the store could not be read, one line
     */
    public static FailedReport withoutStore(String job, String runId, long executionId, String batchStatus,
            String why, List<String> failures, String restart, String storeFailure) {
        return new FailedReport(RunReport.FAILED, job, runId, new FailedReport.Execution(executionId, batchStatus, why),
                List.copyOf(failures), restart, null, SHIPS_NOTHING, null, null, new FailedReport.StoreState(false,
                        storeFailure, "the store did not answer when the run ended: no counts; the restart reads them from the store"));
    }

    /**
     * Writes {@code report.json} and {@code report.html} into {@code folder} (created if needed): a
     * fresh folder that then takes the place of the run's output folder, so that the outputs of an
     * earlier export are replaced at once, never removed one by one beside its report.
     *
     * @param earlier the job's earlier runs, for the page's trend ({@link RunTrend#earlier})
     */
    public static void write(Path folder, FailedReport report, List<RunTrend.Point> earlier) throws IOException {
        Files.createDirectories(folder);
        RunReport.write(folder.resolve("report.json"), report);
        HtmlReport.write(folder.resolve("report.html"), report, RunTrend.withCurrent(earlier, report));
    }

    /** The one-screen summary of a failed run: the status first. */
    public static List<String> summary(FailedReport r) {
        List<String> lines = new ArrayList<>();
        lines.add("status:   " + r.status().toUpperCase(java.util.Locale.ROOT) + " (nothing shipped: no catalog.csv)");
        lines.add("ended:    " + r.execution().batchStatus() + ": " + r.execution().why());
        lines.add("read:     " + r.input().records() + " records: " + r.input().items() + " items, " + r.input().rejects()
                + " rejected");
        for (String f : r.failures()) {
            lines.add("failure:  " + f);
        }
        SpendReport.Calls total = SummaryEvent.modelCallsOfRun(r);
        if (total != null && total.calls() > 0) {
            lines.add("model:    " + total.calls() + " calls, " + total.retries() + " retries, " + total.errors() + " errors"
                    + (total.errorsByKind() != null && !total.errorsByKind().isEmpty() ? " " + total.errorsByKind() : ""));
        }
        return lines;
    }
}
