package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Answer retries are counted apart from transport retries, survive the stored spend, and older stored spend still reads. */
class AnswerRetryCountTests {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void answerRetriesAreCountedPerRoleAndRoundAndKeptThroughTheStoredSpend() throws Exception {
        CallGovernor governor = new CallGovernor(LlmFixtures.FAST);
        governor.startRound(1);
        governor.recordAnswerRetry(LlmRoles.reviewer("B"));
        governor.recordAnswerRetry(LlmRoles.FIXER);

        SpendSnapshot snapshot = governor.snapshot();
        assertThat(snapshot.run().total().answerRetries()).isEqualTo(2);
        assertThat(snapshot.run().total().retries()).isZero();
        assertThat(snapshot.run().byRole().get(LlmRoles.reviewer("B")).answerRetries()).isEqualTo(1);
        assertThat(snapshot.currentRound().total().answerRetries()).isEqualTo(2);

        // stored as JSON with the run, read back by a resumed run, counted on
        SpendSnapshot read = JSON.readValue(JSON.writeValueAsString(snapshot), SpendSnapshot.class);
        assertThat(read).isEqualTo(snapshot);
        CallGovernor resumed = new CallGovernor(LlmFixtures.FAST, LlmFixtures.NO_BUDGET, read);
        resumed.recordAnswerRetry(LlmRoles.FIXER);
        assertThat(resumed.snapshot().run().byRole().get(LlmRoles.FIXER).answerRetries()).isEqualTo(2);
    }

    @Test
    void spendStoredBeforeAnswerRetriesWereCountedReadsAsNone() throws Exception {
        String old = "{\"calls\":3,\"retries\":1,\"errors\":1,\"inputTokens\":10,\"outputTokens\":5,\"cost\":0.5}";

        CallCounts counts = JSON.readValue(old, CallCounts.class);

        assertThat(counts).isEqualTo(new CallCounts(3, 1, 1, 10, 5, 0.5, 0));
        assertThat(Map.of("c", counts).get("c").answerRetries()).isZero();
    }
}
