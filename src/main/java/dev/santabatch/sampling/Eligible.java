package dev.santabatch.sampling;

import dev.santabatch.execution.StopSignal;
import dev.santabatch.execution.PreparationStoppedException;
import dev.santabatch.persistence.Store;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import org.jspecify.annotations.Nullable;

/**
 * The sampling population: items whose current revision is not yet verified NICE and that are not
 * escalated, in input order, each with its stratum (category, changed by the last batch-fix) and
 * whether it is a member of the covered stratum ({@link StratumStore}).
 */
public final class Eligible {

    /** An eligible item, its Pattern C stratum, and whether it is in the covered stratum. */
    interface Action {
        void accept(Store.StoredItem item, StratumKey key, boolean covered);
    }

    private Eligible() {}

    /** Eligible items read per page; a requested stop is seen before each page. */
    static final int PAGE = 2000;

    /**
     * Walks the eligible items a page at a time. A requested stop (SIGTERM, Ctrl-C) is seen before
     * each page: the pass ends within one page of it ({@link PreparationStoppedException}: the step
     * ends STOPPED, restartable).
     *
     * @param strata where to look up the covered stratum's members; {@code null}: none is (every item is Pattern C's)
     * @param what the pass, for the stop's message
     */
    static void forEach(Store store, @Nullable StratumStore strata, long runPk, int lastRound, String what, Action action) {
        forEach(after -> store.eligibleAfter(runPk, after, lastRound, PAGE),
                strata == null ? (after, last) -> Set.of() : (after, last) -> strata.members(runPk, after, last),
                StopSignal::requested, what, action);
    }

    /**
     * The walk itself: {@code pageAfter} gives the page after a record index, {@code coveredIn} the
     * covered stratum's members in a record index range (after, up to].
     */
    static void forEach(LongFunction<List<Store.EligibleItem>> pageAfter, BiFunction<Long, Long, Set<String>> coveredIn,
            BooleanSupplier stopRequested, String what, Action action) {
        long after = -1;
        long seen = 0;
        while (true) {
            if (stopRequested.getAsBoolean()) {
                throw new PreparationStoppedException(what + ": " + seen + " eligible items scanned");
            }
            List<Store.EligibleItem> page = pageAfter.apply(after);
            if (page.isEmpty()) {
                return;
            }
            long last = page.get(page.size() - 1).item().recordIndex();
            Set<String> covered = coveredIn.apply(after, last);
            for (Store.EligibleItem e : page) {
                action.accept(e.item(), new StratumKey(e.category() == null ? "" : e.category(), e.changedLastRound()),
                        covered.contains(e.item().id()));
            }
            seen += page.size();
            after = last;
        }
    }

    static String label(StratumKey key) {
        return (key.category().isEmpty() ? "(all)" : key.category()) + (key.changed() ? "+changed" : "");
    }
}
