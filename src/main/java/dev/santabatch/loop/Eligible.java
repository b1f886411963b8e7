package dev.santabatch.loop;

import dev.santabatch.sampling.StratumKey;
import dev.santabatch.store.Store;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The sampling population: items whose current revision is not yet verified NICE and that are not
 * escalated, in input order, each with its stratum (category, changed by the last batch-fix) and
 * whether it is a member of the covered stratum ({@link StratumStore}).
 */
final class Eligible {

    /** An eligible item, its Pattern C stratum, and whether it is in the covered stratum. */
    interface Action {
        void accept(Store.StoredItem item, StratumKey key, boolean covered);
    }

    private Eligible() {}

    /** @param strata where to look up the covered stratum's members; {@code null}: none is (every item is Pattern C's) */
    static void forEach(Store store, @Nullable StratumStore strata, long runPk, int lastRound, Action action) {
        long after = -1;
        while (true) {
            List<Store.EligibleItem> page = store.eligibleAfter(runPk, after, lastRound, 2000);
            if (page.isEmpty()) {
                return;
            }
            long last = page.get(page.size() - 1).item().recordIndex();
            Set<String> covered = strata == null ? Set.of() : strata.members(runPk, after, last);
            for (Store.EligibleItem e : page) {
                action.accept(e.item(), new StratumKey(e.category() == null ? "" : e.category(), e.changedLastRound()),
                        covered.contains(e.item().id()));
            }
            after = last;
        }
    }

    static String label(StratumKey key) {
        return (key.category().isEmpty() ? "(all)" : key.category()) + (key.changed() ? "+changed" : "");
    }
}
