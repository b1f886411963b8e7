/**
 * A job's runs over time ({@code santa-batch history}): the figures each run's export records in
 * the store ({@link dev.santabatch.history.RunSummary}), the patterns each run saw again or saw
 * first ({@link dev.santabatch.history.PatternMemory}), and the listing with its trend.
 */
@NullMarked
package dev.santabatch.history;

import org.jspecify.annotations.NullMarked;
