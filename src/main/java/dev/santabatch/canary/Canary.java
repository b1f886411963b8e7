package dev.santabatch.canary;

import dev.santabatch.config.CanaryKind;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One canary of a round: a copy of a real item (reviewed under that item's id, with its source
 * fields, as the item itself would be) with one planted defect, or unchanged (a clean control).
 * Never an item: it lives in {@code sb_canary} only, and nothing that fixes, samples, classifies
 * or exports items reads that table.
 *
 * @param seq its number in the round (1..)
 * @param itemId the id of the item it copies, the id the reviewers see
 * @param kind the planted defect's kind; null for a clean copy
 * @param criterion the criterion the planted defect tests; null for a clean copy
 * @param donorId the other item a foreign sentence or boilerplate came from; null otherwise
 * @param source the copied item's source fields
 * @param content the text under review
 */
public record Canary(int seq, String itemId, @Nullable CanaryKind kind, @Nullable String criterion,
        @Nullable String donorId, Map<String, String> source, String content) {

    public boolean planted() {
        return kind != null;
    }
}
