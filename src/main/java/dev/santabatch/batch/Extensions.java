package dev.santabatch.batch;

import dev.santabatch.review.step.Panels;
import dev.santabatch.review.step.ReviewerType;
import dev.santabatch.review.Fixer;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Replacements for reviewer types and the fixer, by name: how tests plug scripted reviewers and
 * fixers into the whole job. Production runs use {@link #none()}.
 *
 * @param reviewerTypes reviewer types by job-file type name, overriding the built-in ones
 * @param fixer a fixer factory overriding the job file's fixer, given the run's panel
 * @param env the environment the model clients read their API keys and {@code OPENAI_BASE_URL}
 *     from ({@code System::getenv} in production; a map in tests)
 */
public record Extensions(Map<String, ReviewerType> reviewerTypes, @Nullable Function<Panels, Fixer> fixer,
        Function<String, @Nullable String> env) {

    public Extensions(Map<String, ReviewerType> reviewerTypes, @Nullable Function<Panels, Fixer> fixer) {
        this(reviewerTypes, fixer, System::getenv);
    }

    public static Extensions none() {
        return new Extensions(Map.of(), null);
    }

    /** No replacements; model clients read the given environment (tests: a fake API key). */
    public static Extensions withEnv(Function<String, @Nullable String> env) {
        return new Extensions(Map.of(), null, env);
    }
}
