package dev.santabatch.sampling;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.Objects;

/**
 * A sampling stratum: the item's category and whether its current revision was written by the
 * last round's batch-fix ({@code changed}). Stratifying by both represents the items the batch-fix
 * just rewrote in proportion, so the fixed batch is re-verified as the seed asks.
 *
 * <p>Ordered by category ({@link String#compareTo}, UTF-16 code units) and then unchanged before
 * changed; this order, never a hash order, fixes the largest-remainder tie-break and the order of
 * per-stratum results.
 *
 * @param category the category value; {@code ""} when the job has no category column
 * @param changed the item's current revision was written by the last round's batch-fix
 */
public record StratumKey(String category, boolean changed) implements Comparable<StratumKey> {

    private static final Comparator<StratumKey> ORDER = Comparator.comparing(StratumKey::category)
            .thenComparing(StratumKey::changed);

    public StratumKey {
        Objects.requireNonNull(category, "category");
    }

    @Override
    public int compareTo(StratumKey o) {
        return ORDER.compare(this, o);
    }

    /**
     * A 64-bit hash of the key that is the same in every JVM (FNV-1a over the category's UTF-8
     * bytes, then the changed flag); used to derive the stratum's random stream.
     */
    long stableHash() {
        return stableHash(category, changed ? 0x1ff : 0x100);
    }

    /** FNV-1a over the text's UTF-8 bytes, then the terminator. */
    static long stableHash(String text, int terminator) {
        long h = 0xcbf29ce484222325L;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= 0x100000001b3L;
        }
        h ^= terminator;
        h *= 0x100000001b3L;
        return h;
    }

    @Override
    public String toString() {
        return (category.isEmpty() ? "(no category)" : category) + (changed ? " / changed" : " / unchanged");
    }
}
