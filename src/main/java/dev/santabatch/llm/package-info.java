/**
 * Model-backed reviewers, fixer and matcher over any OpenAI-compatible chat endpoint, behind one
 * call governor.
 *
 * <p>{@link dev.santabatch.llm.CallGovernor} is the one place every model call goes through: calls
 * in flight per endpoint and per model, requests per minute per model, retries with exponential
 * backoff and jitter honouring {@code Retry-After}, token and cost accounting per role, and budgets
 * checked before each call. {@link dev.santabatch.llm.LlmClient} is one configured model for one
 * role; {@link dev.santabatch.llm.LlmReviewer}, {@link dev.santabatch.llm.LlmFixer} and
 * {@link dev.santabatch.llm.LlmMatcher} build the prompts and judge the answers. Provider detail
 * (langchain4j-open-ai, the HTTP client) is in {@code dev.santabatch.llm.internal}.
 */
@NullMarked
package dev.santabatch.llm;

import org.jspecify.annotations.NullMarked;
