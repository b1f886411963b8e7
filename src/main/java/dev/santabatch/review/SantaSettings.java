package dev.santabatch.review;

import dev.santabatch.config.Criterion;
import dev.santabatch.config.JobDefinition;
import java.util.List;
import java.util.Objects;

/**
 * The job-level inputs of the Santa processor.
 *
 * @param taskSpec the task specification (given to reviewers and the fixer)
 * @param santaCriteria the criteria the panel reviews, in rubric order
 * @param maxIterations fixes per item before escalation (1 or more; the job default is 3)
 */
public record SantaSettings(String taskSpec, List<Criterion> santaCriteria, int maxIterations) {

    public static final int DEFAULT_MAX_ITERATIONS = 3;

    public SantaSettings {
        Objects.requireNonNull(taskSpec, "taskSpec");
        santaCriteria = List.copyOf(santaCriteria);
        if (santaCriteria.isEmpty()) {
            throw new IllegalArgumentException("no Santa criteria to review");
        }
        if (maxIterations < 1) {
            throw new IllegalArgumentException("maxIterations must be at least 1, was " + maxIterations);
        }
    }

    public static SantaSettings of(JobDefinition job) {
        return new SantaSettings(job.taskSpec(), job.santaCriteria(), job.santa().maxIterations());
    }

    public List<String> criterionIds() {
        return santaCriteria.stream().map(Criterion::id).toList();
    }
}
