/**
 * Carry-over across runs of one job: an item unchanged since an earlier run judged it, under the
 * same verification fingerprint, inherits that run's outcome without a review (docs/carry-over.md).
 */
@NullMarked
package dev.santabatch.carry;

import org.jspecify.annotations.NullMarked;
