package dev.santabatch.model;

import java.util.Objects;

/**
 * A budget is reached: thrown by the governor before a call that would go past it (no request is
 * sent). Not retriable and not a failure of the item: the run stops cleanly (STOPPED, exit 3) and
 * can be resumed with a raised budget; spend is restored from the stored
 * {@link SpendSnapshot}.
 */
public final class BudgetExceededException extends RuntimeException {

    /** Which budget. */
    public enum Limit {
        MAX_CALLS("budget.max-calls"),
        MAX_TOKENS("budget.max-tokens"),
        MAX_COST("budget.max-cost"),
        MAX_CALLS_PER_ROUND("budget.max-calls-per-round"),
        MAX_TOKENS_PER_ROUND("budget.max-tokens-per-round"),
        MAX_COST_PER_ROUND("budget.max-cost-per-round");

        private final String key;

        Limit(String key) {
            this.key = key;
        }

        /** The job-file key of the limit. */
        public String key() {
            return key;
        }

        public boolean perRound() {
            return name().endsWith("_PER_ROUND");
        }
    }

    private final Limit limit;
    private final double allowed;
    private final double spent;

    public BudgetExceededException(Limit limit, double allowed, double spent, int round) {
        super(limit.key() + " reached" + (limit.perRound() ? " in round " + round : "") + ": spent " + format(spent)
                + " of " + format(allowed) + "; raise '" + limit.key() + "' in the job file and run again with the same run id to resume");
        this.limit = Objects.requireNonNull(limit, "limit");
        this.allowed = allowed;
        this.spent = spent;
    }

    private static String format(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(java.util.Locale.ROOT, "%.4f", v);
    }

    public Limit limit() {
        return limit;
    }

    public double allowed() {
        return allowed;
    }

    public double spent() {
        return spent;
    }
}
