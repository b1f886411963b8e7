/**
 * Streaming CSV catalog reading with per-row rejects ({@link dev.santabatch.catalog.CatalogReader},
 * {@link dev.santabatch.catalog.CatalogItemReader}) and atomic CSV writing ({@link
 * dev.santabatch.catalog.CatalogCsvWriter}).
 */
@NullMarked
package dev.santabatch.catalog;

import org.jspecify.annotations.NullMarked;
