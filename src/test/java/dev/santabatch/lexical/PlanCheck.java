package dev.santabatch.lexical;
import java.nio.file.Path;
import org.springframework.jdbc.core.JdbcTemplate;
public class PlanCheck {
    public static void main(String[] a) throws Exception {
        var ds = LexicalHarness.h2();
        CsvSnapshot snap = CsvSnapshot.products(Path.of("sample-data/products.csv"), 1);
        LexicalIndex idx = new LexicalIndex(ds, LexicalThresholds.defaults());
        long t0 = System.nanoTime();
        idx.prepare(snap);
        long t1 = System.nanoTime();
        int n = 0;
        for (var it : snap.items()) { n += idx.nearDuplicates(it.id(), it.content()).size(); }
        long t2 = System.nanoTime();
        System.out.printf("prepare %d ms, queries %d ms, found %d, cands %d%n", (t1-t0)/1000000, (t2-t1)/1000000, n, idx.candidateComparisons());
        var jdbc = new JdbcTemplate(ds);
        System.out.println(jdbc.queryForList("EXPLAIN SELECT DISTINCT b.item_id FROM lx_band b JOIN lx_round r ON r.run_pk = b.run_pk AND r.round = 1 AND r.item_id = b.item_id AND r.rev = b.rev WHERE b.run_pk = 1 AND b.bucket IN (1,2,3) AND b.item_id <> 'x'"));
        t1 = System.nanoTime();
        LexicalReviewer rv = new LexicalReviewer("B", LexicalHarness.JUDGED, idx);
        for (var it : snap.items()) { rv.review(LexicalHarness.request(it)); }
        System.out.printf("reviews %d ms%n", (System.nanoTime()-t1)/1000000);
    }
}
