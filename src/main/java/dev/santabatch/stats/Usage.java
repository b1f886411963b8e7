package dev.santabatch.stats;

/**
 * Model calls and their tokens (prompt + completion).
 *
 * @param calls model calls
 * @param tokens tokens of those calls
 */
public record Usage(long calls, long tokens) {

    public static final Usage NONE = new Usage(0, 0);

    public Usage {
        if (calls < 0 || tokens < 0) {
            throw new IllegalArgumentException("negative usage: " + calls + " calls, " + tokens + " tokens");
        }
    }

    public Usage plus(Usage o) {
        return new Usage(calls + o.calls, tokens + o.tokens);
    }

    /** tokens / calls; 0 with no calls. */
    public double tokensPerCall() {
        return calls == 0 ? 0 : (double) tokens / calls;
    }
}
