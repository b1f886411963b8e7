package dev.santabatch.review;

import java.util.List;

/**
 * Makes the panel for one review round. Every call returns new reviewer instances (the seed's
 * "fresh agents, no memory of previous round"), in panel order (B, C, optional third).
 */
@FunctionalInterface
public interface ReviewerFactory {

    List<Reviewer> newPanel();
}
