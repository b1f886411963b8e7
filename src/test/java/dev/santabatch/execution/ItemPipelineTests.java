package dev.santabatch.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.santabatch.review.ReviewStepFailedException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.job.JobInterruptedException;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.StepInterruptionPolicy;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * The review step's pipeline. Coordination by latches and barriers, not by time: a pipeline that
 * waited for its slowest item, or kept fewer items in process than its width, would deadlock these
 * tests, which the timeouts turn into failures.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ItemPipelineTests {

    /** Items "1".."n"; records the threshold check's argument. */
    static final class ListSource implements ItemPipeline.Source<String> {
        final Deque<String> items = new ArrayDeque<>();
        final List<Map<String, String>> checks = Collections.synchronizedList(new ArrayList<>());
        @Nullable RuntimeException failCheck;

        ListSource(int n) {
            for (int i = 1; i <= n; i++) {
                items.add(Integer.toString(i));
            }
        }

        @Override
        public @Nullable String read() {
            return items.poll();
        }

        @Override
        public void checkThreshold(Map<String, String> unwritten) {
            checks.add(unwritten);
            if (failCheck != null) {
                throw failCheck;
            }
        }
    }

    static ItemPipeline<String, String> pipeline(ListSource source, Function<String, String> work, int width) {
        return pipeline(source, work, width, step -> {});
    }

    static ItemPipeline<String, String> pipeline(ListSource source, Function<String, String> work, int width,
            StepInterruptionPolicy interruption) {
        ItemPipeline<String, String> p = new ItemPipeline<>(source, work, s -> s, r -> r, width, interruption);
        p.open(new ExecutionContext());
        return p;
    }

    static StepExecution step() {
        return new StepExecution(1L, "review", new JobExecution(1L, new JobInstance(1L, "santa"), new JobParameters()));
    }

    @Test
    void aSlowItemHoldsUpNoOther() throws Exception {
        // item 1 finishes only after items 2..8 have all been handed out
        CountDownLatch othersOut = new CountDownLatch(7);
        ListSource source = new ListSource(8);
        ItemPipeline<String, String> p = pipeline(source, item -> {
            if (item.equals("1")) {
                await(othersOut);
            }
            return "NICE";
        }, 2);

        List<String> order = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            order.add(p.read().item());
            othersOut.countDown();
        }
        order.add(p.read().item());

        assertThat(order.subList(0, 7)).containsExactlyInAnyOrder("2", "3", "4", "5", "6", "7", "8");
        assertThat(order.get(7)).isEqualTo("1");
        assertThat(p.read()).isNull();
        p.close();
    }

    @Test
    void keepsWidthItemsInProcessAndNoMore() throws Exception {
        int width = 4;
        // each wave of 4 items must be in process together to pass the barrier
        CyclicBarrier together = new CyclicBarrier(width);
        AtomicInteger now = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        ListSource source = new ListSource(12);
        ItemPipeline<String, String> p = pipeline(source, item -> {
            peak.accumulateAndGet(now.incrementAndGet(), Math::max);
            try {
                together.await();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            now.decrementAndGet();
            return "NICE";
        }, width);

        List<String> out = new ArrayList<>();
        ItemPipeline.Attempt<String, String> a;
        while ((a = p.read()) != null) {
            assertThat(a.failure()).isNull();
            out.add(a.item());
        }

        assertThat(out).hasSize(12).doesNotHaveDuplicates();
        assertThat(peak.get()).isEqualTo(width);
        p.close();
    }

    @Test
    void theThresholdCheckCountsItemsHandedOutButNotYetWritten() throws Exception {
        ListSource source = new ListSource(3);
        ItemPipeline<String, String> p = pipeline(source, item -> item.equals("2") ? "UNREVIEWED" : "NICE", 2);

        List<String> out = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            out.add(p.read().item());
        }
        p.written("1");

        assertThat(p.read()).isNull();
        assertThat(source.checks).containsExactly(Map.of("2", "UNREVIEWED", "3", "NICE"));
        assertThat(out).containsExactlyInAnyOrder("1", "2", "3");
    }

    @Test
    void aFailedThresholdCheckFailsTheRead() {
        ListSource source = new ListSource(2);
        source.failCheck = new ReviewStepFailedException(2, 2, 0.1);
        ItemPipeline<String, String> p = pipeline(source, item -> "UNREVIEWED", 1);

        assertThatThrownBy(() -> {
            while (p.read() != null) {
                // drain
            }
        }).isInstanceOf(ReviewStepFailedException.class);
    }

    @Test
    void aFailureHaltsThePipelineAndTheRestIsHandedOutUnprocessed() throws Exception {
        AtomicInteger started = new AtomicInteger();
        ListSource source = new ListSource(10);
        IllegalStateException unauthorized = new IllegalStateException("401");
        ItemPipeline<String, String> p = pipeline(source, item -> {
            started.incrementAndGet();
            if (item.equals("1")) {
                throw unauthorized;
            }
            return "NICE";
        }, 1);

        ItemPipeline.Attempt<String, String> first = p.read();
        assertThat(first.item()).isEqualTo("1");
        assertThat(first.failure()).isSameAs(unauthorized);
        List<ItemPipeline.Attempt<String, String>> rest = new ArrayList<>();
        ItemPipeline.Attempt<String, String> a;
        while ((a = p.read()) != null) {
            rest.add(a);
        }

        assertThat(started.get()).as("no item started after the failure").isEqualTo(1);
        assertThat(rest).hasSize(9).allSatisfy(r -> {
            assertThat(r.result()).isNull();
            assertThat(r.failure()).isInstanceOf(ItemPipeline.NotProcessedException.class);
        });
    }

    @Test
    void aStopWhileTheLastItemsWaitOnOneHeldItemIsHonouredWithoutWaitingForIt() throws Exception {
        // given item 1 is held until the test ends, items 2 and 3 are done and handed out
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean stop = new AtomicBoolean();
        ListSource source = new ListSource(3);
        ItemPipeline<String, String> p = pipeline(source, item -> {
            if (item.equals("1")) {
                await(release);
            }
            return "NICE";
        }, 3, s -> {
            if (stop.get()) {
                throw new JobInterruptedException("stop requested");
            }
        });
        StepExecution step = step();
        p.beforeStep(step);
        try {
            List<String> out = new ArrayList<>(List.of(p.read().item(), p.read().item()));
            assertThat(out).containsExactlyInAnyOrder("2", "3");

            // when a stop is requested while the read waits on item 1
            stop.set(true);
            ItemPipeline.Attempt<String, String> next = p.read();

            // then the read ends the step's input at once (a hang here is the failure the timeout reports),
            // the step execution stops, and the threshold check, an end-of-step check, is not made
            assertThat(next).isNull();
            assertThat(step.isTerminateOnly()).isTrue();
            assertThat(source.checks).isEmpty();
        } finally {
            release.countDown();
        }
    }

    @Test
    void withoutAStopTheReadWaitsForTheHeldItem() throws Exception {
        // given item 1 finishes only once released; the interruption policy never says stop
        CountDownLatch release = new CountDownLatch(1);
        ListSource source = new ListSource(2);
        ItemPipeline<String, String> p = pipeline(source, item -> {
            if (item.equals("1")) {
                await(release);
            }
            return "NICE";
        }, 2);
        StepExecution step = step();
        p.beforeStep(step);
        assertThat(p.read().item()).isEqualTo("2");

        // when it is released from another thread while the read waits
        Thread releaser = new Thread(release::countDown);
        releaser.start();
        ItemPipeline.Attempt<String, String> last = p.read();
        releaser.join();

        // then item 1 is handed out, and the input ends with the threshold check
        assertThat(last.item()).isEqualTo("1");
        assertThat(p.read()).isNull();
        assertThat(step.isTerminateOnly()).isFalse();
        assertThat(source.checks).hasSize(1);
    }

    @Test
    void aReopenedPipelineStartsAfreshAndAClosedOneStartsNothing() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        ListSource source = new ListSource(6);
        ItemPipeline<String, String> p = pipeline(source, item -> {
            started.incrementAndGet();
            await(release);
            return "NICE";
        }, 2);
        // nothing handed out yet: the read blocks, so ask from another thread and close meanwhile
        Thread reader = new Thread(() -> {
            try {
                p.read();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        reader.start();
        while (started.get() < 2) {
            Thread.onSpinWait();
        }
        p.close();
        release.countDown();
        reader.join();

        assertThat(started.get()).as("the two in process finished; none started after close").isEqualTo(2);
        source.items.addAll(List.of("a", "b"));
        p.open(new ExecutionContext());
        List<String> out = new ArrayList<>();
        ItemPipeline.Attempt<String, String> a;
        while ((a = p.read()) != null) {
            out.add(a.item());
        }
        assertThat(out).doesNotContain("1", "2").contains("a", "b");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
