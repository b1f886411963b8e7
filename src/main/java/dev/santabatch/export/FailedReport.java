package dev.santabatch.export;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@code report.json} of a run that ended without exporting ({@link FailedRunReport}); without
 * {@code input}, {@code rounds} and {@code run} when the store did not answer, with {@code store}
 * saying so.
 */
@JsonInclude(Include.NON_NULL)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record FailedReport(String status, String job, String runId, @Nullable Execution execution,
        List<String> failures, @Nullable String restart, Report.@Nullable Input input,
        Report.@Nullable Outputs outputs, @Nullable List<Round> rounds, @Nullable Run run, @Nullable StoreState store) implements ReportFile {

    /** The execution that ended the run, its Spring Batch status and why. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Execution(long id, String batchStatus, String why) {}

    /** A round as far as it got: its sampled items by outcome, those not reviewed yet apart. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Round(int round, long eligible, int sampleSize, String decision, long nice, long escalated,
            long unreviewed, long notReviewedYet) {}

    /** The model calls of every execution so far ({@link SpendReport#render}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Run(SpendReport.ModelCalls modelCalls) {}

    /** Why the counts are missing: the store did not answer. */
    public record StoreState(boolean readable, String failure, String note) {}
}
