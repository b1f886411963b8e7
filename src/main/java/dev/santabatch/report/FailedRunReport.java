package dev.santabatch.report;

import dev.santabatch.loop.SpendStore;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    /**
     * @param batchStatus the execution's Spring Batch status (FAILED, STOPPED)
     * @param why one line: what ended the run
     * @param failures the root causes, one line each
     * @param restart the command that continues the run
     */
    public static Map<String, Object> build(Store store, LoopStore loop, String job, String runId, long runPk,
            long executionId, String batchStatus, String why, List<String> failures, String restart) {
        Map<String, Object> r = header(job, runId, executionId, batchStatus, why, failures, restart);
        long items = store.countItems(runPk);
        long rejects = store.countRejects(runPk);
        r.put("input", RunReport.ordered("records", items + rejects, "items", items, "rejects", rejects));
        r.put("outputs", RunReport.ordered("shipped", 0, "note",
                "a failed run ships nothing: no catalog.csv or verified.csv is written (those left by an earlier"
                        + " export of this run are removed); restart the run"));
        List<Map<String, Object>> rounds = new ArrayList<>();
        for (LoopStore.Round round : loop.rounds(runPk)) {
            long nice = 0;
            long escalated = 0;
            long unreviewed = 0;
            long pending = 0;
            List<LoopStore.SampleOutcome> sample = loop.sample(runPk, round.round());
            for (LoopStore.SampleOutcome s : sample) {
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
            rounds.add(RunReport.ordered("round", round.round(), "eligible", round.eligible(), "sample_size",
                    round.sampleSize(), "decision", round.decision(), "nice", nice, "escalated", escalated, "unreviewed",
                    unreviewed, "not_reviewed_yet", pending));
        }
        r.put("rounds", rounds);
        // the model calls of every execution so far, as the governor stored them at the failed step's
        // end, or as its ledger reserved them if more: a 401, an outage's 503s are in the report of
        // the run they failed, and the calls in flight at a stop in the stopped run's
        SpendStore spend = new SpendStore(store.jdbc());
        r.put("run", RunReport.ordered("model_calls",
                SpendReport.render(spend.counted(runPk), spend.matchStats(runPk))));
        return r;
    }

    /** What every failed run's report starts with: status, run, execution, failures, restart. */
    private static Map<String, Object> header(String job, String runId, long executionId, String batchStatus, String why,
            List<String> failures, String restart) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("status", RunReport.FAILED);
        r.put("job", job);
        r.put("run_id", runId);
        r.put("execution", RunReport.ordered("id", executionId, "batch_status", batchStatus, "why", why));
        r.put("failures", List.copyOf(failures));
        r.put("restart", restart);
        return r;
    }

    /**
     * {@link #build}'s report when the store does not answer (its connection died): what needs no
     * store (status, execution, failures, restart), and why the counts are missing.
     *
     * @param storeFailure why the store could not be read, one line
     */
    public static Map<String, Object> withoutStore(String job, String runId, long executionId, String batchStatus,
            String why, List<String> failures, String restart, String storeFailure) {
        Map<String, Object> r = header(job, runId, executionId, batchStatus, why, failures, restart);
        r.put("outputs", RunReport.ordered("shipped", 0, "note",
                "a failed run ships nothing: no catalog.csv or verified.csv is written (those left by an earlier"
                        + " export of this run are removed); restart the run"));
        r.put("store", RunReport.ordered("readable", false, "failure", storeFailure, "note",
                "the store did not answer when the run ended: no counts; the restart reads them from the store"));
        return r;
    }

    /**
     * Writes {@code report.json} and {@code report.html} into {@code folder} (created if needed): a
     * fresh folder that then takes the place of the run's output folder, so that the outputs of an
     * earlier export are replaced at once, never removed one by one beside its report.
     *
     * @param earlier the job's earlier runs, for the page's trend ({@link RunTrend#earlier})
     */
    public static void write(Path folder, Map<String, Object> report, List<RunTrend.Point> earlier) throws IOException {
        Files.createDirectories(folder);
        RunReport.write(folder.resolve("report.json"), report);
        HtmlReport.write(folder.resolve("report.html"), report, RunTrend.withCurrent(earlier, report));
    }

    /** The one-screen summary of a failed run: the status first. */
    @SuppressWarnings("unchecked")
    public static List<String> summary(Map<String, Object> r) {
        List<String> lines = new ArrayList<>();
        lines.add("status:   " + String.valueOf(r.get("status")).toUpperCase(java.util.Locale.ROOT)
                + " (nothing shipped: no catalog.csv)");
        Map<String, Object> execution = (Map<String, Object>) r.get("execution");
        lines.add("ended:    " + execution.get("batch_status") + ": " + execution.get("why"));
        Map<String, Object> input = (Map<String, Object>) r.get("input");
        lines.add("read:     " + input.get("records") + " records: " + input.get("items") + " items, " + input.get("rejects")
                + " rejected");
        for (Object f : (List<Object>) r.get("failures")) {
            lines.add("failure:  " + f);
        }
        if (r.get("run") instanceof Map<?, ?> run && run.get("model_calls") instanceof Map<?, ?> calls
                && calls.get("run") instanceof Map<?, ?> total && total.get("calls") instanceof Number n && n.longValue() > 0) {
            lines.add("model:    " + n + " calls, " + total.get("retries") + " retries, " + total.get("errors") + " errors"
                    + (total.get("errors_by_kind") instanceof Map<?, ?> kinds && !kinds.isEmpty() ? " " + kinds : ""));
        }
        return lines;
    }
}
