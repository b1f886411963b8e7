package dev.santabatch.model;

import dev.santabatch.review.llm.LlmReviewer;
import static dev.santabatch.model.LlmFixtures.ENV;
import static dev.santabatch.model.LlmFixtures.FAST;
import static dev.santabatch.model.LlmFixtures.IDS;
import static dev.santabatch.model.LlmFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.santabatch.config.ModelSpec;
import dev.santabatch.model.ScriptedServer.Reply;
import dev.santabatch.review.ReviewOutcome;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A model with {@code reasoning-effort} is called as reasoning models must be: {@code
 * reasoning_effort} and {@code max_completion_tokens}, no {@code temperature} nor {@code
 * max_tokens}; its completion tokens, reasoning included, are counted in the cost. Against the
 * local scripted server.
 */
class ReasoningModelTests {

    private static ModelSpec model(String baseUrl, ModelSpec.ReasoningEffort effort) {
        return new ModelSpec(baseUrl, "test-model", LlmFixtures.KEY_ENV, 0.0, Duration.ofSeconds(5), 512,
                ModelSpec.StructuredOutput.JSON_SCHEMA, 2.0, 8.0, effort);
    }

    @Test
    void aReasoningModelGetsReasoningEffortAndMaxCompletionTokensAndNoTemperature() throws Exception {
        // 100 prompt tokens, 900 completion tokens of which most were reasoning (OpenAI counts them in completion_tokens)
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok(LlmFixtures.passJson(), "stop", 100, 900))) {
            CallGovernor governor = new CallGovernor(FAST);
            LlmReviewer reviewer = new LlmReviewer("B", Set.copyOf(IDS),
                    LlmClient.create(model(server.baseUrl(), ModelSpec.ReasoningEffort.HIGH), LlmRoles.reviewer("B"), governor, ENV));

            ReviewOutcome outcome = reviewer.review(request("A kettle."));

            assertThat(outcome).isInstanceOf(ReviewOutcome.Reviewed.class);
            JsonNode body = ScriptedServer.JSON.readTree(server.requests().get(0).body());
            assertThat(body.path("reasoning_effort").asText()).isEqualTo("high");
            assertThat(body.path("max_completion_tokens").asInt()).isEqualTo(512);
            assertThat(body.has("temperature")).as("temperature sent: %s", body).isFalse();
            assertThat(body.has("max_tokens")).as("max_tokens sent: %s", body).isFalse();
            // the reasoning tokens, inside completion_tokens, are counted and priced as output
            var counts = governor.snapshot().run().total();
            assertThat(counts.outputTokens()).isEqualTo(900);
            assertThat(counts.cost()).isCloseTo(100 * 2.0 / 1e6 + 900 * 8.0 / 1e6, org.assertj.core.data.Offset.offset(1e-12));
        }
    }

    @Test
    void aChatModelGetsTemperatureAndMaxTokensAndNoReasoningEffort() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok(LlmFixtures.passJson()))) {
            LlmReviewer reviewer = new LlmReviewer("B", Set.copyOf(IDS), LlmClient.create(
                    model(server.baseUrl(), ModelSpec.ReasoningEffort.NONE), LlmRoles.reviewer("B"), new CallGovernor(FAST), ENV));

            reviewer.review(request("A kettle."));

            JsonNode body = ScriptedServer.JSON.readTree(server.requests().get(0).body());
            assertThat(body.path("temperature").asDouble(-1)).isEqualTo(0.0);
            assertThat(body.path("max_tokens").asInt()).isEqualTo(512);
            assertThat(body.has("reasoning_effort")).isFalse();
            assertThat(body.has("max_completion_tokens")).isFalse();
        }
    }
}
