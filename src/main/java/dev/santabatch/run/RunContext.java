package dev.santabatch.run;

import dev.santabatch.job.JobDefinition;
import java.nio.file.Path;
import java.util.List;

/**
 * What one invocation works on: the validated job, the run's key in the store and where it writes.
 *
 * @param runPk the run's key in the project's tables
 * @param header the input's header, in column order
 * @param outDir {@code <out>/<job-name>/<run-id>}
 */
public record RunContext(JobDefinition job, String runId, long runPk, Path input, Path outDir, long seed, List<String> header) {

    public int column(String name) {
        return header.indexOf(name);
    }
}
