package dev.santabatch.review;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the fixer gets: the content, its source facts and the merged critical issues, which are
 * the only things it may fix (the seed: "Fix ONLY the flagged issues").
 *
 * @param content the current text
 * @param source the item's source fields, in column order (unmodifiable)
 * @param criticalIssues the gate's merged, de-duplicated critical issues
 * @param taskSpec the task specification the content was written to
 * @param itemId the item's id ({@code ""} when unknown): offline fixers compare the item with the
 *     rest of the catalog, and must leave the item itself out
 * @param examples accepted fixes of the same pattern in the sample (batch-fix only; may be empty)
 */
public record FixRequest(
        String content, Map<String, String> source, List<String> criticalIssues, String taskSpec, String itemId,
        List<FixExample> examples) {

    public FixRequest(String content, Map<String, String> source, List<String> criticalIssues, String taskSpec) {
        this(content, source, criticalIssues, taskSpec, "", List.of());
    }

    public FixRequest(String content, Map<String, String> source, List<String> criticalIssues, String taskSpec,
            String itemId) {
        this(content, source, criticalIssues, taskSpec, itemId, List.of());
    }

    public FixRequest {
        examples = List.copyOf(examples);
        Objects.requireNonNull(itemId, "itemId");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(taskSpec, "taskSpec");
        source = Collections.unmodifiableMap(new LinkedHashMap<>(source));
        criticalIssues = List.copyOf(criticalIssues);
    }
}
