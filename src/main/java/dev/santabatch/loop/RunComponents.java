package dev.santabatch.loop;

import dev.santabatch.job.JobDefinition;
import dev.santabatch.llm.CallGovernor;
import dev.santabatch.llm.GovernorSettings;
import dev.santabatch.llm.LlmClient;
import dev.santabatch.llm.LlmFixer;
import dev.santabatch.llm.LlmRoles;
import dev.santabatch.llm.SpendSnapshot;
import dev.santabatch.review.Fixer;
import dev.santabatch.rules.RuleEngine;
import dev.santabatch.store.Store;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import dev.santabatch.patterns.EmbeddingIssueSimilarity;
import dev.santabatch.patterns.PatternClassifier;

/** Assembles a run's panel from the job file: reviewer types, fixer, classifier, rules re-check. */
public final class RunComponents {

    private RunComponents() {}

    public static Panels panels(JobDefinition job, Store store, Extensions extensions) {
        return panels(job, store, extensions, System::getenv);
    }

    /**
     * @param env environment lookup for the models' API keys and {@code OPENAI_BASE_URL}
     *     ({@code System::getenv} in production; tests supply keys without a real environment)
     */
    public static Panels panels(JobDefinition job, Store store, Extensions extensions, Function<String, @Nullable String> env) {
        CallGovernor governor = new CallGovernor(GovernorSettings.of(job.governor()), job.budget(), SpendSnapshot.NONE);
        DataSource dataSource = Objects.requireNonNull(store.jdbc().getDataSource(), "dataSource");
        Map<String, ReviewerType> types = new HashMap<>(ReviewerTypes.builtIns(job, governor, env));
        boolean usesLexical = job.reviewers().stream().anyMatch(r -> r.type().equals("lexical"));
        boolean usesSemantic = job.reviewers().stream().anyMatch(r -> r.type().equals("semantic"));
        if (usesLexical && !extensions.reviewerTypes().containsKey("lexical")) {
            types.put("lexical", new OfflineReviewerTypes.Lexical(job, dataSource));
        }
        if (usesSemantic && !extensions.reviewerTypes().containsKey("semantic")) {
            types.put("semantic", new OfflineReviewerTypes.Semantic(job, dataSource, EMBEDDING_POOL));
        }
        types.putAll(extensions.reviewerTypes());
        Function<Panels, Fixer> fixer = extensions.fixer() != null ? extensions.fixer() : p -> defaultFixer(job, governor, p, env);
        double similarity = job.santa().patternSimilarity();
        EmbeddingIssueSimilarity issues = new EmbeddingIssueSimilarity(similarity);
        return new Panels(job, types, new RulesRevisionCheck(RuleEngine.forJob(job)), new EvidenceIssueSimilarity(issues),
                new EmbeddingFailureClassifier(new PatternClassifier(issues, similarity)), fixer);
    }

    /** Embeds in batches on this pool: one thread per core. */
    private static final ExecutorService EMBEDDING_POOL = Executors.newFixedThreadPool(
            Math.max(1, Runtime.getRuntime().availableProcessors()), r -> {
                Thread t = new Thread(r, "santa-embed");
                t.setDaemon(true);
                return t;
            });

    private static Fixer defaultFixer(JobDefinition job, CallGovernor governor, Panels panels, Function<String, @Nullable String> env) {
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
