package dev.santabatch.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.santabatch.cli.Cli;
import dev.santabatch.export.RunReport;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default job's rubric, rules and offline panel on a held-out catalog, judged against the
 * generator's ground truth: the generator's {@code FRESH} vocabulary pool (templates, names, brands,
 * category vocabulary, drift topics and boilerplate no threshold was derived or cross-checked on; the
 * tuning tools use the sample and the {@code HELD_OUT} pool).
 */
class HeldOutFunctionalTests {

    /** The generator seed of the held-out catalog (any seed: the pool is what no one tuned on). */
    static final long HELD_OUT_SEED = 2027L;
    static final Set<String> RULE_KINDS = Set.of("forbidden-term", "missing-disclaimer", "wrong-number");
    static final Set<String> REVIEWER_KINDS = Set.of("drift-sentence", "drift-text", "boilerplate");

    @TempDir
    static Path dir;

    static Map<String, Object> report;
    static Map<String, Object> truth;
    static String output;

    @BeforeAll
    static void runTheDefaultJobOnAHeldOutCatalog() throws Exception {
        Path csv = dir.resolve("held-out.csv");
        Path truthFile = dir.resolve("held-out.truth.csv");
        SampleCatalogGenerator.write(HELD_OUT_SEED, 1200, SampleCatalogGenerator.Vocabulary.FRESH, csv, truthFile);
        String job = Files.readString(Path.of("jobs/product-descriptions.yml"))
                .replace("path: ../sample-data/products.csv", "path: " + csv)
                .replace("ground-truth: ../sample-data/products.truth.csv", "ground-truth: " + truthFile);
        Path jobFile = dir.resolve("held-out.yml");
        Files.writeString(jobFile, job);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Cli.run(new String[] {"run", jobFile.toString(), "--out", dir.resolve("out").toString(), "--run-id", "h1"},
                // canaries off: this test's subject is the loop's escapes against the ground truth. With
                // them on, the default offline panel does not fit this pool (it caught 2 of 6 canaries in
                // round 1, B none: docs/benchmarks.md, "Canaries") and the run ends panel-does-not-fit
                Map.of("spring.datasource.url", url(), dev.santabatch.batch.SantaJobConfiguration.CANARIES_PROPERTY, "false"),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        output = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isZero();
        report = RunReport.read(dir.resolve("out/product-descriptions/h1/report.json"));
        @SuppressWarnings("unchecked")
        Map<String, Object> t = (Map<String, Object>) report.get("escape_rates_against_ground_truth");
        truth = t;
        System.out.println("held-out (fresh pool, seed " + HELD_OUT_SEED + "): escape_rates_against_ground_truth " + truth);
    }

    static String url() {
        return "jdbc:h2:file:" + dir.resolve("db/santa") + ";AUTO_SERVER=TRUE;WRITE_DELAY=0";
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> kind(String k) {
        return (Map<String, Object>) ((Map<String, Object>) truth.get("by_kind")).get(k);
    }

    @Test
    void noPlantedRulesDefectShips() {
        for (String k : RULE_KINDS) {
            assertThat(((Number) kind(k).get("escaped")).longValue()).as(k).isZero();
        }
    }

    @Test
    void atLeast90PercentOfTheReviewersKindsAreFixedOrHeld() {
        for (String k : REVIEWER_KINDS) {
            assertThat(((Number) kind(k).get("fixed_or_held_share")).doubleValue()).as(k).isGreaterThanOrEqualTo(0.90);
        }
    }

    @Test
    void atMost3PercentOfCleanItemsAreHeldAndShippedCleanItemsAreUnchanged() {
        assertThat(((Number) truth.get("false_hold_rate")).doubleValue()).isLessThanOrEqualTo(0.03);
        assertThat(((Number) truth.get("clean_items_changed")).longValue()).isZero();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theBoundMatchesAHandComputationAndHoldsAmongTheLastRoundsEligibleItems() throws Exception {
        Map<String, Object> bound = (Map<String, Object>) ((Map<String, Object>) report.get("run")).get("bound");
        assertThat(bound.get("stated")).isEqualTo(true);
        int n = ((Number) bound.get("sample_size")).intValue();
        long bigN = ((Number) bound.get("eligible")).longValue();
        int k = ((Number) bound.get("rounds_looked_at")).intValue();
        double p = 1 - Math.pow(0.05 / k, 1.0 / n);
        assertThat(((Number) bound.get("defect_rate_below")).doubleValue()).isCloseTo(p, within(1e-9));
        assertThat((String) bound.get("sentence"))
                .contains("Among the " + bigN + " items eligible in the last round, for defects these reviewers can detect")
                .contains(String.format("%.2f %%", p * 100));

        // the last round's eligible items: its sample plus everything still eligible after it
        int last = k;
        Set<String> eligible = new HashSet<>();
        try (Connection c = DriverManager.getConnection(url(), "sa", "")) {
            try (ResultSet rs = c.createStatement().executeQuery("SELECT item_id FROM sb_sample WHERE round_no = " + last)) {
                while (rs.next()) {
                    eligible.add(rs.getString(1));
                }
            }
            try (ResultSet rs = c.createStatement().executeQuery("SELECT item_id FROM sb_item WHERE state = 'ACTIVE'")) {
                while (rs.next()) {
                    eligible.add(rs.getString(1));
                }
            }
        }
        assertThat((long) eligible.size()).isEqualTo(bigN);
        Map<String, String> shipped = new HashMap<>();
        for (CSVRecord r : records(dir.resolve("out/product-descriptions/h1/catalog.csv"))) {
            shipped.put(r.get("id"), r.get("description"));
        }
        Map<String, String> original = new HashMap<>();
        for (CSVRecord r : records(dir.resolve("held-out.csv"))) {
            original.put(r.get("id"), r.get("description"));
        }
        Set<String> stillDefective = new HashSet<>();
        for (CSVRecord t : records(dir.resolve("held-out.truth.csv"))) {
            String id = t.get("id");
            // still defective by the report's own test (shingle containment for planted passages), not
            // only when the passage survives verbatim: the bound check must not under-count
            if (REVIEWER_KINDS.contains(t.get("kind")) && eligible.contains(id) && shipped.containsKey(id)
                    && dev.santabatch.export.GroundTruthEscapes.present(t, original.get(id), shipped.get(id))) {
                stillDefective.add(id);
            }
        }
        double share = stillDefective.size() / (double) bigN;
        assertThat(share).as("%d of %d eligible items still carry a planted reviewer-kind defect", stillDefective.size(), bigN)
                .isLessThan(p);
    }

    @Test
    @SuppressWarnings("unchecked")
    void whatTheOfflineFixerCannotFixIsHeldWithReasonNoFixNotAsAnUnchangedFix() throws Exception {
        List<CSVRecord> held = records(dir.resolve("out/product-descriptions/h1/escalations.csv"));
        Map<String, Long> byReason = new HashMap<>();
        for (CSVRecord r : held) {
            assertThat(r.get("reason")).as("reason of %s", r.get("item_id")).isNotBlank();
            byReason.merge(r.get("reason"), 1L, Long::sum);
            if (r.get("reason").equals("NO_FIX")) {
                assertThat(r.get("last_attempt")).as("no attempted fix for %s", r.get("item_id")).isEmpty();
                if (r.get("cause").equals("batch-fix")) {
                    assertThat(r.get("open_issues")).contains("no offline fix");
                }
            }
        }
        // boilerplate and whole-text drift cannot be fixed offline: the held-out catalog has both
        assertThat(byReason.get("NO_FIX")).isPositive();
        assertThat(byReason).doesNotContainKey("FIX_UNCHANGED");
        Map<String, Object> run = (Map<String, Object>) report.get("run");
        Map<String, Object> reported = (Map<String, Object>) run.get("escalations_by_reason");
        assertThat(reported).hasSameSizeAs(byReason);
        byReason.forEach((reason, n) -> assertThat(((Number) reported.get(reason)).longValue()).as(reason).isEqualTo(n));
    }

    static List<CSVRecord> records(Path csv) throws Exception {
        try (var parser = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(Files.newBufferedReader(csv, StandardCharsets.UTF_8))) {
            return new ArrayList<>(parser.getRecords());
        }
    }
}
