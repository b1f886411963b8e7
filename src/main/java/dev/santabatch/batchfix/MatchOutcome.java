package dev.santabatch.batchfix;

import dev.santabatch.model.ErrorKind;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** What the matcher made of one candidate. */
sealed interface MatchOutcome {

    /** The candidate shows the pattern; {@code corrected} is its full corrected text. */
    record Matched(String corrected) implements MatchOutcome {
        public Matched {
            Objects.requireNonNull(corrected, "corrected");
        }
    }

    /** The candidate does not show the pattern. */
    record NotMatched() implements MatchOutcome {}

    /**
     * No usable answer: a transport failure after the retries ({@link Kind#TRANSPORT}); two answers
     * that do not say whether the candidate shows the pattern ({@link Kind#UNKNOWN}); or two answers
     * that say it does but whose corrected text is unusable ({@link Kind#UNUSABLE_CORRECTION}).
     * {@code answerError}: for two unusable answers, what was wrong with both when it was the same
     * ({@link ErrorKind#UNCHANGED}, {@link ErrorKind#EMPTY_ANSWER}, {@link ErrorKind#TRUNCATED},
     * {@link ErrorKind#MALFORMED_JSON}), {@code null} when they differed or the call failed.
     */
    record FailedToMatch(Kind kind, String message, @Nullable ErrorKind answerError) implements MatchOutcome {
        public FailedToMatch {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(message, "message");
        }

        /** Without an answer error: a transport failure. */
        public FailedToMatch(Kind kind, String message) {
            this(kind, message, null);
        }
    }

    enum Kind {
        /** The call failed after the governor's retries: nothing is known about the candidate. */
        TRANSPORT,
        /**
         * Both answers left {@code shows_pattern} unknown (not JSON with a boolean
         * {@code shows_pattern}, or cut at the token limit before it): nothing says the candidate
         * carries the pattern, so, like a transport failure, it must not hold the item.
         */
        UNKNOWN,
        /**
         * Both answers said the candidate shows the pattern, and neither gave a usable corrected
         * text (empty, cut at the token limit, or unchanged).
         */
        UNUSABLE_CORRECTION
    }
}
