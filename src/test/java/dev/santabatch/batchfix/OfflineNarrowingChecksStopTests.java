package dev.santabatch.batchfix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.santabatch.config.JobFileLoader;
import dev.santabatch.review.offline.MemorySnapshot;
import dev.santabatch.execution.PreparationStoppedException;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.review.offline.StoppingSnapshot;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.AbstractCollection;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.job.JobInterruptedException;

/**
 * A stop requested while the batch fix's offline narrowing checks run ends them within a page of
 * {@value OfflineNarrowingChecks#PAGE} items, as a stop (the step ends STOPPED, restartable), with the
 * real sentence model on a small generated catalog.
 */
class OfflineNarrowingChecksStopTests {

    @Test
    void aStopDuringTheChecksEndsThemWithinAPage() throws Exception {
        // given a catalog of 300 items and the default job's reviewers
        StringWriter csv = new StringWriter();
        SampleCatalogGenerator.write(3L, 300, false, csv, new StringWriter());
        MemorySnapshot catalog = new MemorySnapshot(1, 1, MemorySnapshot.items(MemorySnapshot.records(new StringReader(csv.toString())),
                "id", "description", MemorySnapshot.PRODUCT_SOURCE));
        StoppingSnapshot stopping = StoppingSnapshot.manual(catalog);
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:narrowing-stop-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        OfflineNarrowingChecks checks = new OfflineNarrowingChecks(JobFileLoader.load(Path.of("jobs/product-descriptions.yml")), ds,
                Runnable::run);
        // the eligible items, the stop requested as the tenth is handed to the checks
        int[] handed = {0};
        int[] afterStop = {0};
        List<SnapshotItem> all = catalog.items();
        AbstractCollection<SnapshotItem> items = new AbstractCollection<>() {
            @Override
            public Iterator<SnapshotItem> iterator() {
                Iterator<SnapshotItem> it = all.iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public SnapshotItem next() {
                        if (stopping.stopped()) {
                            afterStop[0]++;
                        }
                        if (++handed[0] == 10) {
                            stopping.stop();
                        }
                        return it.next();
                    }
                };
            }

            @Override
            public int size() {
                return all.size();
            }
        };

        // when the checks run, then they end at the next page, as a stop
        assertThatThrownBy(() -> checks.check(stopping, items, Set.of("on-specification", "original")))
                .isInstanceOf(PreparationStoppedException.class)
                .hasMessageContaining("offline narrowing checks: " + OfflineNarrowingChecks.PAGE + " of 300 items")
                .hasCauseInstanceOf(JobInterruptedException.class);
        assertThat(afterStop[0]).as("items handed out after the stop").isBetween(1, OfflineNarrowingChecks.PAGE);
    }
}
