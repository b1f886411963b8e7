package dev.santabatch.batch;

import java.util.Set;
import org.springframework.batch.core.scope.context.StepContext;
import org.springframework.batch.core.scope.context.StepSynchronizationManager;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;

/**
 * Slows every chunk of the ingest and pre-pass steps by {@code millis} before its transaction
 * commits, so that a kill test's child JVM is killed mid-step. A bean of the run's application
 * context: Spring Boot adds {@link TransactionExecutionListener} beans to its transaction manager.
 */
public record SlowChunks(long millis) implements TransactionExecutionListener {

    private static final Set<String> STEPS = Set.of(SantaJobConfiguration.INGEST, SantaJobConfiguration.PREPASS);

    @Override
    public void beforeCommit(TransactionExecution transaction) {
        StepContext step = StepSynchronizationManager.getContext();
        if (millis <= 0 || step == null || !STEPS.contains(step.getStepName())) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while slowed", e); // the chunk rolls back
        }
    }
}
