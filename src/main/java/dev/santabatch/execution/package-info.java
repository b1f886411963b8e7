/**
 * What the steps of a running job share, below the steps and the launcher that wires them: the
 * run's context ({@link dev.santabatch.execution.RunContext}), the fingerprints a restart is checked
 * against, the stop flag with its tasklet and chunk-step sides, and the base of the chunk steps'
 * progress lines.
 */
@NullMarked
package dev.santabatch.execution;

import org.jspecify.annotations.NullMarked;
