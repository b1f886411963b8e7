package dev.santabatch.review.step;

import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.model.CallGovernor;
import dev.santabatch.model.LlmClient;
import dev.santabatch.review.llm.LlmReviewer;
import dev.santabatch.model.LlmRoles;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** The built-in reviewer types, by job-file name. */
public final class ReviewerTypes {

    private ReviewerTypes() {}

    public static Map<String, ReviewerType> builtIns(JobDefinition job, CallGovernor governor) {
        return builtIns(job, governor, System::getenv);
    }

    public static Map<String, ReviewerType> builtIns(JobDefinition job, CallGovernor governor,
            java.util.function.Function<String, @org.jspecify.annotations.Nullable String> env) {
        Map<String, ReviewerType> types = new HashMap<>();
        // one client (and so one HTTP client with its connection pool) per reviewer for the run;
        // every panel gets a fresh, stateless LlmReviewer over it
        Map<String, LlmClient> clients = new ConcurrentHashMap<>();
        types.put("llm", new ReviewerType() {
            @Override
            public dev.santabatch.review.Reviewer create(ReviewerSpec spec) {
                LlmClient client = clients.computeIfAbsent(spec.id(), id -> LlmClient.create(
                        Objects.requireNonNull(spec.model(), "model"), LlmRoles.reviewer(id), governor, env));
                return new LlmReviewer(spec.id(), new LinkedHashSet<>(spec.criteria()), client);
            }
        });
        return types;
    }
}
