package dev.santabatch.model;

import java.util.Objects;

/**
 * A model's answer to one call.
 *
 * @param text the answer text; empty when the model gave none
 * @param truncated the model stopped at its output-token limit (finish reason length)
 * @param inputTokens input tokens the endpoint reported (0 if none)
 * @param outputTokens output tokens the endpoint reported (0 if none)
 */
public record ModelAnswer(String text, boolean truncated, long inputTokens, long outputTokens) {

    public ModelAnswer {
        Objects.requireNonNull(text, "text");
    }
}
