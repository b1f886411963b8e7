package dev.santabatch.export;

/** A run's {@code report.json}: an exported run's ({@link Report}) or a failed run's ({@link FailedReport}). */
public sealed interface ReportFile permits Report, FailedReport {

    String status();

    String job();

    String runId();

    Report.@org.jspecify.annotations.Nullable Input input();

    Report.@org.jspecify.annotations.Nullable Outputs outputs();
}
