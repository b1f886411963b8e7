package dev.santabatch.review.semantic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.offline.MemorySnapshot;
import dev.santabatch.review.offline.StoppingSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.batch.core.job.JobInterruptedException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A stop requested while the semantic index is prepared ends the preparation within one batch: in
 * the embedding pass within {@value #EMBED_BATCH} items, in the indexing pass within one batch of
 * {@value #INDEX_BATCH} revisions; as a stop (cause {@link JobInterruptedException}), keeping what
 * the finished batches stored, and the next prepare completes the round as an uninterrupted one
 * would. A stand-in model (a vector per sentence template plus noise) embeds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SemanticPrepareStopTests {

    static final int EMBED_BATCH = 64;
    /** The indexing batch (the default). */
    static final int INDEX_BATCH = 256;
    /** Two indexing batches, a multiple of the embedding batch. */
    static final int ITEMS = 2 * INDEX_BATCH;

    private static final List<float[]> BASE = new ArrayList<>();

    static {
        Random r = new Random(5);
        for (int b = 0; b < 64; b++) {
            float[] v = new float[Embedder.DIMENSION];
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) r.nextGaussian();
            }
            BASE.add(Vectors.normalise(v));
        }
    }

    private ExecutorService pool;
    private MemorySnapshot catalog;
    /** An uninterrupted prepare of the catalog. */
    private JdbcDataSource reference;

    @BeforeAll
    void setUp() throws Exception {
        pool = Executors.newFixedThreadPool(2);
        catalog = TestCatalog.generated(4, 31L, ITEMS, false);
        assertThat(catalog.size()).isEqualTo(ITEMS);
        reference = h2();
        index(reference, pool).prepare(catalog);
    }

    @AfterAll
    void tearDown() throws InterruptedException {
        pool.shutdown();
        assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
    }

    private SemanticIndex index(JdbcDataSource ds, Executor executor) {
        SemanticIndex index = new SemanticIndex(ds, () -> Embedder.of("stand-in", new TemplateStandInModel(BASE, 0.05, new AtomicLong())),
                executor, SemanticSettings.defaults());
        return index;
    }

    private static JdbcDataSource h2() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:sm-stop-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        return ds;
    }

    @Test
    void aStopAfterTheFirstEmbeddingBatchEndsThePrepareWithinOneBatch() {
        // given the stop flag set by a callback when the first item after the first batch is handed out
        JdbcDataSource ds = h2();
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        StoppingSnapshot stopping = StoppingSnapshot.atItem(catalog, 1, i -> i == EMBED_BATCH + 1);

        // when the index is prepared, then it stops within one batch, as a stop
        assertThatThrownBy(() -> index(ds, pool).prepare(stopping))
                .hasMessageContaining("stop requested")
                .hasCauseInstanceOf(JobInterruptedException.class);
        assertThat(stopping.itemsAfterStop()).isBetween(1L, (long) EMBED_BATCH);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sm_item", Long.class)).as("the first batch is kept")
                .isEqualTo(EMBED_BATCH);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sm_round", Long.class)).isZero();

        // and the next prepare completes the round as an uninterrupted one does
        resumeAndCompare(ds);
    }

    @Test
    void aStopAfterTheFirstIndexingBatchEndsThePrepareWithinOneBatch() {
        // given the stop flag set by a callback (the executor) when the first indexing task is handed
        // out: the first task after the run's references are frozen
        JdbcDataSource ds = h2();
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        StoppingSnapshot stopping = StoppingSnapshot.manual(catalog);
        Executor flagging = task -> {
            if (!stopping.stopped() && jdbc.queryForObject("SELECT COUNT(*) FROM sm_frozen", Long.class) > 0) {
                stopping.stop();
            }
            pool.execute(task);
        };

        // when the index is prepared, then the indexing stops after the batch under way
        assertThatThrownBy(() -> index(ds, flagging).prepare(stopping))
                .hasMessageContaining("stop requested")
                .hasCauseInstanceOf(JobInterruptedException.class);
        assertThat(stopping.stopped()).isTrue();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sm_indexed WHERE rev = 0", Long.class))
                .as("revisions indexed: the batch under way when the flag was set").isEqualTo(INDEX_BATCH);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sm_round", Long.class)).isZero();

        // and the next prepare completes the round as an uninterrupted one does
        resumeAndCompare(ds);
    }

    private void resumeAndCompare(JdbcDataSource ds) {
        index(ds, pool).prepare(StoppingSnapshot.manual(catalog));
        JdbcDataSource ref = reference;
        for (String sql : List.of("SELECT COUNT(*) FROM sm_round", "SELECT COUNT(*) FROM sm_item", "SELECT COUNT(*) FROM sm_indexed",
                "SELECT COUNT(*) FROM sm_member", "SELECT kind || ':' || COUNT(*) || ':' || SUM(bucket) FROM sm_rev_band GROUP BY kind ORDER BY kind",
                "SELECT COUNT(*) FROM sm_rev_typical", "SELECT COUNT(*) || ':' || SUM(n) FROM sm_rev_passage")) {
            assertThat(new JdbcTemplate(ds).queryForList(sql, String.class)).as(sql).isEqualTo(new JdbcTemplate(ref).queryForList(sql, String.class));
        }
    }
}
