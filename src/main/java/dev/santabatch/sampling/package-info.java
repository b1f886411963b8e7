/**
 * Pattern C sampling: {@link dev.santabatch.sampling.StratifiedSampler} draws 10-15 % (default
 * 12 %, minimum 5; every item below 100 eligible) of the eligible items, stratified by
 * (category, changed-this-round) with largest-remainder proportional allocation and a seeded,
 * reproducible draw per stratum. Streaming-friendly (counts first, then positions); the covered stratum of a carried-over run is
 * kept in {@link dev.santabatch.sampling.StratumStore}.
 */
@NullMarked
package dev.santabatch.sampling;

import org.jspecify.annotations.NullMarked;
