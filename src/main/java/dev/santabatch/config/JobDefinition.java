package dev.santabatch.config;

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
 * @param matcher the batch fix's pattern matcher for model-found patterns
 * @param run execution settings
 * @param budget spending limits for model calls
 * @param governor limits and retry policy of model calls
 * @param canaries the canary kinds that test each Santa criterion ({@code rubric[].canaries} or its
 *     default), by criterion id in rubric order; criteria without canaries are absent
 * @param carryOver carry-over of outcomes from earlier runs of the job
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
        MatcherSpec matcher,
        RunSpec run,
        BudgetSpec budget,
        GovernorSpec governor,
        java.util.Map<String, List<CanaryKind>> canaries,
        CarryOverSpec carryOver) {

    /** Carry-over at its defaults. */
    public JobDefinition(Path file, String name, InputSpec input, String taskSpec, List<Criterion> rubric,
            SamplingSpec sampling, SantaSpec santa, List<ReviewerSpec> reviewers, FixerSpec fixer, MatcherSpec matcher,
            RunSpec run, BudgetSpec budget, GovernorSpec governor, java.util.Map<String, List<CanaryKind>> canaries) {
        this(file, name, input, taskSpec, rubric, sampling, santa, reviewers, fixer, matcher, run, budget, governor,
                canaries, CarryOverSpec.defaults());
    }

    /** Every source column a rule reads, with the id of a rule that reads it, in rubric order. */
    public java.util.Map<String, String> ruleColumns() {
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        for (Criterion c : rubric) {
            for (RuleSpec r : c.rules()) {
                if (r instanceof RuleSpec.RequiredPhrase p) {
                    out.putIfAbsent(p.column(), p.id());
                } else if (r instanceof RuleSpec.NumberGrounding g) {
                    g.attributes().forEach(a -> out.putIfAbsent(a.column(), g.id()));
                }
            }
        }
        return out;
    }

    public Optional<Criterion> criterion(String id) {
        return rubric.stream().filter(c -> c.id().equals(id)).findFirst();
    }

    /** True when every reviewer of the panel is a model ({@code llm}). */
    public boolean modelPanel() {
        return !reviewers.isEmpty() && reviewers.stream().allMatch(r -> "llm".equals(r.type()));
    }

    /** True when at least one reviewer of the panel is a model ({@code llm}). */
    public boolean anyModelReviewer() {
        return reviewers.stream().anyMatch(r -> "llm".equals(r.type()));
    }

    /**
     * True when the batch fix matches with the model matcher on narrowed candidates: some panel
     * reviewer is a model and a matcher model exists. A panel with a model reviewer would otherwise
     * run that model on every eligible item (the full scan); only an all-offline panel, whose checks
     * cost no model calls, or a model panel without a matcher model, scans in full.
     */
    public boolean batchFixByModelMatcher() {
        return anyModelReviewer() && matcher.model() != null;
    }

    /** {@link #sameModelReviewers(java.util.function.Function)} in the process's environment. */
    public List<String> sameModelReviewers() {
        return sameModelReviewers(System::getenv);
    }

    /**
     * Pairs of model reviewers that use the same model at the same endpoint, as
     * {@code "B and C: model 'm' at <url>"}. Endpoints are resolved as the models are called
     * ({@link ModelSpec#resolvedBaseUrl}: an absent base URL is {@code OPENAI_BASE_URL}, else
     * OpenAI's), then compared without trailing slashes, case-insensitively. Such reviewers share
     * their biases: their agreement says little (the "juries" result of Verga et al. 2024).
     *
     * @param env the environment as the models see it
     */
    public List<String> sameModelReviewers(java.util.function.Function<String, @org.jspecify.annotations.Nullable String> env) {
        List<String> out = new java.util.ArrayList<>();
        List<ReviewerSpec> models = reviewers.stream().filter(r -> r.model() != null).toList();
        for (int i = 0; i < models.size(); i++) {
            for (int j = i + 1; j < models.size(); j++) {
                ModelSpec a = models.get(i).model();
                ModelSpec b = models.get(j).model();
                String at = a.resolvedBaseUrl(env);
                if (at.equalsIgnoreCase(b.resolvedBaseUrl(env)) && a.model().strip().equalsIgnoreCase(b.model().strip())) {
                    out.add(models.get(i).id() + " and " + models.get(j).id() + ": model '" + a.model() + "' at " + at);
                }
            }
        }
        return List.copyOf(out);
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
