package dev.santabatch.review.step;

import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.review.offline.CatalogSnapshot;
import dev.santabatch.review.Reviewer;

/**
 * A kind of reviewer named by {@code reviewers[].type} in the job file. One instance serves a run;
 * {@link #prepare} is called at the start of every round's review (idempotent, restart-safe), and
 * {@link #create} gives a fresh reviewer for every panel (the seed: fresh reviewers every round).
 */
public interface ReviewerType {

    default void prepare(CatalogSnapshot snapshot) {}

    Reviewer create(ReviewerSpec spec);
}
