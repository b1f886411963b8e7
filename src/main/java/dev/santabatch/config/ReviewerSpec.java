package dev.santabatch.config;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One member of the Santa panel.
 *
 * @param id the reviewer's name in reports (e.g. B, C)
 * @param type {@code llm}, {@code lexical} or {@code semantic}
 * @param criteria Santa criteria this reviewer judges; a model reviewer judges all of them, so for
 *     {@code llm} this is every Santa criterion
 * @param model the model, for {@code llm}; {@code null} otherwise
 * @param thresholds method-specific thresholds (offline reviewers), by name
 */
public record ReviewerSpec(
        String id, String type, List<String> criteria, @Nullable ModelSpec model, Map<String, Double> thresholds) {}
