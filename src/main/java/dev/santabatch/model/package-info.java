/**
 * Model calls to any OpenAI-compatible chat endpoint, behind one call governor; the run's spend and
 * call ledger.
 *
 * <p>{@link dev.santabatch.model.CallGovernor} is the one place every model call goes through: calls
 * in flight per endpoint and per model, requests per minute per model, retries with exponential
 * backoff and jitter honouring {@code Retry-After}, token and cost accounting per role, and budgets
 * checked before each call. {@link dev.santabatch.model.LlmClient} is one configured model for one
 * role; {@link dev.santabatch.review.llm.LlmReviewer}, {@link dev.santabatch.review.llm.LlmFixer} and
 * {@link dev.santabatch.batchfix.LlmMatcher} build the prompts and judge the answers. Provider detail
 * (langchain4j-open-ai, the HTTP client) is in {@code dev.santabatch.model.http}.
 */
@NullMarked
package dev.santabatch.model;

import org.jspecify.annotations.NullMarked;
