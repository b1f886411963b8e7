package dev.santabatch.config;

/**
 * Execution settings.
 *
 * @param chunkSize items per transaction in every chunk step. Defaults to 500 (1-100000).
 * @param concurrency items reviewed at once. Defaults to 4 (1-256).
 */
public record RunSpec(int chunkSize, int concurrency) {}
