package dev.santabatch.run;

import dev.santabatch.catalog.CatalogCsvWriter;
import dev.santabatch.store.FieldsCodec;
import dev.santabatch.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * Writes the run's outputs from the store: {@code catalog.csv} (the input's header, column order
 * and row order; the latest revision's content; escalated items held out) and {@code rejects.csv}.
 * Files are written under a temporary name and moved into place, so a stopped or failed export
 * never leaves a half file; rerunning it rewrites them whole.
 */
final class ExportTasklet implements Tasklet {

    private static final Logger log = LoggerFactory.getLogger(ExportTasklet.class);

    private final Store store;
    private final RunContext run;

    ExportTasklet(Store store, RunContext run) {
        this.store = store;
        this.run = run;
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) throws Exception {
        if (StopSignal.requested()) {
            contribution.getStepExecution().setTerminateOnly();
            return RepeatStatus.FINISHED;
        }
        Files.createDirectories(run.outDir());
        List<String> header = FieldsCodec.decode(store.header(run.runPk())
                .orElseThrow(() -> new IllegalStateException("no header stored for run " + run.runId())));
        int contentIndex = header.indexOf(run.job().input().contentColumn());
        long[] shipped = {0};
        long[] held = {0};
        try (CatalogCsvWriter out = CatalogCsvWriter.create(run.outDir().resolve("catalog.csv"), header)) {
            store.forEachItem(run.runPk(), item -> {
                if ("ESCALATED".equals(item.state())) {
                    held[0]++;
                    return;
                }
                List<String> values = FieldsCodec.decode(item.fields());
                if (item.content() != null) {
                    values = new ArrayList<>(values);
                    values.set(contentIndex, item.content());
                }
                try {
                    out.writeRow(values);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                shipped[0]++;
            });
            out.commit();
        }
        long rejects = 0;
        try (CatalogCsvWriter out = CatalogCsvWriter.create(
                run.outDir().resolve("rejects.csv"), List.of("line", "end_line", "reason", "raw"))) {
            for (Store.RejectRow r : store.rejects(run.runPk())) {
                out.writeRow(List.of(String.valueOf(r.line()), String.valueOf(r.endLine()), r.reason(), r.raw()));
                rejects++;
            }
            out.commit();
        }
        long changes = writeChanges(contentIndex);
        writeEscalations(header, contentIndex);
        contribution.getStepExecution().getExecutionContext().putLong("export.changes", changes);
        contribution.getStepExecution().getExecutionContext().putLong("export.shipped", shipped[0]);
        contribution.getStepExecution().getExecutionContext().putLong("export.held", held[0]);
        contribution.getStepExecution().getExecutionContext().putLong("export.rejects", rejects);
        log.info("export: {} items to {}, {} held, {} rejects, {} changes", shipped[0], run.outDir().resolve("catalog.csv"), held[0], rejects, changes);
        return RepeatStatus.FINISHED;
    }

    /** {@code changes.csv}: one row per revision, with the text before and after; text kept exact. */
    private long writeChanges(int contentIndex) throws IOException {
        long[] n = {0};
        try (CatalogCsvWriter out = CatalogCsvWriter.create(
                run.outDir().resolve("changes.csv"), List.of("item_id", "round", "cause", "pattern", "before", "after"))) {
            store.forEachChange(run.runPk(), c -> {
                String before = c.previous() != null ? c.previous() : FieldsCodec.decode(c.fields()).get(contentIndex);
                try {
                    out.writeRow(c.itemId(), String.valueOf(c.round()), c.cause(), c.pattern() == null ? "" : c.pattern(), before, c.after());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                n[0]++;
            });
            out.commit();
        }
        return n[0];
    }

    /**
     * {@code escalations.csv}: items held for a person, with the original text, the last revision
     * that passed the rules, the last attempted fix and the open issues. Neutralised for
     * spreadsheets (a cell starting with =, +, -, @, tab or CR gets a leading quote).
     */
    private void writeEscalations(List<String> header, int contentIndex) throws IOException {
        try (CatalogCsvWriter out = CatalogCsvWriter.neutralising(
                run.outDir().resolve("escalations.csv"),
                List.of("item_id", "round", "cause", "pattern", "original", "last_passing", "last_attempt", "open_issues"))) {
            store.forEachEscalation(run.runPk(), e -> {
                String original = FieldsCodec.decode(e.fields()).get(contentIndex);
                try {
                    out.writeRow(e.itemId(), String.valueOf(e.round()), e.cause(), e.pattern() == null ? "" : e.pattern(),
                            original, e.current() != null ? e.current() : original,
                            e.lastAttempt() == null ? "" : e.lastAttempt(), e.issues());
                } catch (IOException ex) {
                    throw new UncheckedIOException(ex);
                }
            });
            out.commit();
        }
    }
}
