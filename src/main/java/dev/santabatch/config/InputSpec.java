package dev.santabatch.config;

import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The input catalog and its column mapping.
 *
 * @param path the CSV file (UTF-8, header row required); absolute, and a readable regular file when
 *     the job was loaded
 * @param idColumn the column holding each item's unique id. Required.
 * @param contentColumn the column holding the generated content under review. Required.
 * @param categoryColumn optional column used to stratify the sample; {@code null} means one stratum
 * @param sourceColumns the columns holding the facts the content was generated from. An empty list
 *     (the default) means every column except the id and content columns; the job file loader cannot
 *     see the CSV header, so whether listed columns exist is checked when the catalog is read.
 * @param groundTruth optional file listing planted defects per item id (used for escape rates)
 */
public record InputSpec(
        Path path,
        String idColumn,
        String contentColumn,
        @Nullable String categoryColumn,
        List<String> sourceColumns,
        @Nullable Path groundTruth) {}
