/**
 * Streaming CSV catalog reading with per-row rejects ({@link dev.santabatch.ingest.CatalogReader},
 * {@link dev.santabatch.ingest.CatalogItemReader}) and atomic CSV writing ({@link
 * dev.santabatch.ingest.CatalogCsvWriter}).
 */
@NullMarked
package dev.santabatch.ingest;

import org.jspecify.annotations.NullMarked;
