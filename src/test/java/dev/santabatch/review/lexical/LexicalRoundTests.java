package dev.santabatch.review.lexical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.santabatch.config.LexicalThresholds;
import dev.santabatch.review.offline.SnapshotItem;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Preparing the lexical index round after round: a second prepare of a round (the batch-fix step after
 * the review step) rewrites nothing and answers exactly as the first; a later round sketches only the
 * revisions changed since (unchanged revisions' buckets come from their stored signatures). A tiny
 * bucket cap forces dense buckets, so their restoring from the store is covered too.
 */
class LexicalRoundTests {

    private static final int TINY_CAP = 2;

    @Test
    void aSecondPrepareOfTheRoundRewritesNothingAndAnswersTheSame() throws Exception {
        DataSource ds = LexicalHarness.h2();
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        CsvSnapshot round1 = CsvSnapshot.products(LexicalHarness.SAMPLE, 5);
        LexicalIndex first = new LexicalIndex(ds, LexicalThresholds.defaults(), LexicalIndex.DEFAULT_PHRASE_FIELDS, TINY_CAP);
        first.prepare(round1);
        Map<String, List<NearDuplicate>> before = answers(first, round1);
        long dense = jdbc.queryForObject("SELECT COUNT(*) FROM lx_dense WHERE run_pk = 5 AND round = 1", Long.class);
        assertTrue(dense > 0, "the tiny cap makes dense buckets");
        // a sentinel row a rebuild of the round would delete
        jdbc.update("INSERT INTO lx_round (run_pk, round, item_id, rev) VALUES (5, 1, 'sentinel', 0)");

        LexicalIndex second = new LexicalIndex(ds, LexicalThresholds.defaults(), LexicalIndex.DEFAULT_PHRASE_FIELDS, TINY_CAP);
        second.prepare(round1);
        assertEquals(1, jdbc.queryForObject("SELECT COUNT(*) FROM lx_round WHERE run_pk = 5 AND round = 1 AND item_id = 'sentinel'", Long.class));
        assertEquals(dense, jdbc.queryForObject("SELECT COUNT(*) FROM lx_dense WHERE run_pk = 5 AND round = 1", Long.class));
        assertEquals(before, answers(second, round1));
    }

    @Test
    void aLaterRoundSketchesOnlyChangedRevisions() throws Exception {
        DataSource ds = LexicalHarness.h2();
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        CsvSnapshot round1 = CsvSnapshot.products(LexicalHarness.SAMPLE, 6);
        LexicalIndex index = new LexicalIndex(ds, LexicalThresholds.defaults(), LexicalIndex.DEFAULT_PHRASE_FIELDS, TINY_CAP);
        index.prepare(round1);
        long sketches = jdbc.queryForObject("SELECT COUNT(*) FROM lx_sketch WHERE run_pk = 6", Long.class);
        assertEquals(round1.size(), sketches);
        List<SnapshotItem> items = round1.items();
        Map<String, String> revised = new LinkedHashMap<>();
        // item 1 becomes a copy of item 0 (the first ids: in every dense bucket's kept members)
        revised.put(items.get(1).id(), items.get(0).content());
        revised.put(items.get(5).id(), items.get(5).content() + " It ships in a recycled cardboard box.");
        CsvSnapshot round2 = round1.nextRound(revised);
        index.prepare(round2);
        assertEquals(sketches + revised.size(), jdbc.queryForObject("SELECT COUNT(*) FROM lx_sketch WHERE run_pk = 6", Long.class));
        assertTrue(index.nearDuplicates(items.get(1).id(), items.get(0).content()).stream().anyMatch(d -> d.itemId().equals(items.get(0).id())));
        // the round's dense buckets and answers are those a prepare from scratch of the same round gives
        Map<String, List<NearDuplicate>> incremental = answers(index, round2);
        jdbc.update("DELETE FROM lx_prepared WHERE run_pk = 6 AND round = 2");
        jdbc.update("DELETE FROM lx_sketch WHERE run_pk = 6");
        jdbc.update("DELETE FROM lx_band WHERE run_pk = 6");
        LexicalIndex scratch = new LexicalIndex(ds, LexicalThresholds.defaults(), LexicalIndex.DEFAULT_PHRASE_FIELDS, TINY_CAP);
        scratch.prepare(round2);
        assertEquals(round2.size(), jdbc.queryForObject("SELECT COUNT(*) FROM lx_sketch WHERE run_pk = 6", Long.class));
        assertEquals(incremental, answers(scratch, round2));
    }

    private static Map<String, List<NearDuplicate>> answers(LexicalIndex index, CsvSnapshot snapshot) {
        Map<String, List<NearDuplicate>> out = new LinkedHashMap<>();
        snapshot.forEach(it -> out.put(it.id(), index.nearDuplicates(it.id(), it.content())));
        return out;
    }
}
