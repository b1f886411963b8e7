package dev.santabatch.review.lexical;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.santabatch.config.Criterion;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.ReviewValidation;
import dev.santabatch.review.ReviewValidator;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.apache.commons.csv.CSVRecord;
import org.h2.jdbcx.JdbcDataSource;

/** Shared test support: H2 data sources, requests, validated reviews and the precision/recall count. */
final class LexicalHarness {

    static final String TASK = "Write a product description of 2 to 5 sentences for an online shop about the product in the source facts.";
    static final Criterion ON_SPEC = criterion(LexicalReviewer.ON_SPECIFICATION);
    static final Criterion ORIGINAL = criterion(LexicalReviewer.ORIGINAL);
    static final Criterion COMPLIANCE = criterion("compliance");
    static final List<Criterion> RUBRIC = List.of(COMPLIANCE, ON_SPEC, ORIGINAL);
    static final Set<String> JUDGED = Set.of(LexicalReviewer.ON_SPECIFICATION, LexicalReviewer.ORIGINAL);
    static final Path SAMPLE = Path.of("sample-data/products.csv");
    static final Path SAMPLE_TRUTH = Path.of("sample-data/products.truth.csv");
    private static final AtomicInteger DB = new AtomicInteger();

    private LexicalHarness() {}

    static Criterion criterion(String id) {
        return new Criterion(id, id, "pass", "fail", Criterion.CheckedBy.SANTA, List.of());
    }

