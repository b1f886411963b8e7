/**
 * Pattern C sampling: {@link dev.santabatch.sampling.StratifiedSampler} draws 10-15 % (default
 * 12 %, minimum 5; every item below 100 eligible) of the eligible items, stratified by
 * (category, changed-this-round) with largest-remainder proportional allocation and a seeded,
 * reproducible draw per stratum. Pure Java; streaming-friendly (counts first, then positions).
 */
@NullMarked
package dev.santabatch.sampling;

import org.jspecify.annotations.NullMarked;
