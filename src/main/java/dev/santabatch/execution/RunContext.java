package dev.santabatch.execution;

import dev.santabatch.config.JobDefinition;
import java.nio.file.Path;
import java.util.List;

/**
 * What one invocation works on: the validated job, the run's key in the store and where it writes.
 *
 * @param runPk the run's key in the project's tables
 * @param header the input's header, in column order
 * @param warnings the job file's validation warnings (the report flags them)
 * @param outDir {@code <out>/<job-name>/<run-id>}
 * @param sameModelReviewers the panel's reviewers on one endpoint and model, resolved in the
 *     environment the models see ({@link JobDefinition#sameModelReviewers(java.util.function.Function)})
 */
public record RunContext(JobDefinition job, String runId, long runPk, Path input, Path outDir, long seed, List<String> header,
        List<String> warnings, List<String> sameModelReviewers) {

    public RunContext {
        sameModelReviewers = List.copyOf(sameModelReviewers);
    }

    /** In the process's environment. */
    public RunContext(JobDefinition job, String runId, long runPk, Path input, Path outDir, long seed, List<String> header,
            List<String> warnings) {
        this(job, runId, runPk, input, outDir, seed, header, warnings, job.sameModelReviewers());
    }

    /**
     * The job file's ground truth, when the run reads the catalog it describes: {@code null} when
     * the job names none, or when {@code --input} replaced the job's {@code input.path} (the truth
     * file's ids and passages belong to that other catalog).
     */
    public @org.jspecify.annotations.Nullable Path groundTruth() {
        Path truth = job.input().groundTruth();
        if (truth == null || !readsJobInput()) {
            return null;
        }
        return truth;
    }

    /** Whether the run reads the job file's own {@code input.path} (not a {@code --input} override). */
    public boolean readsJobInput() {
        return input.toAbsolutePath().normalize().equals(job.input().path().toAbsolutePath().normalize());
    }

    public int column(String name) {
        return header.indexOf(name);
    }

    /** Index of the category column in the header, or -1 without one. */
    public int categoryIndex() {
        String category = job.input().categoryColumn();
        return category == null ? -1 : column(category);
    }
}
