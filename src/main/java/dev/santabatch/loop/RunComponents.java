package dev.santabatch.loop;

import dev.santabatch.job.JobDefinition;
import dev.santabatch.llm.CallGovernor;
import dev.santabatch.llm.GovernorSettings;
import dev.santabatch.llm.LlmClient;
import dev.santabatch.llm.LlmFixer;
import dev.santabatch.llm.LlmRoles;
import dev.santabatch.llm.SpendSnapshot;
import dev.santabatch.review.Fixer;
import dev.santabatch.review.IssueSimilarity;
import dev.santabatch.rules.RuleEngine;
import dev.santabatch.store.Store;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/** Assembles a run's panel from the job file: reviewer types, fixer, classifier, rules re-check. */
public final class RunComponents {

    private RunComponents() {}

    public static Panels panels(JobDefinition job, Store store, Extensions extensions) {
        CallGovernor governor = new CallGovernor(GovernorSettings.defaults(), job.budget(), SpendSnapshot.NONE);
        Map<String, ReviewerType> types = new HashMap<>(ReviewerTypes.builtIns(job, governor));
        types.putAll(extensions.reviewerTypes());
        Function<Panels, Fixer> fixer = extensions.fixer() != null ? extensions.fixer() : p -> defaultFixer(job, governor);
        return new Panels(job, types, new RulesRevisionCheck(RuleEngine.forJob(job)), IssueSimilarity.exactNormalised(),
                new ExactIssueClassifier(), fixer);
    }

    private static Fixer defaultFixer(JobDefinition job, CallGovernor governor) {
        if ("llm".equals(job.fixer().type())) {
            return new LlmFixer(LlmClient.create(Objects.requireNonNull(job.fixer().model(), "fixer.model"),
                    LlmRoles.FIXER, governor, System::getenv));
        }
        throw new IllegalArgumentException("fixer type '" + job.fixer().type() + "' is not available in this build");
    }
}
