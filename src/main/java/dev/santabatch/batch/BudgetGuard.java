package dev.santabatch.batch;

import dev.santabatch.model.ModelCalls;
import dev.santabatch.execution.StopAwareInterruptionPolicy;
import dev.santabatch.model.BudgetExceededException;
import dev.santabatch.model.CallsStoppedException;
import dev.santabatch.rounds.LoopStore;
import org.jspecify.annotations.Nullable;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.job.JobInterruptedException;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.StepInterruptionPolicy;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemProcessor;
import org.springframework.batch.infrastructure.item.ItemStreamReader;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Turns a reached budget into a clean stop of a chunk step that makes model calls. The item whose
 * call hit the budget is left as it was (filtered: nothing is written for it, so it stays pending
 * or eligible); the rest of the chunk is written; the step then ends STOPPED at the chunk boundary
 * (the job stops, restartable). A budget reached while the reader opens (the batch fix's learned
 * rules make panel reviews there) stops the step before its first chunk, with nothing read. Spend
 * is written with every chunk and at the step's end; the governor counts the step's calls under
 * the current round. A model call the governor refused for a requested stop
 * ({@link CallsStoppedException}) is handled alike: its item is left as it was, the step ends STOPPED.
 */
final class BudgetGuard implements StepExecutionListener, StepInterruptionPolicy {

    private final ModelCalls calls;
    private final LoopStore loop;
    private final long runPk;
    private final StopAwareInterruptionPolicy stop = new StopAwareInterruptionPolicy();
    private volatile @Nullable StepExecution step;

    BudgetGuard(ModelCalls calls, LoopStore loop, long runPk) {
        this.calls = calls;
        this.loop = loop;
        this.runPk = runPk;
    }

    @Override
    public void beforeStep(StepExecution stepExecution) {
        step = stepExecution;
        int round = loop.currentRound(runPk).map(LoopStore.Round::round).orElse(0);
        calls.startStep(round, stepExecution.getStepName());
    }

    @Override
    public @Nullable ExitStatus afterStep(StepExecution stepExecution) {
        calls.save();
        return null;
    }

    @Override
    public void checkInterrupted(StepExecution stepExecution) throws JobInterruptedException {
        if (calls.budgetStop().isPresent()) {
            stepExecution.setTerminateOnly();
            throw new JobInterruptedException("budget reached");
        }
        stop.checkInterrupted(stepExecution);
    }

    /**
     * The reader, with a budget reached in its {@code open} (model calls made while the step opens)
     * turned into a stop request: the step ends STOPPED before its first chunk and reads nothing.
     * What the open had stored before the budget was reached is kept; a restart opens it again.
     */
    <T> ItemStreamReader<T> opening(ItemStreamReader<T> delegate) {
        return new ItemStreamReader<>() {
            private volatile boolean stopped;

            @Override
            public void open(ExecutionContext ctx) {
                stopped = false;
                try {
                    delegate.open(ctx);
                } catch (BudgetExceededException e) {
                    stopped = true;
                    calls.budgetReached(e);
                    terminate();
                } catch (CallsStoppedException e) {
                    stopped = true;
                    terminate();
                }
            }

            @Override
            public @Nullable T read() throws Exception {
                return stopped ? null : delegate.read();
            }

            @Override
            public void update(ExecutionContext ctx) {
                delegate.update(ctx);
            }

            @Override
            public void close() {
                delegate.close();
            }
        };
    }

    /** The processor, with a reached budget turned into a filtered item and a stop request. */
    <I, O> ItemProcessor<I, O> guard(ItemProcessor<I, O> delegate) {
        return item -> {
            if (calls.budgetStop().isPresent()) {
                return null; // stopping: no call would be made anyway
            }
            try {
                return delegate.process(item);
            } catch (BudgetExceededException e) {
                calls.budgetReached(e);
                terminate();
                return null;
            } catch (CallsStoppedException e) {
                terminate(); // the item stays as it was: a restart asks again
                return null;
            }
        };
    }

    /** The step ends at the next chunk boundary (STOPPED, restartable). */
    private void terminate() {
        StepExecution s = step;
        if (s != null) {
            s.setTerminateOnly();
        }
    }

    /** The writer, with the spend written in the chunk's transaction. */
    <O> ItemWriter<O> saving(ItemWriter<O> delegate) {
        return chunk -> {
            delegate.write(chunk);
            calls.save();
        };
    }
}
