package dev.santabatch.review.lexical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.santabatch.config.LexicalThresholds;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, items 4 and 5, on a small templated catalog of listings: 60 listings written from one sentence
 * template, differing in their facts (name, city, region, numbers), a third of them with a house-style line;
 * three of them share a fact-free passage (boilerplate); one states another listing's city.
 */
class LexicalOwnFactsTests {

    static final List<String[]> CITIES = List.of(new String[] {"Port Avren", "Saltreach Coast"}, new String[] {"Kellsby", "Saltreach Coast"},
            new String[] {"Dunhallow", "Varrow Valley"}, new String[] {"Quenby", "Eastmere Lowlands"}, new String[] {"Rookhope", "Hollin Moors"});
    static final List<String> STEMS = List.of("Lantern Lanes", "Harbour Lights", "Market Bites", "Canal Spin", "Tapestry Hall", "Heather Ridge");
    static final List<String> CATEGORIES = List.of("guided walk", "boat trip", "food tour");
    static final String HOUSE = "Your ticket arrives by email, so there is nothing to print.";
    static final String PASSAGE = "Our friendly team has welcomed travellers from every corner of the globe. We look forward to showing you"
            + " around and sharing our favourite stories.";

    static CsvSnapshot snapshot;
    static LexicalReviewer reviewer;

    @BeforeAll
    static void prepare() {
        Map<String, SnapshotItem> items = new LinkedHashMap<>();
        for (int i = 0; i < 60; i++) {
            String[] city = CITIES.get(i % CITIES.size());
            String name = STEMS.get(i % STEMS.size()) + " " + (i % 2 == 0 ? "Walk" : "Tour");
            String category = CATEGORIES.get(i % CATEGORIES.size());
            int km = 2 + i % 9;
            int hours = 1 + i % 4;
            int group = 8 + i % 11;
            String text = name + " is a " + category + " in " + city[0] + ", in the heart of " + city[1] + ". The meeting point lies " + km
                    + " km from the centre of " + city[0] + ". The outing lasts " + hours + " hours and is run for up to " + group
                    + " guests. Past guests rate it " + (3 + i % 3) + " stars, and a ticket costs €" + (20 + i) + ".00 per person.";
            if (i % 3 == 0) {
                text += " " + HOUSE;
            }
            if (i == 10 || i == 21 || i == 32) {
                text += " " + PASSAGE;
            }
            if (i == 40) {
                text += " Many travellers combine this with a weekend in Dunhallow.";
            }
            if (i == 41) {
                text += " It is the kind of boat trip that families enjoy.";
            }
            Map<String, String> source = new LinkedHashMap<>();
            source.put("name", name);
            source.put("city", city[0]);
            source.put("region", city[1]);
            source.put("category", category);
            source.put("distance_km", Integer.toString(km));
            String id = String.format("L%03d", i);
            items.put(id, new SnapshotItem(id, 1, text, source, category));
        }
        snapshot = new CsvSnapshot(31, 1, items);
        LexicalIndex index = new LexicalIndex(LexicalHarness.h2(), LexicalThresholds.defaults());
        index.prepare(snapshot);
        reviewer = new LexicalReviewer("B", LexicalHarness.JUDGED, index);
    }

    private static Review review(String id) {
        return LexicalHarness.review(reviewer, LexicalHarness.request(snapshot.get(id).orElseThrow()));
    }

    @Test
    void listingsWrittenFromOneTemplateAboutTheirOwnFactsAreOriginal() {
        for (SnapshotItem it : snapshot.items()) {
            if (List.of("L010", "L021", "L032").contains(it.id())) {
                continue;
            }
            Review r = review(it.id());
            assertEquals(CheckResult.PASS, r.check("original").orElseThrow().result(), it.id() + " " + r.criticalIssues());
        }
    }

    @Test
    void aFactFreePassageSharedByAFewListingsIsBoilerplate() {
        for (String id : List.of("L010", "L021", "L032")) {
            Review r = review(id);
            assertEquals(CheckResult.FAIL, r.check("original").orElseThrow().result(), id);
            assertTrue(r.criticalIssues().get(0).startsWith("original: near-duplicate of "), r.criticalIssues().toString());
        }
    }

    @Test
    void aSentenceStatingAnotherListingsCityIsAboutAnotherItem() {
        Review r = review("L040");
        assertEquals(CheckResult.FAIL, r.check("on-specification").orElseThrow().result());
        assertTrue(r.criticalIssues().get(0).startsWith("on-specification: sentence 5 names \"Dunhallow\" (city) of another item"),
                r.criticalIssues().toString());
    }

    @Test
    void ownCityAndRegionAndAnotherListingsLowerCaseCategoryAreNotDrift() {
        // every listing states its own city and region; L041 (a guided walk... ) names "boat trip", another listing's
        // category, which is an ordinary phrase, not a name: not matched
        for (SnapshotItem it : snapshot.items()) {
            if (it.id().equals("L040")) {
                continue;
            }
            Review r = review(it.id());
            assertEquals(CheckResult.PASS, r.check("on-specification").orElseThrow().result(), it.id() + " " + r.criticalIssues());
        }
    }

    @Test
    void ownFactsAreMaskedAsWholeWordsLongestFirstAndNumbersAsNumbers() {
        Map<String, String> source = new LinkedHashMap<>();
        source.put("city", "Port Avren");
        source.put("name", "Port Avren Harbour Cruise");
        source.put("price", "45.00");
        assertEquals(List.of("#name", "leaves", "#city", "at", "#n", "for", "#n", "#n", "passport", "avrens"),
                Tokens.masked("Port Avren Harbour Cruise leaves Port Avren at 9 for €45.00. Passport avrens", source));
        assertEquals(List.of("groups", "of", "#n", "for", "#n", "and", "a", "#n", "hours"),
                Tokens.masked("Groups of twelve for two and a half hours", Map.of()));
    }
}
