package dev.santabatch.run;

/** Exit statuses: a contract relied on by schedulers' scripts. */
public final class ExitCodes {
    /** A clean sample was reached, or nothing was left to sample. Escalations do not change it. */
    public static final int OK = 0;
    /** The run failed, or was stopped by a signal; it is restartable. */
    public static final int FAILED = 1;
    /** Bad job file, input or usage: nothing was run. */
    public static final int USAGE = 2;
    /** Not clean: no clean sample within max rounds, or stopped by a budget; resumable. */
    public static final int NOT_CLEAN = 3;

    private ExitCodes() {}
}
