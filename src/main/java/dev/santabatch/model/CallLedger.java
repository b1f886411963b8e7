package dev.santabatch.model;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Where the {@link CallGovernor} records, durably, every HTTP attempt before it is sent and the
 * usage of every answered one, so that spend survives a killed process: a resumed run's governor
 * starts from {@link #recorded()}, and the endpoint never receives more calls than the budget
 * allows, whatever happened to the process. Implementations commit each record in its own short
 * transaction before returning; they must be thread-safe. The governor stays free of storage
 * detail through this interface.
 */
public interface CallLedger {

    /**
     * What was recorded for the run so far, by round and role: only {@link CallCounts#calls()}
     * (attempts reserved), the input and output tokens and the cost of answered attempts are set.
     */
    Map<Integer, Map<String, CallCounts>> recorded();

    /**
     * Records one HTTP attempt of {@code role} in {@code round}, about to be sent; returns once it is
     * committed. A failure throws (the attempt is then not sent).
     */
    void reserve(int round, String role);

    /**
     * Records the token usage and cost of an answered attempt reserved in {@code round} and, when
     * {@code kept} is given, keeps its answer as {@link #answer} returns it, both in one commit;
     * returns once it is committed. One commit, so that no kill falls between the spend of an answer
     * and the answer itself: once the usage of an answer is durable, so is the answer.
     */
    void answered(int round, String role, long inputTokens, long outputTokens, double cost, @Nullable Kept kept);

    /**
     * The answer this run received the {@code ordinal}-th time (1-based) it asked question {@code
     * key} (the governor's digest of {@link LlmClient}'s question, of role, model, endpoint and
     * messages, and of the unit of work it was asked in: {@link CallGovernor#keepAnswersFor}), if one
     * was kept: a resumed run is handed the answers its killed or stopped execution had received in
     * the step it resumes, instead of paying for them again (the answers are forgotten when an
     * execution ends completed or failed, so a failed one is restarted with fresh calls). Defaults
     * to none.
     */
    default Optional<ModelAnswer> answer(String key, int ordinal) {
        return Optional.empty();
    }

    /**
     * Forgets every answer kept for the run; returns once it is committed. Called when a round starts
     * for the first time: every earlier round's work is stored, so no resume needs their answers.
     * Defaults to nothing (a ledger that keeps no answers).
     */
    default void forgetAnswers() {}

    /**
     * An answer to keep with its usage: the {@code ordinal}-th time (1-based) the run asked question
     * {@code key}.
     */
    record Kept(String key, int ordinal, ModelAnswer answer) {
        public Kept {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(answer, "answer");
        }
    }

    /** Records nothing: a governor whose spend is not kept (a panel outside a run, unit tests). */
    CallLedger NONE = new CallLedger() {
        @Override
        public Map<Integer, Map<String, CallCounts>> recorded() {
            return Map.of();
        }

        @Override
        public void reserve(int round, String role) {}

        @Override
        public void answered(int round, String role, long inputTokens, long outputTokens, double cost, @Nullable Kept kept) {}
    };
}
