package dev.santabatch.llm;

import java.util.Objects;

/** What the matcher made of one candidate. */
public sealed interface MatchOutcome {

    /** The candidate shows the pattern; {@code corrected} is its full corrected text. */
    record Matched(String corrected) implements MatchOutcome {
        public Matched {
            Objects.requireNonNull(corrected, "corrected");
        }
    }

    /** The candidate does not show the pattern. */
    record NotMatched() implements MatchOutcome {}

    /** No usable answer: transport failure after retries, or an invalid answer twice. */
    record FailedToMatch(Kind kind, String message) implements MatchOutcome {
        public FailedToMatch {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(message, "message");
        }
    }

    enum Kind {
        TRANSPORT,
        INVALID_ANSWER
    }
}
