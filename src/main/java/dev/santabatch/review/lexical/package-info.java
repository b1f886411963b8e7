/**
 * The {@code lexical} offline reviewer: judges {@code on-specification} and {@code original} by word
 * statistics and sketches, independently of the {@code semantic} reviewer.
 *
 * <ul>
 *   <li>{@link dev.santabatch.review.lexical.LexicalIndex} ({@link dev.santabatch.review.offline.OfflineMethod}) is
 *       built once per round from the catalog snapshot: MinHash signatures and LSH band buckets per
 *       item revision, and an inverted index of source tokens, all in the store
 *       (tables {@code lx_*} of the store's migrations); small vocabulary-bounded dictionaries
 *       (names and brands, token document frequencies, the stop-shingle list) in the heap.
 *   <li>{@link dev.santabatch.review.lexical.LexicalReviewer} reviews one item against the index; it is
 *       cheap to create (fresh per panel round) and shares the read-only index.
 * </ul>
 *
 * See {@code docs/offline-reviewers.md}, section "lexical".
 */
@NullMarked
package dev.santabatch.review.lexical;

import org.jspecify.annotations.NullMarked;
