package dev.santabatch.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A panel that one reviewer's exception ends still hands over what the others answered. */
class PanelTests {

    static final List<String> CRITERIA = List.of("accuracy", "compliance");

    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    @AfterEach
    void shutdown() throws InterruptedException {
        executor.shutdownNow();
        executor.awaitTermination(5, TimeUnit.SECONDS);
    }

    /** Counted down when the asking reviewer has started. */
    private final CountDownLatch asking = new CountDownLatch(1);

    /** A reviewer refused before it asks (a reached budget), once the other reviewer is asking. */
    private Reviewer refused(String id) {
        return reviewer(id, () -> {
            try {
                asking.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("budget reached before " + id + " asked");
        });
    }

    private static Reviewer reviewer(String id, java.util.function.Supplier<ReviewOutcome> answer) {
        return ReviewFixtures.answering(id, Set.copyOf(CRITERIA), answer);
    }

    /** A reviewer that answers FAIL after a while, so that the other's refusal comes first. */
    private Reviewer slowFail(String id) {
        return reviewer(id, () -> {
            asking.countDown();
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                throw new AssertionError("interrupted: the panel must let an asking reviewer answer", e);
            }
            return ReviewFixtures.reviewed(ReviewFixtures.failOn(CRITERIA, "accuracy", "accuracy: 3 stars, the source says 5"));
        });
    }

    @ParameterizedTest(name = "refused reviewer first: {0}")
    @ValueSource(booleans = {true, false})
    void aFailAnsweredBeforeAnotherReviewersExceptionEndsThePanelIsHandedOver(boolean refusedFirst) {
        List<Reviewer> reviewers = refusedFirst ? List.of(refused("B"), slowFail("C")) : List.of(slowFail("C"), refused("B"));
        ReviewRequest request = new ReviewRequest("spec", "item-1", Map.of("stars", "5"), "Rated 3 stars.",
                ReviewFixtures.criteria("accuracy", "compliance"));
        List<List<PanelReview>> received = new ArrayList<>();

        assertThatThrownBy(() -> new Panel(executor, new ReviewValidator()).review(reviewers, request, received::add))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("budget reached before B");

        assertThat(received).hasSize(1);
        assertThat(received.get(0)).singleElement().satisfies(pr -> {
            assertThat(pr.reviewerId()).isEqualTo("C");
            assertThat(((ReviewOutcome.Reviewed) pr.outcome()).review().verdict()).isEqualTo(Verdict.FAIL);
        });
    }

    /** Runs the first task it is given on a thread of its own and holds the others until released. */
    static final class HoldingExecutor extends java.util.concurrent.AbstractExecutorService {
        private final List<Runnable> held = new ArrayList<>();
        private boolean first = true;

        @Override
        public synchronized void execute(Runnable task) {
            if (first) {
                first = false;
                new Thread(task, "first").start();
            } else {
                held.add(task);
            }
        }

        synchronized void release() {
            held.forEach(Runnable::run);
            held.clear();
        }

        @Override
        public void shutdown() {}

        @Override
        public List<Runnable> shutdownNow() {
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }

    @org.junit.jupiter.api.Test
    void aReviewerThatHadNotStartedWhenAnotherEndedThePanelIsNeverCalled() {
        // given B refused at once while C has not started yet (held in the executor's queue)
        HoldingExecutor holding = new HoldingExecutor();
        java.util.concurrent.atomic.AtomicInteger calledC = new java.util.concurrent.atomic.AtomicInteger();
        Reviewer b = reviewer("B", () -> {
            throw new IllegalStateException("budget reached before B asked");
        });
        Reviewer c = reviewer("C", () -> {
            calledC.incrementAndGet();
            return ReviewFixtures.reviewed(ReviewFixtures.passAll(CRITERIA));
        });
        ReviewRequest request = new ReviewRequest("spec", "item-1", Map.of("stars", "5"), "Rated 5 stars.",
                ReviewFixtures.criteria("accuracy", "compliance"));
        List<List<PanelReview>> received = new ArrayList<>();

        // when the panel ends (it does not wait for a reviewer that never started)
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
                () -> assertThatThrownBy(() -> new Panel(holding, new ReviewValidator()).review(List.of(b, c), request,
                        received::add)).hasMessageContaining("budget reached before B"));
        holding.release();

        // then C is never asked, even once its task runs, and nothing was handed over
        assertThat(calledC).hasValue(0);
        assertThat(received).isEmpty();
    }
}
