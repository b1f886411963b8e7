package dev.santabatch.history;

import org.jspecify.annotations.Nullable;

/**
 * A run's figures as its export wrote them into {@code report.json}, kept in the store
 * ({@link RunSummaryStore}) so that {@code history} needs no output folder.
 *
 * @param status the report's status ({@code clean}, {@code fully-reviewed}, {@code not-clean},
 *     {@code budget-stopped})
 * @param items items read (rejects apart)
 * @param changed items an earlier run judged whose content or a source fact changed since
 *     ({@code carry_over.judged_afresh.changed}); {@code null} when the run had no earlier run to
 *     look at or carry-over was off
 * @param carriedOver items whose outcome was carried over from an earlier run
 * @param shipped items in {@code catalog.csv} (or {@code verified.csv})
 * @param held items in {@code escalations.csv}
 * @param firstPassRate the run's first-pass rate; {@code null} when no item was reviewed
 * @param patternsNew failure patterns no earlier run of the job had ({@link PatternMemory})
 * @param patternsSeenAgain failure patterns an earlier run of the job had too
 * @param modelCalls model calls (HTTP attempts, retries included) over every execution
 * @param estimatedCost their estimated cost from the job file's prices
 * @param bound the defect rate a clean sample bounds (95 %); {@code null} when none is stated
 * @param audited shipped items a person audited ({@code santa-batch audit})
 * @param escapeRate defective among those; {@code null} until some are audited
 */
public record RunSummary(String status, long items, @Nullable Long changed, long carriedOver, long shipped, long held,
        @Nullable Double firstPassRate, int patternsNew, int patternsSeenAgain, long modelCalls, double estimatedCost,
        @Nullable Double bound, long audited, @Nullable Double escapeRate) {}
