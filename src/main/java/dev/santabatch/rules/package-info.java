/**
 * Deterministic rules and fixes of the verification pre-pass (pure Java: no Spring, no database).
 *
 * <p>{@link dev.santabatch.rules.RuleEngine} compiles the rules declared on rubric criteria
 * ({@code dev.santabatch.job.RuleSpec}): forbidden terms and patterns, a required phrase, length
 * bounds and number grounding. {@code check} lists the {@link dev.santabatch.rules.Violation}s of a
 * text; {@code apply} applies the declared fixes (substitute, append, correct, remove sentence),
 * re-checks, and returns a {@link dev.santabatch.rules.RuleOutcome} with the final text, per-rule
 * counts (found, fixed, unfixable) and the violations left, any of which escalates the item. Every
 * fix replaces only its span; the rest of the text stays byte-for-byte identical.
 *
 * <p>{@link dev.santabatch.rules.SentenceSplitter} is the shared sentence splitter (also for
 * reviewers and fixers).
 */
@NullMarked
package dev.santabatch.rules;

import org.jspecify.annotations.NullMarked;
