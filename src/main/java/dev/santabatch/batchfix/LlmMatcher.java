package dev.santabatch.batchfix;

import dev.santabatch.model.ErrorKind;
import dev.santabatch.model.LlmClient;
import dev.santabatch.model.LlmRoles;
import dev.santabatch.model.ModelAnswer;
import dev.santabatch.model.ModelCallFailedException;
import dev.santabatch.review.llm.Prompts;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A model pattern matcher for Pattern C's batch fix: one fresh call per candidate (already
 * narrowed cheaply by the caller) asks whether it shows the pattern and, if so, for the full
 * corrected text, with the sample's before/after fixes of the pattern as examples. The answer is
 * {@code {"shows_pattern": bool, "corrected_text": "..."}} by strict JSON schema, JSON mode or the
 * prompt (the model's {@code structured-output}). An invalid answer (not that JSON, a match with
 * an empty, truncated or unchanged text) is retried once fresh, then {@code FailedToMatch}: of kind
 * {@code UNUSABLE_CORRECTION} when both answers said the candidate shows the pattern, otherwise
 * {@code UNKNOWN} (nothing says it carries the pattern); each is counted under the matcher's role.
 * Configuration errors and a reached budget propagate.
 */
public final class LlmMatcher {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final LlmClient client;

    /** @param client the matcher's model; its role should be {@link LlmRoles#MATCHER} */
    public LlmMatcher(LlmClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    public MatchOutcome match(MatchRequest request) {
        Problem first = null;
        for (int attempt = 1; attempt <= 2; attempt++) {
            ModelAnswer answer;
            try {
                answer = client.ask(system(), user(request), responseFormat());
            } catch (ModelCallFailedException e) {
                return new MatchOutcome.FailedToMatch(MatchOutcome.Kind.TRANSPORT, e.getMessage());
            }
            Object parsed = parse(answer, request);
            if (parsed instanceof MatchOutcome outcome) {
                return outcome;
            }
            Problem problem = (Problem) parsed;
            if (first != null) {
                // only two answers that both say the pattern is there are evidence against the item
                MatchOutcome.Kind kind = first.showsPattern() && problem.showsPattern()
                        ? MatchOutcome.Kind.UNUSABLE_CORRECTION : MatchOutcome.Kind.UNKNOWN;
                return new MatchOutcome.FailedToMatch(kind, "invalid answer twice: " + first.message() + "; then " + problem.message(),
                        first.error() == problem.error() ? problem.error() : null);
            }
            first = problem;
        }
        throw new AssertionError("unreachable");
    }

    /** An unusable answer: whether it said the candidate shows the pattern, and what was wrong. */
    private record Problem(boolean showsPattern, String message, ErrorKind error) {}

    /** {@code "shows_pattern": true} at the start of a cut answer. */
    private static final java.util.regex.Pattern SHOWS_TRUE = java.util.regex.Pattern.compile("\"shows_pattern\"\\s*:\\s*true\\b");

    /** A {@link MatchOutcome}, or the {@link Problem} with the answer (counted). */
    private Object parse(ModelAnswer answer, MatchRequest request) {
        if (answer.truncated()) {
            client.recordAnswerError(ErrorKind.TRUNCATED);
            // cut before the corrected text ended; whether it shows the pattern is known only if the
            // answer got as far as saying so
            boolean shows = answer.text() != null && SHOWS_TRUE.matcher(answer.text()).find();
            return new Problem(shows, "answer cut at the output-token limit", ErrorKind.TRUNCATED);
        }
        JsonNode root;
        try {
            root = JSON.readTree(Prompts.unwrapJson(answer.text()));
        } catch (Exception e) {
            root = null;
        }
        if (root == null || !root.isObject() || !root.path("shows_pattern").isBoolean()) {
            client.recordAnswerError(ErrorKind.MALFORMED_JSON);
            return new Problem(false, "not JSON with a boolean 'shows_pattern'", ErrorKind.MALFORMED_JSON);
        }
        if (!root.get("shows_pattern").asBoolean()) {
            return new MatchOutcome.NotMatched();
        }
        JsonNode text = root.get("corrected_text");
        String corrected = text == null || !text.isTextual() ? "" : Prompts.unwrapText(text.asText());
        if (corrected.isEmpty()) {
            client.recordAnswerError(ErrorKind.EMPTY_ANSWER);
            return new Problem(true, "a match without corrected text", ErrorKind.EMPTY_ANSWER);
        }
        if (dev.santabatch.review.FixOutcome.unchanged(corrected, request.content())) {
            client.recordAnswerError(ErrorKind.UNCHANGED);
            return new Problem(true, "a match whose corrected text is unchanged", ErrorKind.UNCHANGED);
        }
        return new MatchOutcome.Matched(corrected);
    }

    private @Nullable ResponseFormat responseFormat() {
        return switch (client.structuredOutput()) {
            case JSON_SCHEMA -> ResponseFormat.builder()
                    .type(ResponseFormatType.JSON)
                    .jsonSchema(JsonSchema.builder()
                            .name("santa_match")
                            .rootElement(JsonObjectSchema.builder()
                                    .addBooleanProperty("shows_pattern")
                                    .addStringProperty("corrected_text")
                                    .required("shows_pattern", "corrected_text")
                                    .additionalProperties(false)
                                    .build())
                            .build())
                    .build();
            case JSON_OBJECT -> ResponseFormat.JSON;
            case PROMPT -> null;
        };
    }

    public static String system() {
        return "You check one text for one known problem and correct it if present. " + Prompts.dataRule()
                + " Answer with one JSON object only.";
    }

    public static String user(MatchRequest request) {
        StringBuilder sb = new StringBuilder(2048);
        sb.append("## Task Specification\n").append(request.taskSpec().strip()).append("\n\n");
        sb.append("## The Problem\nCriterion ").append(request.criterionId()).append(", as a reviewer flagged it:\n")
                .append(Prompts.issues(java.util.List.of(request.pattern()))).append("\n\n");
        if (!request.examples().isEmpty()) {
            sb.append("## Examples of the problem and its fix\n");
            for (MatchRequest.Example e : request.examples()) {
                sb.append("<example>\nbefore: ").append(Prompts.neutralise(e.before()))
                        .append("\nafter: ").append(Prompts.neutralise(e.after())).append("\n</example>\n");
            }
            sb.append('\n');
        }
        sb.append("## Source Facts\n").append(Prompts.source(request.source())).append("\n\n");
        sb.append("## Text To Check\n<content>\n").append(Prompts.neutralise(request.content())).append("\n</content>\n\n");
        sb.append("## Instructions\n")
                .append("Does the text show this problem? Judge against the source facts, not the examples' facts.\n")
                .append("If it does, correct it: ").append(Prompts.FIX_ONLY)
                .append(" Give the full corrected text (all of it), without tags.\n")
                .append("Answer as JSON: {\"shows_pattern\": true|false, \"corrected_text\": \"<full corrected text, or empty when false>\"}\n");
        return sb.toString();
    }
}
