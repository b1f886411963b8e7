package dev.santabatch.plan;

import dev.santabatch.batchfix.LlmMatcher;
import dev.santabatch.batchfix.MatchRequest;
import dev.santabatch.model.CallGovernor;
import dev.santabatch.model.ModelTarget;
import dev.santabatch.review.llm.Prompts;
import dev.santabatch.config.ModelSpec;
import dev.santabatch.review.FixRequest;
import dev.santabatch.review.ReviewRequest;

/**
 * What a model call is expected to use before it is sent, for {@code santa-batch plan}: the prompt
 * the reviewer, fixer or matcher would send for a request, sized as the call governor sizes a call
 * it reserves before any answer is known (the prompt's characters / 4, rounded up, in; the model's
 * {@code max-output-tokens} out), and priced at the model's prices.
 */
final class CallEstimates {

    /**
     * A call's tokens.
     *
     * @param input the prompt's estimated tokens
     * @param output the most the model may answer ({@code max-output-tokens})
     */
    public record Tokens(long input, long output) {

        public long total() {
            return input + output;
        }
    }

    private CallEstimates() {}

    /** A model reviewer's review of {@code request}. */
    public static Tokens review(ReviewRequest request, ModelSpec model) {
        return of(Prompts.reviewerSystem(), Prompts.reviewerUser(request), model);
    }

    /** The fixer's fix of {@code request}. */
    public static Tokens fix(FixRequest request, ModelSpec model) {
        return of(Prompts.fixerSystem(), Prompts.fixerUser(request), model);
    }

    /** The batch fix's matcher call about {@code request}. */
    public static Tokens match(MatchRequest request, ModelSpec model) {
        return of(LlmMatcher.system(), LlmMatcher.user(request), model);
    }

    /** The estimated cost of {@code tokens} at the model's prices (0 where it has none). */
    public static double cost(Tokens tokens, ModelSpec model) {
        return new ModelTarget(model.model(), model.model(), model.priceInputPerMillion(), model.priceOutputPerMillion())
                .cost(tokens.input(), tokens.output());
    }

    private static Tokens of(String system, String user, ModelSpec model) {
        CallGovernor.Estimate e = CallGovernor.Estimate.of((long) system.length() + user.length(), model.maxOutputTokens());
        return new Tokens(e.inputTokens(), e.outputTokens());
    }
}
