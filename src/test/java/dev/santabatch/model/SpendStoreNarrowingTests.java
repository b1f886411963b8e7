package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The batch fix's narrowed candidate list is stored all at once or not at all, with a completion
 * row written last; a list without that row (left by an interrupted write) is not reused.
 */
class SpendStoreNarrowingTests {

    private JdbcTemplate jdbc;
    private SpendStore spend;

    @BeforeEach
    void store() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:narrowing-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        jdbc = new JdbcTemplate(ds);
        spend = new SpendStore(jdbc);
        dev.santabatch.persistence.StoreSchema.migrate(ds);
    }

    private static List<SpendStore.Candidate> full() {
        return List.of(new SpendStore.Candidate("T0008", 8, List.of(1)), new SpendStore.Candidate("T0016", 16, List.of(1, 2)),
                new SpendStore.Candidate("T0024", 24, List.of(2)));
    }

    private static Map<Integer, SpendStore.NarrowingStat> stats() {
        Map<Integer, SpendStore.NarrowingStat> s = new LinkedHashMap<>();
        s.put(1, new SpendStore.NarrowingStat(264, 2, 3, "meaning+offline-checks", 528));
        s.put(2, new SpendStore.NarrowingStat(264, 2, 2, "meaning", 0));
        return s;
    }

    @Test
    void aPartialListLeftByAnInterruptedWriteIsNotReusedButReplaced() {
        // given the first rows of round 1's list, written without the completion row (a crash mid-write),
        // plus a row the complete list does not hold
        spend.insertCandidates(7, 1, List.of(full().get(0), new SpendStore.Candidate("T0099", 99, List.of(1))));
        assertThat(spend.pendingCandidates(7, 1, -1, 100)).hasSize(2);

        // then the list does not count as narrowed: the reader narrows again
        assertThat(spend.narrowed(7, 1)).isFalse();

        // when the complete list is saved
        spend.saveNarrowing(7, 1, full(), stats());

        // then exactly the complete list is pending, with its stats, and it counts as narrowed
        assertThat(spend.narrowed(7, 1)).isTrue();
        assertThat(spend.pendingCandidates(7, 1, -1, 100)).containsExactlyElementsOf(full());
        assertThat(spend.matchStats(7)).containsExactly(new SpendStore.MatchStat(1, 1, 264, 2, 0, 3, "meaning+offline-checks", 528),
                new SpendStore.MatchStat(1, 2, 264, 2, 0, 2, "meaning", 0));
        // other rounds and runs are untouched
        assertThat(spend.narrowed(7, 2)).isFalse();
        assertThat(spend.narrowed(8, 1)).isFalse();
    }

    @Test
    void aWriteThatFailsPartWayStoresNothing() {
        // given a list whose third row breaks the key (the same item twice): the insert fails after two rows
        List<SpendStore.Candidate> broken = List.of(full().get(0), full().get(1), full().get(0));

        // when it is saved, then the failure propagates and nothing of it is stored
        assertThatThrownBy(() -> spend.saveNarrowing(7, 1, broken, stats())).isInstanceOf(DataAccessException.class);
        assertThat(spend.narrowed(7, 1)).isFalse();
        assertThat(spend.pendingCandidates(7, 1, -1, 100)).isEmpty();
        assertThat(spend.matchStats(7)).isEmpty();
    }

    @Test
    void aCompleteListIsReusedAsItIsWithItsProgress() {
        // given a saved list whose first candidate is done
        spend.saveNarrowing(7, 1, full(), stats());
        spend.candidateDone(7, 1, "T0008", "fixed");
        spend.addMatchCalls(7, 1, 1, 1);

        // then it counts as narrowed and only the rest is pending; calls are kept
        assertThat(spend.narrowed(7, 1)).isTrue();
        assertThat(spend.pendingCandidates(7, 1, -1, 100)).containsExactlyElementsOf(full().subList(1, 3));
        assertThat(spend.matchStats(7).get(0).calls()).isEqualTo(1);
        // an empty list is a complete list too
        spend.saveNarrowing(7, 2, List.of(), Map.of());
        assertThat(spend.narrowed(7, 2)).isTrue();
    }
}
