package dev.santabatch.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * A kind of canary: a copy of a real item with one planted defect of a kind a Santa criterion
 * covers ({@code rubric[].canaries}; docs/canaries.md).
 */
public enum CanaryKind {
    /** A sentence of another item, one that names that item, inserted among the item's sentences. */
    FOREIGN_SENTENCE("foreign-sentence"),
    /** The item's first sentence followed by another item's text (its sentences that do not name it). */
    BOILERPLATE("boilerplate"),
    /** A number the text states from a source column, changed so that it contradicts the column. */
    CHANGED_NUMBER("changed-number");

    private final String id;

    CanaryKind(String id) {
        this.id = id;
    }

    /** The kind as the job file spells it. */
    public String id() {
        return id;
    }

    static Optional<CanaryKind> of(String id) {
        return Arrays.stream(values()).filter(k -> k.id.equals(id.strip().toLowerCase(Locale.ROOT))).findFirst();
    }

    static String ids() {
        return String.join(", ", Arrays.stream(values()).map(CanaryKind::id).toList());
    }
}
