package dev.santabatch.batch;

import dev.santabatch.model.ModelCalls;
import dev.santabatch.model.SpendStore;
import dev.santabatch.patterns.EmbeddingFailureClassifier;
import dev.santabatch.prepass.RulesRevisionCheck;
import dev.santabatch.review.offline.EmbeddingPool;
import dev.santabatch.review.step.EvidenceIssueSimilarity;
import dev.santabatch.review.step.OfflineFixer;
import dev.santabatch.review.step.OfflineReviewerTypes;
import dev.santabatch.review.step.Panels;
import dev.santabatch.review.step.ReviewerType;
import dev.santabatch.review.step.ReviewerTypes;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.model.CallGovernor;
import dev.santabatch.model.GovernorSettings;
import dev.santabatch.model.LlmClient;
import dev.santabatch.review.llm.LlmFixer;
import dev.santabatch.model.LlmRoles;
import dev.santabatch.model.SpendSnapshot;
import dev.santabatch.review.Fixer;
import dev.santabatch.prepass.rules.RuleEngine;
import dev.santabatch.persistence.Store;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import dev.santabatch.patterns.EmbeddingIssueSimilarity;
import dev.santabatch.patterns.PatternClassifier;

/** Assembles a run's panel from the job file: reviewer types, fixer, classifier, rules re-check. */
public final class RunComponents {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RunComponents.class);

    private RunComponents() {}

    /**
     * The panel of run {@code runPk}: its governor counts on from the spend stored with the run and
     * its call ledger (a resumed run counts cumulatively, against the job file's current budget,
     * every call a killed execution reserved included), reserves every attempt in the ledger before
     * sending it, and its spend is stored as it accrues. A budget stop of the last execution is cleared: this one starts afresh.
     *
     * <p>The reviewer types are the built-in ones, each replaced by a {@link ReviewerType} bean of
     * {@code beans} named as the type; the fixer is the job file's, unless {@code beans} hold a
     * {@link Fixer} (docs/architecture.md).
     *
     * @param env the environment the model clients read their API keys and {@code OPENAI_BASE_URL} from
     */
    public static Panels panels(JobDefinition job, ListableBeanFactory beans, Function<String, @Nullable String> env,
            long runPk) {
        Store store = beans.getBean(Store.class);
        SpendStore spend = new SpendStore(store.jdbc());
        SpendSnapshot prior = spend.load(runPk);
        spend.clearBudgetStop(runPk);
        // a stop (SIGTERM) refuses every attempt not yet sent: the items in flight make no further calls
        CallGovernor governor = new CallGovernor(GovernorSettings.of(job.governor()), job.budget(), prior, spend.ledger(runPk),
                dev.santabatch.execution.StopSignal::requested);
        SpendSnapshot resumed = governor.snapshot();
        if (resumed.run().total().calls() > 0) {
            long unsaved = resumed.run().total().calls() - prior.run().total().calls();
            log.info("resuming model spend of the run: {} calls{}, {} tokens, cost {} so far", resumed.run().total().calls(),
                    unsaved > 0 ? " (" + unsaved + " reserved by an execution that ended before saving them)" : "",
                    resumed.run().total().tokens(), String.format(java.util.Locale.ROOT, "%.4f", resumed.run().total().cost()));
        }
        DataSource dataSource = Objects.requireNonNull(store.jdbc().getDataSource(), "dataSource");
        Map<String, ReviewerType> supplied = beans.getBeansOfType(ReviewerType.class);
        Map<String, ReviewerType> types = new HashMap<>(ReviewerTypes.builtIns(job, governor, env));
        boolean usesLexical = job.reviewers().stream().anyMatch(r -> r.type().equals("lexical"));
        boolean usesSemantic = job.reviewers().stream().anyMatch(r -> r.type().equals("semantic"));
        if (usesLexical && !supplied.containsKey("lexical")) {
            types.put("lexical", new OfflineReviewerTypes.Lexical(job, dataSource));
        }
        if (usesSemantic && !supplied.containsKey("semantic")) {
            types.put("semantic", new OfflineReviewerTypes.Semantic(job, dataSource,
                    beans.getBean(EmbeddingPool.class).executor()));
        }
        types.putAll(supplied);
        Fixer suppliedFixer = beans.getBeanProvider(Fixer.class).getIfAvailable();
        Function<Panels, Fixer> fixer = suppliedFixer != null ? p -> suppliedFixer : p -> defaultFixer(job, governor, p, env);
        LlmClient matcher = job.batchFixByModelMatcher()
                ? LlmClient.create(job.matcher().model(), LlmRoles.MATCHER, governor, env)
                : null;
        ModelCalls modelCalls = new ModelCalls(governor, spend, runPk, matcher);
        double similarity = job.santa().patternSimilarity();
        EmbeddingIssueSimilarity issues = new EmbeddingIssueSimilarity(similarity);
        return new Panels(job, types, new RulesRevisionCheck(RuleEngine.forJob(job)), new EvidenceIssueSimilarity(issues),
                new EmbeddingFailureClassifier(new PatternClassifier(issues, similarity)), fixer, modelCalls);
    }

    /**
     * The API-key environment variables the run's model roles need that are not set, each with the
     * roles that name it ({@code reviewer:B}, {@code fixer}, {@code matcher}), in job-file order; empty
     * when every one is set in {@code env}. Checked before a run is created, so that every missing
     * variable is named at once; values are never returned.
     */
    public static Map<String, List<String>> missingApiKeys(JobDefinition job, Function<String, @Nullable String> env) {
        Map<String, List<String>> roles = new java.util.LinkedHashMap<>();
        java.util.function.BiConsumer<String, dev.santabatch.config.ModelSpec> need = (role, model) -> {
            String var = model.apiKeyEnv() == null || model.apiKeyEnv().isBlank()
                    ? LlmClient.DEFAULT_API_KEY_ENV : model.apiKeyEnv().strip();
            roles.computeIfAbsent(var, k -> new ArrayList<>()).add(role);
        };
        for (dev.santabatch.config.ReviewerSpec r : job.reviewers()) {
            if ("llm".equals(r.type()) && r.model() != null) {
                need.accept(LlmRoles.reviewer(r.id()), r.model());
            }
        }
        if ("llm".equals(job.fixer().type()) && job.fixer().model() != null) {
            need.accept(LlmRoles.FIXER, job.fixer().model());
        }
        if (job.batchFixByModelMatcher()) {
            need.accept(LlmRoles.MATCHER, Objects.requireNonNull(job.matcher().model(), "matcher.model"));
        }
        roles.keySet().removeIf(var -> {
            String value = env.apply(var);
            return value != null && !value.isBlank();
        });
        return roles;
    }

    private static Fixer defaultFixer(JobDefinition job, CallGovernor governor, Panels panels,
            Function<String, @Nullable String> env) {
        if ("offline".equals(job.fixer().type())) {
            return new OfflineFixer(job, panels);
        }
        if ("llm".equals(job.fixer().type())) {
            return new LlmFixer(LlmClient.create(Objects.requireNonNull(job.fixer().model(), "fixer.model"),
                    LlmRoles.FIXER, governor, env));
        }
        throw new IllegalArgumentException("fixer type '" + job.fixer().type() + "' is not available in this build");
    }
}
