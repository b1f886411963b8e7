package dev.santabatch.plan;

import dev.santabatch.carry.CarryKind;
import dev.santabatch.carry.CarryMiss;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What round 1 of a run starts with: the items read and rejected, what carry-over gives them, what
 * the pre-pass's rules change or hold, the eligible items by category, and a few eligible items whose
 * prompts size the model calls. Counted from a catalog by {@link CatalogCensus} (what a run started
 * now would find) or from a run's store after its pre-pass by {@link PlanStore#census}.
 *
 * @param items items read (rejects apart)
 * @param rejects rows that could not be read, duplicate ids included
 * @param lookedAt the earlier runs carry-over looks at, newest first (run ids); empty: none
 * @param carried items carried over, by kind ({@link CarryKind#key()}, in that order)
 * @param judgedAfresh items an earlier run judged that are judged again, by why ({@link CarryMiss#key()})
 * @param rulesFixed items not carried over whose text a rule changes
 * @param rulesHeld items not carried over that a rule holds (escalated in the pre-pass)
 * @param eligible the items round 1 samples from, by category ({@code ""} without a category column)
 * @param covered of those, the items carried over as covered (the covered stratum's members), by category
 * @param lastLook the job's run whose draw of its covered stratum was the last look at it; {@code null}: none
 * @param coveredLooks k, the looks at the covered stratum this one would be ({@link
 *     dev.santabatch.sampling.StratumStore#looks})
 * @param promptItems up to {@value #PROMPT_ITEMS} eligible items, drawn the same way by both counts
 */
public record Census(long items, long rejects, List<String> lookedAt, Map<String, Long> carried,
        Map<String, Long> judgedAfresh, long rulesFixed, long rulesHeld, Map<String, Long> eligible,
        Map<String, Long> covered, @Nullable String lastLook, int coveredLooks, List<PromptItem> promptItems) {

    /** The eligible items whose prompts size the calls. */
    public static final int PROMPT_ITEMS = 20;

    public Census {
        lookedAt = List.copyOf(lookedAt);
        carried = ordered(carried, kinds());
        judgedAfresh = ordered(judgedAfresh, misses());
        eligible = new TreeMap<>(eligible);
        covered = new TreeMap<>(covered);
        promptItems = List.copyOf(promptItems);
    }

    /** An eligible item as a reviewer would be shown it: its current text and its source facts. */
    public record PromptItem(String id, String content, Map<String, String> source) {
        public PromptItem {
            source = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(source));
        }
    }

    public long carriedTotal() {
        return carried.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Items no earlier run judged (new to the job, or carry-over off). */
    public long fresh() {
        return items - carriedTotal() - judgedAfresh.values().stream().mapToLong(Long::longValue).sum();
    }

    public long eligibleTotal() {
        return eligible.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The changed stratum's eligible items, by category: the eligible items that are not covered. */
    public Map<String, Long> changed() {
        Map<String, Long> out = new TreeMap<>();
        eligible.forEach((category, n) -> {
            long left = n - covered.getOrDefault(category, 0L);
            if (left > 0) {
                out.put(category, left);
            }
        });
        return out;
    }

    public long coveredTotal() {
        return covered.values().stream().mapToLong(Long::longValue).sum();
    }

    private static List<String> kinds() {
        return java.util.Arrays.stream(CarryKind.values()).map(CarryKind::key).toList();
    }

    private static List<String> misses() {
        return java.util.Arrays.stream(CarryMiss.values()).map(CarryMiss::key).toList();
    }

    private static Map<String, Long> ordered(Map<String, Long> counts, List<String> keys) {
        Map<String, Long> out = new LinkedHashMap<>();
        keys.forEach(k -> out.put(k, counts.getOrDefault(k, 0L)));
        return java.util.Collections.unmodifiableMap(out);
    }

    /**
     * Draws the prompt items from the eligible items offered in input order: a reservoir of
     * {@value #PROMPT_ITEMS} with a fixed seed, so that the catalog's count and the run's choose the
     * same items.
     */
    static final class PromptDraw {
        private final Random random = new Random(PROMPT_ITEMS);
        private final List<PromptItem> kept = new ArrayList<>();
        private long seen;

        void offer(String id, String content, Map<String, String> source) {
            if (kept.size() < PROMPT_ITEMS) {
                kept.add(new PromptItem(id, content, source));
            } else {
                long j = (long) (random.nextDouble() * (seen + 1));
                if (j < PROMPT_ITEMS) {
                    kept.set((int) j, new PromptItem(id, content, source));
                }
            }
            seen++;
        }

        List<PromptItem> items() {
            return List.copyOf(kept);
        }
    }
}
