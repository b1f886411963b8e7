/**
 * Rules learned from the sample: a systematic pattern whose accepted fixes share one shape becomes
 * a deterministic rule in the job file's own rule language ({@link dev.santabatch.batchfix.induction.RuleInducer}),
 * which must earn its way in ({@link dev.santabatch.batchfix.induction.RuleValidator}) before it fixes the
 * catalog without model calls. See {@code docs/learned-rules.md}.
 */
@NullMarked
package dev.santabatch.batchfix.induction;

import org.jspecify.annotations.NullMarked;
