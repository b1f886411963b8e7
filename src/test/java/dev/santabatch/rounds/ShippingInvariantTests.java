package dev.santabatch.rounds;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.export.RunReport;
import dev.santabatch.rounds.ShippingInvariant.Place;
import dev.santabatch.persistence.Store;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The shipping invariant's table: where an item goes, by its state, its history and the run's status. */
class ShippingInvariantTests {

    @ParameterizedTest(name = "{0}, FAIL on current revision {1}, sampled {2}, run {3} -> {4}")
    @CsvSource(delimiter = '|', value = {
        // state   | FAIL  | sampled    | status         | place
        "NICE      | false | never      | clean          | SHIPPED",
        "NICE      | false | never      | not-clean      | SHIPPED",
        "NICE      | false | never      | budget-stopped | SHIPPED",
        "ESCALATED | false | never      | clean          | HELD",
        "ESCALATED | true  | unreviewed | not-clean      | HELD",
        // never sampled: covered by a clean sample only
        "ACTIVE    | false | never      | clean          | SHIPPED",
        "ACTIVE    | false | never      | fully-reviewed | SHIPPED",
        "ACTIVE    | false | never      | not-clean      | UNVERIFIED",
        "ACTIVE    | false | never      | budget-stopped | UNVERIFIED",
        // sampled and left unreviewed: never covered, not even by a clean sample
        "ACTIVE    | false | unreviewed | clean          | UNVERIFIED",
        "ACTIVE    | false | unreviewed | not-clean      | UNVERIFIED",
        // sampled, passed, and revised since (a learned rule's fix after a fresh review failed it):
        // its current revision was never reviewed, and no sample covers an item it drew
        "ACTIVE    | false | revised    | clean          | UNVERIFIED",
        "ACTIVE    | false | revised    | fully-reviewed | UNVERIFIED",
        "ACTIVE    | false | revised    | not-clean      | UNVERIFIED",
        // a FAIL on the current revision is never shipped nor covered: held
        "ACTIVE    | true  | never      | clean          | HELD",
        "ACTIVE    | true  | unreviewed | clean          | HELD",
        "ACTIVE    | true  | revised    | clean          | HELD",
        "ACTIVE    | true  | never      | budget-stopped | HELD",
    })
    void placesEveryItemOnce(String state, boolean fail, String sampled, String status, Place expected) {
        // given
        Map<String, LoopStore.FailedReview> failed = fail
                ? Map.of("i1", new LoopStore.FailedReview("i1", 2, List.of("C: accuracy: says 3, source 5")))
                : Map.of();
        Map<String, LoopStore.SampledActive> drawn = switch (sampled) {
            case "unreviewed" -> Map.of("i1", new LoopStore.SampledActive("i1", 1, "UNREVIEWED", "REVIEWER_FAILED", 0, 0));
            case "revised" -> Map.of("i1", new LoopStore.SampledActive("i1", 1, "NICE", null, 0, 1));
            default -> Map.of();
        };
        ShippingInvariant invariant = new ShippingInvariant(failed, drawn, status);

        // when
        ShippingInvariant.Placement p = invariant.place(new Store.StoredItem("i1", 1, 2, "", state, 0, null));

        // then
        assertThat(p.place()).isEqualTo(expected);
        assertThat(p.why().isBlank()).isEqualTo(expected != Place.UNVERIFIED);
        assertThat(p.failed() != null).isEqualTo(expected == Place.HELD && state.equals("ACTIVE"));
        if (sampled.equals("unreviewed") && expected == Place.UNVERIFIED) {
            assertThat(p.why()).isEqualTo("sampled in round 1 and not reviewed (REVIEWER_FAILED)");
        }
        if (sampled.equals("revised") && expected == Place.UNVERIFIED) {
            assertThat(p.why()).isEqualTo("sampled in round 1 and passed at revision 0; its current revision 1 was not reviewed");
        }
    }

    @ParameterizedTest
    @CsvSource({"clean, catalog.csv", "fully-reviewed, catalog.csv", "not-clean, verified.csv", "budget-stopped, verified.csv"})
    void theShippedFileFollowsTheStatus(String status, String file) {
        assertThat(ShippingInvariant.shippedFile(status)).isEqualTo(file);
        assertThat(ShippingInvariant.ships(status)).isEqualTo(status.equals(RunReport.CLEAN) || status.equals(RunReport.FULLY_REVIEWED));
    }
}
