package dev.santabatch.review.offline;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The threads the offline reviewers and the batch fix's narrowing embed on, one per core: a bean of
 * the base context ({@link dev.santabatch.SantaBatchApplication}), shut down when it closes.
 */
public final class EmbeddingPool implements AutoCloseable {

    private final ExecutorService executor = Executors.newFixedThreadPool(
            Math.max(1, Runtime.getRuntime().availableProcessors()), r -> {
                Thread t = new Thread(r, "santa-embed");
                t.setDaemon(true);
                return t;
            });

    public ExecutorService executor() {
        return executor;
    }

    @Override
    public void close() {
        // no interrupts: an embedding task may be inside the store, whose H2 file channel an interrupt closes
        executor.shutdown();
    }
}
