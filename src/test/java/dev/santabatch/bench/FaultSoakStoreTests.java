package dev.santabatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.rounds.LearnedRuleStore;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.persistence.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/** What the fault soak reads from a run's store: the items with a FAIL on their current revision. */
class FaultSoakStoreTests {

    @TempDir
    Path dir;

    @Test
    void aFailOnTheCurrentRevisionCountsWhereverTheStoreRecordsIt() {
        // given a store (the soak's file database) with items each at revision 1
        SingleConnectionDataSource ds = new SingleConnectionDataSource(FaultSoakBenchmark.url(dir), "sa", "", true);
        try {
            JdbcTemplate jdbc = new JdbcTemplate(ds);
            Store store = new Store(ds);
            dev.santabatch.persistence.StoreSchema.migrate(ds);
            LoopStore loop = new LoopStore(jdbc);
            List<String> ids = List.of("reviewed", "flagged", "flaggedBefore", "ruleFixFailed", "ruleFixPassed", "clean");
            for (int i = 0; i < ids.size(); i++) {
                store.insertItems(1, List.of(new Store.NewItem(ids.get(i), i, i + 2, null, "[]")));
                store.addRevision(1, ids.get(i), 1, 1, dev.santabatch.persistence.Cause.BATCH_FIX, "r1-p1 accuracy (learned rule learned-r1-p1)", "text");
            }
            // a review 0 that failed the current revision
            loop.insertReviews(1, 1, List.of(new LoopStore.ReviewRow("reviewed", 1, 0, "B", "REVIEWED", "FAIL", "{}", null, 1)));
            // a FAIL seen outside the item's own review, on its current revision and on an older one
            loop.flag(1, "flagged", 1, 1, List.of("C: claims: a health claim"));
            loop.flag(1, "flaggedBefore", 0, 1, List.of("C: claims: a health claim"));
            // the learned rule's review check of the fix it wrote as the current revision: failed on another criterion, passed
            jdbc.update("INSERT INTO sb_learned_review (run_pk, rule_id, item_id, kind, failed, fail_issues) VALUES"
                    + " (1, 'learned-r1-p1', 'ruleFixFailed', 'CHECK', FALSE, 'B: claims: a health claim'),"
                    + " (1, 'learned-r1-p1', 'ruleFixPassed', 'CHECK', FALSE, NULL)");
        } finally {
            ds.destroy();
        }

        // when / then
        assertThat(FaultSoakBenchmark.storeFailedCurrent(dir)).hasValueSatisfying(
                failed -> assertThat(failed).containsExactlyInAnyOrder("reviewed", "flagged", "ruleFixFailed"));
    }

    @Test
    void aStoreThatCannotBeReadLeavesTheShippedItemsFailsUnmeasuredNotZero() throws Exception {
        // given a run that shipped an item and whose store file is not a database
        Files.createDirectories(dir.resolve("db"));
        Files.writeString(dir.resolve("db/santa.mv.db"), "not a database");

        // when
        Optional<Set<String>> failed = FaultSoakBenchmark.storeFailedCurrent(dir);
        FaultSoakBenchmark.Run run = new FaultSoakBenchmark.Run("killed-1", dir, 100, List.of(), List.of(), List.of(), Map.of(),
                "http://127.0.0.1:1", 1, Map.of("catalog.csv", List.of("P1")), Map.of("P1", "text"), Map.of(), failed, Set.of(),
                new TreeMap<>(), new TreeMap<>());

        // then the store's count is unmeasured, not an empty set that would count as none shipped with a FAIL
        assertThat(failed).isEmpty();
        assertThat(FaultSoakBenchmark.shippedWithStoreFail(run)).isEmpty();
    }
}
