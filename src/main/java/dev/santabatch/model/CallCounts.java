package dev.santabatch.model;

/**
 * Counters of model calls.
 *
 * @param calls HTTP attempts sent, retries of both kinds included (what an endpoint and the calls
 *     budget count)
 * @param retries transport retries: HTTP attempts after the first of a call (after a 429, 5xx,
 *     timeout or connection failure)
 * @param errors failed attempts and unusable answers, every kind
 * @param inputTokens input (prompt) tokens, from the responses' usage
 * @param outputTokens output (completion) tokens, from the responses' usage
 * @param cost estimated cost from the models' prices
 * @param answerRetries answer retries: fresh calls made because the previous answer was unusable (an
 *     invalid review, an empty, truncated or unchanged fix); each is also one or more calls
 */
public record CallCounts(long calls, long retries, long errors, long inputTokens, long outputTokens, double cost,
        long answerRetries) {

    public static final CallCounts ZERO = new CallCounts(0, 0, 0, 0, 0, 0, 0);

    /** Without answer retries. */
    public CallCounts(long calls, long retries, long errors, long inputTokens, long outputTokens, double cost) {
        this(calls, retries, errors, inputTokens, outputTokens, cost, 0);
    }

    public long tokens() {
        return inputTokens + outputTokens;
    }

    public CallCounts plus(CallCounts o) {
        return new CallCounts(
                calls + o.calls, retries + o.retries, errors + o.errors,
                inputTokens + o.inputTokens, outputTokens + o.outputTokens, cost + o.cost,
                answerRetries + o.answerRetries);
    }
}
