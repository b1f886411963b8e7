package dev.santabatch.loop;

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
 */
public record Extensions(Map<String, ReviewerType> reviewerTypes, @Nullable Function<Panels, Fixer> fixer) {

    public static Extensions none() {
        return new Extensions(Map.of(), null);
    }
}
