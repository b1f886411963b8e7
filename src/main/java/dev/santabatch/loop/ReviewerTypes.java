package dev.santabatch.loop;

import dev.santabatch.job.JobDefinition;
import dev.santabatch.job.ReviewerSpec;
import dev.santabatch.llm.CallGovernor;
import dev.santabatch.llm.LlmClient;
import dev.santabatch.llm.LlmReviewer;
import dev.santabatch.llm.LlmRoles;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;

/** The built-in reviewer types, by job-file name. */
public final class ReviewerTypes {

    private ReviewerTypes() {}

    public static Map<String, ReviewerType> builtIns(JobDefinition job, CallGovernor governor) {
        return builtIns(job, governor, System::getenv);
    }

    public static Map<String, ReviewerType> builtIns(JobDefinition job, CallGovernor governor,
            java.util.function.Function<String, @org.jspecify.annotations.Nullable String> env) {
        Map<String, ReviewerType> types = new HashMap<>();
        types.put("llm", new ReviewerType() {
            @Override
            public dev.santabatch.review.Reviewer create(ReviewerSpec spec) {
                LlmClient client = LlmClient.create(Objects.requireNonNull(spec.model(), "model"),
                        LlmRoles.reviewer(spec.id()), governor, env);
                return new LlmReviewer(spec.id(), new LinkedHashSet<>(spec.criteria()), client);
            }
        });
        return types;
    }
}
