package dev.santabatch.batchfix.induction;

import java.util.Map;

/**
 * A sampled item's accepted fix: its text as sampled and as the Santa loop left it NICE.
 *
 * @param facts the item's source columns (name to value)
 */
public record AcceptedFix(String itemId, String before, String after, Map<String, String> facts) {
    public AcceptedFix {
        facts = Map.copyOf(facts);
    }
}
