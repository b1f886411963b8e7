/**
 * {@code santa-batch plan}: what a run of a job would do and spend, before it runs and without a
 * model call (docs/plan.md). {@link dev.santabatch.plan.Census} counts what round 1 would start
 * with (from the catalog and the store, read only; or, in a run, from the run's own store after the
 * pre-pass), {@link dev.santabatch.plan.PlanHistory} reads what the job's last runs measured, and
 * {@link dev.santabatch.plan.Plan} estimates round 1's and a whole run's model calls, tokens and
 * cost against full verification.
 */
@NullMarked
package dev.santabatch.plan;

import org.jspecify.annotations.NullMarked;
