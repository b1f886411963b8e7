/**
 * Deterministic rules and fixes of the verification pre-pass (pure Java: no Spring, no database).
 *
 * <p>{@link dev.santabatch.prepass.rules.RuleEngine} compiles the rules declared on rubric criteria
 * ({@code dev.santabatch.config.RuleSpec}): forbidden terms and patterns, a required phrase, length
 * bounds and number grounding. {@code check} lists the {@link dev.santabatch.prepass.rules.Violation}s of a
 * text; {@code apply} applies the declared fixes (substitute, append, correct, remove sentence),
 * re-checks, and returns a {@link dev.santabatch.prepass.rules.RuleOutcome} with the final text, per-rule
 * counts (found, fixed, unfixable) and the violations left, any of which escalates the item. Every
 * fix replaces only its span; the rest of the text stays byte-for-byte identical.
 *
 * <p>{@link dev.santabatch.text.SentenceSplitter} is the shared sentence splitter (also for
 * reviewers and fixers).
 */
@NullMarked
package dev.santabatch.prepass.rules;

import org.jspecify.annotations.NullMarked;
