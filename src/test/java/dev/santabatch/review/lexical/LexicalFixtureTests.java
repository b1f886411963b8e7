package dev.santabatch.review.lexical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.santabatch.config.LexicalThresholds;
import dev.santabatch.review.Review;
import dev.santabatch.review.Verdict;
import dev.santabatch.text.Shingles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;

/**
 * The hand-written fixture set ({@code fixtures/offline-cases.csv}, shared with the semantic
 * reviewer): cases the generator does not produce, with objective difficulty checked here.
 */
class LexicalFixtureTests {

    static final Path FIXTURES = Path.of("src/test/resources/fixtures/offline-cases.csv");

    @Test
    void fixtureSetHasTheRequiredCasesWithObjectiveDifficulty() throws Exception {
        List<CSVRecord> rows = CsvSnapshot.records(FIXTURES);
        Map<String, Integer> kinds = new HashMap<>();
        Map<String, CSVRecord> byId = new HashMap<>();
        for (CSVRecord r : rows) {
            kinds.merge(r.get("kind"), 1, Integer::sum);
            byId.put(r.get("item_id"), r);
        }
        assertTrue(kinds.get("copy") >= 20, "10 copy pairs");
        assertTrue(kinds.get("paraphrase") >= 20, "10 paraphrase pairs");
        assertTrue(kinds.get("drift-named") >= 10);
        assertTrue(kinds.get("drift-unnamed") >= 10);
        assertTrue(kinds.get("competitor-clean") >= 10);
        for (CSVRecord r : rows) {
            String other = r.get("other_item_id");
            if (!other.isEmpty()) {
                assertTrue(byId.containsKey(other), r.get("case_id") + " refers to a missing item " + other);
            }
            switch (r.get("kind")) {
                case "paraphrase" -> {
                    double j = Shingles.jaccard(Shingles.of(r.get("content")), Shingles.of(byId.get(other).get("content")));
                    assertTrue(j <= 0.2, r.get("case_id") + " paraphrase Jaccard " + j);
                }
                case "drift-unnamed" -> {
                    Set<String> others = new HashSet<>();
                    for (CSVRecord o : rows) {
                        if (o != r) {
                            others.addAll(Shingles.words(o.get("name") + " " + o.get("brand")));
                        }
                    }
                    Set<String> own = new HashSet<>(Shingles.words(r.get("name") + " " + r.get("brand")));
                    List<String> shared = Shingles.words(r.get("content")).stream().filter(w -> others.contains(w) && !own.contains(w)).toList();
                    assertEquals(List.of(), shared, r.get("case_id") + " shares tokens with other items' names or brands");
                }
                case "drift-named", "competitor-clean" -> {
                    CSVRecord o = byId.get(other);
                    assertTrue(r.get("content").contains(o.get("name")) && r.get("content").contains(o.get("brand")),
                            r.get("case_id") + " names " + o.get("name") + " and " + o.get("brand"));
                }
                default -> { }
            }
        }
    }

    @Test
    void lexicalFloorsOnFixtures() throws Exception {
        CsvSnapshot snapshot = CsvSnapshot.fixtures(FIXTURES, 7);
        LexicalIndex index = new LexicalIndex(LexicalHarness.h2(), LexicalThresholds.defaults());
        index.prepare(snapshot);
        LexicalReviewer reviewer = new LexicalReviewer("B", LexicalHarness.JUDGED, index);
        Map<String, Review> reviews = new HashMap<>();
        LexicalHarness.Scores s = LexicalHarness.score("fixtures", snapshot, reviewer, LexicalHarness.fixtureTruth(FIXTURES), reviews);
        System.out.println(s.line());
        assertTrue(s.recall() >= 0.85, s.line());
        assertTrue(s.precision() >= 0.80, s.line());
        List<String> heldCompetitors = new ArrayList<>();
        for (CSVRecord r : CsvSnapshot.records(FIXTURES)) {
            Review review = reviews.get(r.get("item_id"));
            if (r.get("expected").equals("pass") && review.verdict() == Verdict.FAIL) {
                heldCompetitors.add(r.get("case_id") + " " + review.criticalIssues());
            }
        }
        assertEquals(List.of(), heldCompetitors, "clean texts (competitor mentions included) must pass");
    }
}
