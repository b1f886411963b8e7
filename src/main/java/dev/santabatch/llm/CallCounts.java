package dev.santabatch.llm;

/**
 * Counters of model calls.
 *
 * @param calls HTTP attempts sent, retries included (what an endpoint and the calls budget count)
 * @param retries attempts after the first of a call
 * @param errors failed attempts and unusable answers, every kind
 * @param inputTokens input (prompt) tokens, from the responses' usage
 * @param outputTokens output (completion) tokens, from the responses' usage
 * @param cost estimated cost from the models' prices
 */
public record CallCounts(long calls, long retries, long errors, long inputTokens, long outputTokens, double cost) {

    public static final CallCounts ZERO = new CallCounts(0, 0, 0, 0, 0, 0);

    public long tokens() {
        return inputTokens + outputTokens;
    }

    public CallCounts plus(CallCounts o) {
        return new CallCounts(
                calls + o.calls, retries + o.retries, errors + o.errors,
                inputTokens + o.inputTokens, outputTokens + o.outputTokens, cost + o.cost);
    }
}
