package dev.santabatch.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.loop.LoopStore;
import dev.santabatch.report.RunReport;
import dev.santabatch.run.ShippingInvariant.Place;
import dev.santabatch.store.Store;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The shipping invariant's table: where an item goes, by its state, its history and the run's status. */
class ShippingInvariantTests {

    @ParameterizedTest(name = "{0}, FAIL on current revision {1}, sampled and unreviewed {2}, run {3} -> {4}")
    @CsvSource(delimiter = '|', value = {
        // state   | FAIL  | unreviewed | status         | place
        "NICE      | false | false      | clean          | SHIPPED",
        "NICE      | false | false      | not-clean      | SHIPPED",
        "NICE      | false | false      | budget-stopped | SHIPPED",
        "ESCALATED | false | false      | clean          | HELD",
        "ESCALATED | true  | true       | not-clean      | HELD",
        // never sampled: covered by a clean sample only
        "ACTIVE    | false | false      | clean          | SHIPPED",
        "ACTIVE    | false | false      | fully-reviewed | SHIPPED",
        "ACTIVE    | false | false      | not-clean      | UNVERIFIED",
        "ACTIVE    | false | false      | budget-stopped | UNVERIFIED",
        // sampled and left unreviewed: never covered, not even by a clean sample
        "ACTIVE    | false | true       | clean          | UNVERIFIED",
        "ACTIVE    | false | true       | not-clean      | UNVERIFIED",
        // a FAIL on the current revision is never shipped nor covered: held
        "ACTIVE    | true  | false      | clean          | HELD",
        "ACTIVE    | true  | true       | clean          | HELD",
        "ACTIVE    | true  | false      | budget-stopped | HELD",
    })
    void placesEveryItemOnce(String state, boolean fail, boolean unreviewed, String status, Place expected) {
        // given
        Map<String, LoopStore.FailedReview> failed = fail
                ? Map.of("i1", new LoopStore.FailedReview("i1", 2, List.of("C: accuracy: says 3, source 5")))
                : Map.of();
        Map<String, LoopStore.UnreviewedSample> left = unreviewed
                ? Map.of("i1", new LoopStore.UnreviewedSample("i1", 1, "REVIEWER_FAILED"))
                : Map.of();
        ShippingInvariant invariant = new ShippingInvariant(failed, left, status);

        // when
        ShippingInvariant.Placement p = invariant.place(new Store.StoredItem("i1", 1, 2, "", state, 0, null));

        // then
        assertThat(p.place()).isEqualTo(expected);
        assertThat(p.why().isBlank()).isEqualTo(expected != Place.UNVERIFIED);
        assertThat(p.failed() != null).isEqualTo(expected == Place.HELD && state.equals("ACTIVE"));
        if (unreviewed && expected == Place.UNVERIFIED) {
            assertThat(p.why()).isEqualTo("sampled in round 1 and not reviewed (REVIEWER_FAILED)");
        }
    }

    @ParameterizedTest
    @CsvSource({"clean, catalog.csv", "fully-reviewed, catalog.csv", "not-clean, verified.csv", "budget-stopped, verified.csv"})
    void theShippedFileFollowsTheStatus(String status, String file) {
        assertThat(ShippingInvariant.shippedFile(status)).isEqualTo(file);
        assertThat(ShippingInvariant.ships(status)).isEqualTo(status.equals(RunReport.CLEAN) || status.equals(RunReport.FULLY_REVIEWED));
    }
}
