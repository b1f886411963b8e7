package dev.santabatch.batchfix;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One candidate item for one model-found pattern.
 *
 * @param criterionId the pattern's criterion
 * @param pattern the pattern as issue text (e.g. the representative critical issue)
 * @param examples before/after fixes of this pattern from the sample (a few suffice)
 * @param taskSpec the task specification
 * @param source the candidate's source fields, in column order
 * @param content the candidate's current text
 */
public record MatchRequest(
        String criterionId, String pattern, List<Example> examples, String taskSpec, Map<String, String> source, String content) {

    public MatchRequest {
        Objects.requireNonNull(criterionId, "criterionId");
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(taskSpec, "taskSpec");
        Objects.requireNonNull(content, "content");
        examples = List.copyOf(examples);
        source = Collections.unmodifiableMap(new LinkedHashMap<>(source));
    }

    /** A sampled item's text before and after the fix of this pattern. */
    public record Example(String before, String after) {
        public Example {
            Objects.requireNonNull(before, "before");
            Objects.requireNonNull(after, "after");
        }
    }
}
