package dev.santabatch.model;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run's model calls: the one {@link CallGovernor} (restored from the spend stored with the run),
 * the model of the batch fix's matcher if there is one, and the budget stop. Spend is written to the
 * {@link SpendStore} at every chunk commit and step end of the review and batch-fix steps.
 */
public final class ModelCalls {

    private static final Logger log = LoggerFactory.getLogger(ModelCalls.class);

    private final CallGovernor governor;
    private final @Nullable SpendStore store;
    private final long runPk;
    private final @Nullable LlmClient matcher;
    private final AtomicReference<BudgetExceededException> budgetStop = new AtomicReference<>();

    /**
     * @param store where spend is kept; {@code null} keeps nothing (a panel outside a run)
     */
    public ModelCalls(CallGovernor governor, @Nullable SpendStore store, long runPk, @Nullable LlmClient matcher) {
        this.governor = governor;
        this.store = store;
        this.runPk = runPk;
        this.matcher = matcher;
    }

    /** Model calls of a panel outside a run (no models, no budget, nothing stored). */
    public static ModelCalls none() {
        return new ModelCalls(new CallGovernor(dev.santabatch.model.GovernorSettings.defaults()), null, 0, null);
    }

    public CallGovernor governor() {
        return governor;
    }

    /** The model of the batch fix's matcher; empty when the matcher is not a model. */
    public Optional<LlmClient> matcher() {
        return Optional.ofNullable(matcher);
    }

    /**
     * Step {@code step} of round {@code round} starts: per-round budgets count round {@code round}
     * (0: before the first round, nothing to count), and model answers are kept for a resume of
     * this step in this round only ({@link CallGovernor#keepAnswersFor}). The round is started
     * first: starting it names the round alone as the unit, which the step then refines.
     */
    public void startStep(int round, String step) {
        if (round > 0) {
            governor.startRound(round);
        }
        governor.keepAnswersFor("round " + round + " " + step);
    }

    /** A budget is reached: the run stops at the next chunk boundary. The first one is kept. */
    public void budgetReached(BudgetExceededException e) {
        if (budgetStop.compareAndSet(null, e)) {
            log.warn("budget reached: {}; stopping after the current chunk (what is done is kept)", e.getMessage());
        }
    }

    public Optional<BudgetExceededException> budgetStop() {
        return Optional.ofNullable(budgetStop.get());
    }

    public SpendSnapshot snapshot() {
        return governor.snapshot();
    }

    /** Writes the spend (and a budget stop) to the store; call from the step's thread. */
    public void save() {
        if (store == null) {
            return;
        }
        BudgetExceededException stop = budgetStop.get();
        if (stop != null) {
            store.markBudgetStop(runPk, governor.snapshot(), stop.getMessage());
        } else {
            store.save(runPk, governor.snapshot());
        }
    }
}
