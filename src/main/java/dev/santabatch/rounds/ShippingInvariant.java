package dev.santabatch.rounds;

import dev.santabatch.persistence.ItemState;
import dev.santabatch.persistence.Store;
import java.util.Map;
import java.util.Objects;

/**
 * Where each accepted item goes when a run's outputs are written: the shipping invariant.
 *
 * <ul>
 *   <li>held by a person ({@code escalations.csv}): an item escalated in the run; and an item with a
 *       FAIL from any reviewer on its current revision that the run ended before resolving
 *       ({@link #FAIL_UNRESOLVED}: a FAIL is never outvoted, not even by a reviewer that failed to
 *       review, nor covered by a clean sample);
 *   <li>shipped ({@code catalog.csv} when the run ends {@code clean} or {@code fully-reviewed},
 *       {@code verified.csv} otherwise): an item NICE on its current revision; and, in a clean run
 *       only, an item never sampled, which the clean sample covers;
 *   <li>unverified ({@code unverified.csv}, with why): the rest, i.e. an item sampled and not NICE
 *       on its current revision (left unreviewed, or passed and revised since: no sample covers an
 *       item it drew), and, in a run that did not end clean, every item not verified NICE.
 * </ul>
 *
 * Every accepted item has exactly one place. Derived from the store on every export, so a run
 * resumed after a limit was raised (more rounds, a larger budget) goes on from the stored state and
 * its export replaces the earlier one. Carry-over reads an earlier run's placements through the same
 * rule, so what a run held stays held.
 */
public final class ShippingInvariant {

    /** The escalation reason of an item left with a FAIL on its current revision. */
    public static final String FAIL_UNRESOLVED = "FAIL_UNRESOLVED";

    /** An item's output file. */
    public enum Place {
        SHIPPED,
        UNVERIFIED,
        HELD
    }

    /**
     * @param place where the item goes
     * @param why for an unverified item, why it is not verified (for {@code unverified.csv}); empty
     *     otherwise
     * @param failed for an item held as {@link #FAIL_UNRESOLVED}: the unresolved FAIL, else {@code null}
     */
    public record Placement(Place place, String why, LoopStore.@org.jspecify.annotations.Nullable FailedReview failed) {}

    private final boolean coveredByCleanSample;
    private final String status;
    private final Map<String, LoopStore.FailedReview> failed;
    private final Map<String, LoopStore.SampledActive> sampled;

    /**
     * @param status the run's status ({@link Decision#CLEAN}, {@link Decision#FULLY_REVIEWED},
     *     {@code not-clean}, {@code budget-stopped})
     */
    public ShippingInvariant(LoopStore loop, long runPk, String status) {
        this(loop.failsOnCurrentRevision(runPk), loop.sampledActive(runPk), status);
    }

    /**
     * @param failed by item, the unresolved FAIL on its current revision
     * @param sampled by item, the latest round that sampled an item still ACTIVE
     */
    ShippingInvariant(Map<String, LoopStore.FailedReview> failed, Map<String, LoopStore.SampledActive> sampled,
            String status) {
        this.status = Objects.requireNonNull(status, "status");
        this.coveredByCleanSample = ships(status);
        this.failed = Map.copyOf(failed);
        this.sampled = Map.copyOf(sampled);
    }

    /** Whether a run of this status writes {@code catalog.csv} (else {@code verified.csv}). */
    public static boolean ships(String status) {
        return Decision.CLEAN.equals(status) || Decision.FULLY_REVIEWED.equals(status);
    }

    /** The shipped file's name for this status. */
    public static String shippedFile(String status) {
        return ships(status) ? "catalog.csv" : "verified.csv";
    }

    public Placement place(Store.StoredItem item) {
        return place(item.id(), item.state());
    }

    /** Where the item of this id and state ({@code NICE}, {@code ESCALATED}, {@code ACTIVE}) goes. */
    public Placement place(String id, String state) {
        switch (state) {
            case ItemState.ESCALATED -> {
                return new Placement(Place.HELD, "", null);
            }
            case ItemState.NICE -> {
                // unless a reviewer failed its current text outside its own review (a clean canary, a
                // learned rule's fresh review) and a later round passed it on reused reviews
                LoopStore.FailedReview flagged = failed.get(id);
                return flagged != null ? new Placement(Place.HELD, "", flagged) : new Placement(Place.SHIPPED, "", null);
            }
            default -> {
                // ACTIVE: not verified NICE on its current revision
            }
        }
        LoopStore.FailedReview fail = failed.get(id);
        if (fail != null) {
            return new Placement(Place.HELD, "", fail);
        }
        LoopStore.SampledActive s = sampled.get(id);
        if (s != null) {
            return new Placement(Place.UNVERIFIED, s.unreviewed()
                    ? "sampled in round " + s.round() + " and not reviewed"
                            + (s.reason() == null ? " (the run stopped before its review)" : " (" + s.reason() + ")")
                    : "sampled in round " + s.round() + " and passed at revision " + s.rev() + "; its current revision "
                            + s.currentRev() + " was not reviewed", null);
        }
        if (coveredByCleanSample) {
            return new Placement(Place.SHIPPED, "", null);
        }
        return new Placement(Place.UNVERIFIED, "not verified: the run ended " + status + " before a clean sample", null);
    }
}
