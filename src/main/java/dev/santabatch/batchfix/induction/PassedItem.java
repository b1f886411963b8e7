package dev.santabatch.batchfix.induction;

import java.util.Map;

/**
 * A sampled item both reviewers passed on its first review, or an eligible catalog item: its text
 * and source columns.
 */
public record PassedItem(String itemId, String text, Map<String, String> facts) {
    public PassedItem {
        facts = Map.copyOf(facts);
    }
}
