package dev.santabatch.review;

import java.util.Objects;

/** What the fixer made of one fix request. */
public sealed interface FixOutcome {

    /**
     * True when a fix's text is its input: the two are compared with leading and trailing
     * whitespace removed (a model's answer is stripped before it is returned, so content with a
     * trailing newline that comes back as it was is no fix). The one comparison the model fixer,
     * the matcher and the Santa processor share.
     */
    static boolean unchanged(String fixed, String input) {
        return fixed.strip().equals(input.strip());
    }

    /**
     * A fixed text.
     *
     * @param text the new text
     * @param truncated the fixer's signal that the text was cut short (e.g. the model hit its
     *     output-token limit); such a text is unusable
     */
    record Fixed(String text, boolean truncated) implements FixOutcome {
        public Fixed {
            Objects.requireNonNull(text, "text");
        }

        public Fixed(String text) {
            this(text, false);
        }
    }

    /**
     * The fixer has no fix for these issues and says so (the offline fixer, when the reviewers do
     * not localise the problem to the same whole sentences): the item is escalated with reason
     * {@link SantaReason#NO_FIX}, not retried.
     *
     * @param why why there is no fix, for the person the item is escalated to
     */
    record CannotFix(String why) implements FixOutcome {
        public CannotFix {
            Objects.requireNonNull(why, "why");
        }
    }

    /** The fixer failed (transport error after the call layer's retries). */
    record FailedToFix(FailureKind kind, String message) implements FixOutcome {
        public FailedToFix {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(message, "message");
        }
    }

    enum FailureKind {
        TRANSPORT
    }
}
