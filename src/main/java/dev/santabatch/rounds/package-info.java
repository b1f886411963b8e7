/**
 * The review loop's record of a run, below the steps that write it and the carry-over that reads an
 * earlier run's: its rounds, samples, reviews, flags, issues and patterns ({@link
 * dev.santabatch.rounds.LoopStore}), its learned rules, the decision each round ends with, and the
 * shipping invariant that places every item from them.
 */
@NullMarked
package dev.santabatch.rounds;

import org.jspecify.annotations.NullMarked;
