package dev.santabatch.review.offline;

import java.util.Map;

/**
 * One item as the catalog snapshot of a round sees it.
 *
 * @param id the item id
 * @param rev the item's current revision number (0 = as ingested)
 * @param content the current revision's content
 * @param source the item's source facts, by column, in the job's source-column order
 * @param category the stratum, or {@code null} without a category column
 */
public record SnapshotItem(String id, int rev, String content, Map<String, String> source, String category) {}
