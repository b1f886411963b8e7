package dev.santabatch.review;

import dev.santabatch.config.Criterion;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a reviewer sees of one item: the seed's "same inputs" (task spec with the item's
 * source fields, the content) and "identical rubric". Immutable: the panel hands the same
 * instance to every reviewer, and no reviewer can change what another sees.
 *
 * @param taskSpec the task specification the content was written to
 * @param itemId the item's id
 * @param source the item's source fields, column to value, in column order (unmodifiable)
 * @param content the content under review
 * @param rubric the Santa criteria, in rubric order (unmodifiable)
 */
public record ReviewRequest(String taskSpec, String itemId, Map<String, String> source, String content, List<Criterion> rubric) {

    public ReviewRequest {
        Objects.requireNonNull(taskSpec, "taskSpec");
        Objects.requireNonNull(itemId, "itemId");
        Objects.requireNonNull(content, "content");
        source = Collections.unmodifiableMap(new LinkedHashMap<>(source));
        rubric = List.copyOf(rubric);
    }

    /** The ids of the reviewed criteria, in rubric order. */
    public List<String> criterionIds() {
        return rubric.stream().map(Criterion::id).toList();
    }
}
