package dev.santabatch.review.lexical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.santabatch.config.LexicalThresholds;
import dev.santabatch.review.offline.MemorySnapshot;
import dev.santabatch.review.offline.StoppingSnapshot;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.batch.core.job.JobInterruptedException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A stop requested while the lexical index is prepared (the offline job's round 1 sketches the whole
 * catalog) ends the preparation within one batch of {@value #BATCH} items, in each of its passes over
 * the catalog, as a stop (its cause a {@link JobInterruptedException}, so the step ends STOPPED); the
 * batches stored are kept, and the next prepare completes the round with the same index as an
 * uninterrupted prepare.
 */
class LexicalPrepareStopTests {

    /** The prepare's batch (its chunk of items stored in one transaction). */
    static final int BATCH = 500;

    static MemorySnapshot catalog;
    /** The answers of an uninterrupted prepare. */
    static Map<String, List<NearDuplicate>> reference;

    @BeforeAll
    static void generate() throws Exception {
        StringWriter csv = new StringWriter();
        SampleCatalogGenerator.write(11L, 1_100, SampleCatalogGenerator.Vocabulary.SAMPLE, csv, new StringWriter());
        catalog = new MemorySnapshot(7, 1, MemorySnapshot.items(MemorySnapshot.records(new StringReader(csv.toString())), "id",
                "description", MemorySnapshot.PRODUCT_SOURCE));
        LexicalIndex uninterrupted = new LexicalIndex(LexicalHarness.h2(), LexicalThresholds.defaults());
        uninterrupted.prepare(catalog);
        reference = answers(uninterrupted);
    }

    @ParameterizedTest(name = "stop set after the first batch of pass {0} ({1})")
    @CsvSource({"1, counting shingle frequencies", "2, building the stop-shingle list", "3, sketching and storing"})
    void aStopAfterTheFirstBatchEndsThePrepareWithinOneBatch(int pass, String what) {
        // given a catalog of 1,100 items whose stop flag is set by a callback when the first item
        // after the first batch of the pass is handed out
        DataSource ds = LexicalHarness.h2();
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        StoppingSnapshot stopping = StoppingSnapshot.atItem(catalog, pass, i -> i == BATCH + 1);

        // when the index is prepared
        LexicalIndex index = new LexicalIndex(ds, LexicalThresholds.defaults());

        // then it stops within one batch after the flag, as a stop, and the round is not marked prepared
        assertThatThrownBy(() -> index.prepare(stopping))
                .hasMessageContaining("stop requested")
                .hasCauseInstanceOf(JobInterruptedException.class);
        assertThat(stopping.stopped()).isTrue();
        assertThat(stopping.itemsAfterStop()).as("items handed out after the stop (%s)", what).isBetween(1L, (long) BATCH);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM lx_prepared", Long.class)).isZero();
        if (pass == 3) {
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM lx_round WHERE round = 1", Long.class))
                    .as("the first batch is kept").isEqualTo(BATCH);
        }

        // and a restart's prepare completes the round with the index an uninterrupted prepare builds
        LexicalIndex resumed = new LexicalIndex(ds, LexicalThresholds.defaults());
        resumed.prepare(StoppingSnapshot.manual(catalog));
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM lx_round WHERE round = 1", Long.class)).isEqualTo(catalog.size());
        assertThat(answers(resumed)).isEqualTo(reference);
    }

    private static Map<String, List<NearDuplicate>> answers(LexicalIndex index) {
        Map<String, List<NearDuplicate>> out = new LinkedHashMap<>();
        catalog.items().stream().limit(200).forEach(it -> out.put(it.id(), index.nearDuplicates(it.id(), it.content())));
        return out;
    }
}
