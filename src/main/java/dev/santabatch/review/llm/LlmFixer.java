package dev.santabatch.review.llm;

import dev.santabatch.model.ErrorKind;
import dev.santabatch.model.LlmClient;
import dev.santabatch.model.LlmRoles;
import dev.santabatch.model.ModelAnswer;
import dev.santabatch.model.ModelCallFailedException;
import dev.santabatch.review.FixOutcome;
import dev.santabatch.review.FixRequest;
import dev.santabatch.review.Fixer;
import java.util.Objects;

/**
 * A model fixer: content, source facts and the merged critical issues (all enclosed as data), with
 * the seed's instruction "Fix ONLY the flagged issues. Do not refactor or add unrequested
 * changes."; the answer is the full corrected text. A fresh, stateless call per fix. Finish reason
 * length gives {@code Fixed(text, truncated=true)}; an empty or unchanged answer is returned as is
 * (the Santa processor retries such a fix once) and counted; a transport failure after the
 * governor's retries gives {@code FailedToFix(TRANSPORT)}. Configuration errors and a reached
 * budget propagate.
 */
public final class LlmFixer implements Fixer {

    private final LlmClient client;

    /** @param client the fixer's model; its role should be {@link LlmRoles#FIXER} */
    public LlmFixer(LlmClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    @Override
    public FixOutcome fix(FixRequest request) {
        ModelAnswer answer;
        try {
            answer = client.ask(Prompts.fixerSystem(), Prompts.fixerUser(request), null);
        } catch (ModelCallFailedException e) {
            return new FixOutcome.FailedToFix(FixOutcome.FailureKind.TRANSPORT, e.getMessage());
        }
        String text = Prompts.unwrapText(answer.text());
        if (answer.truncated()) {
            client.recordAnswerError(ErrorKind.TRUNCATED);
        } else if (text.isEmpty()) {
            client.recordAnswerError(ErrorKind.EMPTY_ANSWER);
        } else if (FixOutcome.unchanged(text, request.content())) {
            client.recordAnswerError(ErrorKind.UNCHANGED);
        }
        return new FixOutcome.Fixed(text, answer.truncated());
    }

    @Override
    public void retrying(FixRequest request) {
        client.recordAnswerRetry();
    }
}
