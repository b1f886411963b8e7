package dev.santabatch.cli;

/** Command line entry point (placeholder; the real commands land with the foundation). */
public final class Cli {
    private Cli() {}

    public static int run(String[] args) {
        return 0;
    }
}