    static DataSource h2() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:lexical" + DB.incrementAndGet() + "-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        return ds;
    }

    static ReviewRequest request(SnapshotItem item) {
        return new ReviewRequest(TASK, item.id(), item.source(), item.content(), RUBRIC);
    }

    /** Reviews and validates (ReviewValidator against the rubric and the reviewer's criteria); fails the test if invalid. */
    static Review review(LexicalReviewer reviewer, ReviewRequest request) {
        ReviewOutcome outcome = reviewer.review(request);
        ReviewOutcome.Reviewed r = assertInstanceOf(ReviewOutcome.Reviewed.class, outcome);
        ReviewValidation v = new ReviewValidator().validate(r.review(), request.criterionIds(), reviewer.criteria());
        ReviewValidation.Valid valid = assertInstanceOf(ReviewValidation.Valid.class, v, () -> "invalid review " + v + " of " + request.itemId());
        if (valid.attributed()) {
            throw new AssertionError("issues attributed by validation (not prefixed, or missing): " + valid);
        }
        return r.review();
    }

    static boolean failed(Review r, String criterion) {
        return r.check(criterion).orElseThrow().result() == dev.santabatch.review.CheckResult.FAIL;
    }

    /**
     * Writes the generator's {@code HELD_OUT}-pool catalog (seed 99, 1200 rows) into a folder: the second
     * pool the threshold sweep cross-checks on, so a tuning catalog, not a held-out one.
     */
    static Path[] heldOut(Path dir) throws IOException {
        Path csv = dir.resolve("held-out.csv");
        Path truth = dir.resolve("held-out.truth.csv");
        SampleCatalogGenerator.write(99L, 1200, true, csv, truth);
        return new Path[] {csv, truth};
    }

    /** The generator seed of the held-out floor tests (any seed: the pool is what no one tuned on). */
    static final long FRESH_SEED = 2027L;

    /**
     * Writes the held-out catalog of the floor tests (the generator's {@code FRESH} pool, seed
     * {@value #FRESH_SEED}, 1200 rows) into a folder. Never for tuning.
     */
    static Path[] fresh(Path dir) throws IOException {
        Path csv = dir.resolve("fresh.csv");
        Path truth = dir.resolve("fresh.truth.csv");
        SampleCatalogGenerator.write(FRESH_SEED, 1200, SampleCatalogGenerator.Vocabulary.FRESH, csv, truth);
        return new Path[] {csv, truth};
    }

    /**
     * Counts for one catalog. Recall over the targets (the lexical method's cases); precision over the
     * failed targets and failed clean items only: a failed item with another defect of the panel's
     * criteria (a paraphrase, unnamed drift: the semantic method's cases) is left out, counted in
     * {@code excludedFlagged}, neither credited nor charged.
     */
    record Scores(String name, int targets, int caught, int flagged, int falsePositives, int excludedFlagged, List<String> missed, List<String> falseIds) {
        double recall() {
            return targets == 0 ? 1 : (double) caught / targets;
        }

        double precision() {
            return flagged == 0 ? 1 : (double) (flagged - falsePositives) / flagged;
        }

        String line() {
            return String.format(Locale.ROOT, "lexical %-10s recall %.3f (%d/%d)  precision %.3f (%d flagged among its cases and the clean items,"
                            + " %d false positives; %d flags on the other method's cases left out)  missed %s  false %s",
                    name, recall(), caught, targets, precision(), flagged, falsePositives, excludedFlagged,
                    missed.subList(0, Math.min(10, missed.size())), falseIds.subList(0, Math.min(10, falseIds.size())));
        }
    }

    /** Expected failures per item from a generator truth file: which criterion each target must fail, and which items carry any such defect. */
    record Truth(Map<String, String> targets, Set<String> defective) {}

    static Truth generatorTruth(Path truthCsv) throws IOException {
        Map<String, String> targets = new LinkedHashMap<>();
        Set<String> defective = new HashSet<>();
        for (CSVRecord t : CsvSnapshot.records(truthCsv)) {
            String kind = t.get("kind");
            String id = t.get("id");
            switch (kind) {
                case SampleCatalogGenerator.BOILERPLATE -> {
                    defective.add(id);
                    if (!t.get("truth").equals("paraphrase")) {
                        targets.put(id, LexicalReviewer.ORIGINAL);
                    }
                }
                case SampleCatalogGenerator.DRIFT_SENTENCE, SampleCatalogGenerator.DRIFT_TEXT -> {
                    defective.add(id);
                    if (t.get("truth").startsWith("product:")) {
                        targets.putIfAbsent(id, LexicalReviewer.ON_SPECIFICATION);
                    }
                }
                default -> { }
            }
        }
        return new Truth(targets, defective);
    }

    static Truth fixtureTruth(Path csv) throws IOException {
        Map<String, String> targets = new LinkedHashMap<>();
        Set<String> defective = new HashSet<>();
        for (CSVRecord r : CsvSnapshot.records(csv)) {
            String id = r.get("item_id");
            switch (r.get("kind")) {
                case "copy" -> targets.put(id, LexicalReviewer.ORIGINAL);
                case "drift-named" -> targets.put(id, LexicalReviewer.ON_SPECIFICATION);
                default -> { }
            }
            if (r.get("expected").startsWith("fail")) {
                defective.add(id);
            }
        }
        return new Truth(targets, defective);
    }

    /**
     * Reviews every snapshot item and counts recall over the targets and precision over the failed targets
     * and failed clean items (items with no drift or boilerplate defect; the rules' defects do not count).
     */
    static Scores score(String name, CsvSnapshot snapshot, LexicalReviewer reviewer, Truth truth, Map<String, Review> out) {
        int caught = 0;
        int flagged = 0;
        int fp = 0;
        int excludedFlagged = 0;
        List<String> missed = new java.util.ArrayList<>();
        List<String> falseIds = new java.util.ArrayList<>();
        Map<String, Review> reviews = out == null ? new HashMap<>() : out;
        for (SnapshotItem item : snapshot.items()) {
            Review r = review(reviewer, request(item));
            reviews.put(item.id(), r);
            String target = truth.targets().get(item.id());
            if (target != null) {
                if (failed(r, target)) {
                    caught++;
                } else {
                    missed.add(item.id());
                }
            }
            if (r.verdict() == dev.santabatch.review.Verdict.FAIL) {
                if (target != null) {
                    flagged++;
                } else if (!truth.defective().contains(item.id())) {
                    flagged++;
                    fp++;
                    falseIds.add(item.id());
                } else {
                    excludedFlagged++; // the other method's case: neither credited nor charged
                }
            }
        }
        return new Scores(name, truth.targets().size(), caught, flagged, fp, excludedFlagged, missed, falseIds);
    }
}
