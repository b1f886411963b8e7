package dev.santabatch.job;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One catalog job, as read from a validated job file. Every value here is resolved: defaults are
 * applied by {@link JobFileLoader}, relative paths are resolved against the job file's folder.
 *
 * @param file the job file this definition was read from
 * @param name the job name, a safe path segment; used for the output folder and the job instance
 * @param input where the catalog is and how its columns map
 * @param taskSpec the task specification the content was written to (given to reviewers)
 * @param rubric the criteria, in file order
 * @param sampling Pattern C sampling settings
 * @param santa convergence and loop settings
 * @param reviewers the Santa panel (B, C and an optional third), in file order
 * @param fixer the fixer for naughty items
 * @param run execution settings
 * @param budget spending limits for model calls
 */
public record JobDefinition(
        Path file,
        String name,
        InputSpec input,
        String taskSpec,
        List<Criterion> rubric,
        SamplingSpec sampling,
        SantaSpec santa,
        List<ReviewerSpec> reviewers,
        FixerSpec fixer,
        RunSpec run,
        BudgetSpec budget) {

    public Optional<Criterion> criterion(String id) {
        return rubric.stream().filter(c -> c.id().equals(id)).findFirst();
    }

    /** Criteria the Santa panel reviews (checked-by santa or both). */
    public List<Criterion> santaCriteria() {
        return rubric.stream().filter(Criterion::reviewedBySanta).toList();
    }

    /** Criteria with deterministic rules run by the pre-pass (checked-by rules or both). */
    public List<Criterion> ruleCriteria() {
        return rubric.stream().filter(Criterion::checkedByRules).toList();
    }
}
