package dev.santabatch.run;

/** Job parameter names. Only the run id identifies a job instance; the rest describe it. */
final class RunParameters {
    static final String RUN_ID = "run.id";
    static final String JOB_FILE = "job.file";
    static final String INPUT = "input";
    static final String OUT = "out";
    static final String SEED = "seed";

    private RunParameters() {}
}
