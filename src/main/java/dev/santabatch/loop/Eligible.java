package dev.santabatch.loop;

import dev.santabatch.sampling.StratumKey;
import dev.santabatch.store.Store;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The sampling population: items whose current revision is not yet verified NICE and that are not
 * escalated, in input order, each with its stratum (category, changed by the last batch-fix).
 */
final class Eligible {

    private Eligible() {}

    static void forEach(Store store, long runPk, int lastRound, BiConsumer<Store.StoredItem, StratumKey> action) {
        long after = -1;
        while (true) {
            List<Store.EligibleItem> page = store.eligibleAfter(runPk, after, lastRound, 2000);
            if (page.isEmpty()) {
                return;
            }
            for (Store.EligibleItem e : page) {
                action.accept(e.item(), new StratumKey(e.category() == null ? "" : e.category(), e.changedLastRound()));
            }
            after = page.get(page.size() - 1).item().recordIndex();
        }
    }

    static String label(StratumKey key) {
        return (key.category().isEmpty() ? "(all)" : key.category()) + (key.changed() ? "+changed" : "");
    }
}
