package dev.santabatch.rounds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** Which stored reviews a review of an item's revision reuses, and which a retry supersedes. */
class LoopStoreTests {

    LoopStore loop;

    @BeforeEach
    void store() {
        DriverManagerDataSource ds = new DriverManagerDataSource(
                "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");
        loop = new LoopStore(new JdbcTemplate(ds));
        dev.santabatch.persistence.StoreSchema.migrate(ds);
    }

    static LoopStore.ReviewRow reviewed(String item, int rev, int iteration, String reviewer, String json) {
        return new LoopStore.ReviewRow(item, rev, iteration, reviewer, "REVIEWED", "PASS", json, null, 1);
    }

    static LoopStore.ReviewRow failed(String item, int rev, int iteration, String reviewer) {
        return new LoopStore.ReviewRow(item, rev, iteration, reviewer, "TRANSPORT", null, null, "connection refused", 1);
    }

    @Test
    void onlyCompletedReview0ReviewsOfTheSameRevisionAreReused() {
        // given item a: rev 2 reviewed by B (round 1), C failed (round 1); a review after a fix
        // (iteration 1, rev 3) and a review of an older revision (rev 1)
        loop.insertReviews(1, 1, List.of(reviewed("a", 2, 0, "B", "{b-rev2}"), failed("a", 2, 0, "C"),
                reviewed("a", 3, 1, "B", "{b-after-fix}"), reviewed("a", 3, 1, "C", "{c-after-fix}")));
        loop.insertReviews(1, 1, List.of(reviewed("a", 1, 0, "C", "{c-rev1}")));
        // another run and another item
        loop.insertReviews(2, 1, List.of(reviewed("a", 2, 0, "C", "{other-run}")));
        loop.insertReviews(1, 1, List.of(reviewed("b", 2, 0, "C", "{other-item}")));

        assertThat(loop.storedFirstReviews(1, "a", 2)).isEqualTo(Map.of("B", "{b-rev2}"));
        assertThat(loop.storedFirstReviews(1, "a", 3)).as("reviews of a fix's text are not reused").isEmpty();
        assertThat(loop.storedFirstReviews(1, "a", 1)).isEqualTo(Map.of("C", "{c-rev1}"));
    }

    @Test
    void theIssuesASupersededReviewAttributedStayCountedForItsRound() {
        // given round 2's reviews of item a, each answer with issues the validator re-attributed or derived,
        // and a review after a fix that was never kept (rev 3)
        loop.insertReviews(1, 2, List.of(
                new LoopStore.ReviewRow("a", 2, 0, "B", "REVIEWED", "FAIL", "{b}", null, 1, 2, 0),
                new LoopStore.ReviewRow("a", 2, 0, "C", "REVIEWED", "FAIL", "{c}", null, 1, 1, 1),
                new LoopStore.ReviewRow("a", 3, 1, "B", "REVIEWED", "FAIL", "{b-fix}", null, 1, 0, 4)));
        LoopStore.IssueAttribution before = loop.issueAttribution(1).get(2);

        // when a retried attempt supersedes all but B's review 0, and a new attempt drops the unkept fix's review
        loop.deleteSupersededReviews(1, 2, "a", 2, List.of("B"), List.of());
        loop.deleteUnkeptFixReviews(1, "a", 2, List.of());

        // then the reviews are gone, and what their answers attributed is still the round's
        assertThat(loop.countReviews(1)).isEqualTo(1);
        assertThat(before).isEqualTo(new LoopStore.IssueAttribution(3, 5));
        assertThat(loop.issueAttribution(1)).isEqualTo(Map.of(2, before));
    }

    @Test
    void anAnswerKeptAsItCameAndStoredAgainWithItsAttemptIsCountedOnce() {
        // given B's answer stored as it came, with an issue the validator re-attributed
        LoopStore.ReviewRow b = new LoopStore.ReviewRow("a", 2, 0, "B", "REVIEWED", "FAIL", "{b}", null, 1, 1, 0);
        loop.insertReviews(1, 2, List.of(b));

        // when the item's attempt is written: the early row is replaced by the same answer
        loop.deleteSupersededReviews(1, 2, "a", 2, List.of(), List.of(b));
        loop.insertReviews(1, 2, List.of(b));

        // then its issue is counted once
        assertThat(loop.issueAttribution(1)).isEqualTo(Map.of(2, new LoopStore.IssueAttribution(1, 0)));
    }

    @Test
    void aRetryKeepsTheReviewsItReusedAndReplacesTheRest() {
        // given round 2's failed attempt on item a at rev 2: B reviewed, C failed; and round 1's review
        loop.insertReviews(1, 2, List.of(reviewed("a", 2, 0, "B", "{b}"), failed("a", 2, 0, "C"),
                failed("a", 3, 1, "B")));
        loop.insertReviews(1, 1, List.of(reviewed("a", 2, 0, "C", "{c-round1}")));

        // when the retry reused B's review
        loop.deleteSupersededReviews(1, 2, "a", 2, List.of("B"), List.of());

        // then round 2 keeps only B's reused review; round 1 is untouched
        assertThat(loop.jdbc().queryForList("SELECT reviewer || ':' || round_no || ':' || iteration FROM sb_review"
                + " WHERE run_pk = 1 ORDER BY round_no, reviewer", String.class)).containsExactly("C:1:0", "B:2:0");

        // and a retry that reused nothing replaces all of the round's reviews of the item
        loop.deleteSupersededReviews(1, 2, "a", 2, List.of(), List.of());
        assertThat(loop.jdbc().queryForList("SELECT reviewer FROM sb_review WHERE run_pk = 1 AND round_no = 2",
                String.class)).isEmpty();
    }
}
