package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.santabatch.eval.PlantedDefect;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RealisticJudgesTests {

    static final String B = RealisticJudges.REVIEWER_B;
    static final String C = RealisticJudges.REVIEWER_C;
    static final List<String> CRITERIA = List.of("factual-accuracy", "original", "disclaimer", "on-specification");
    static final Map<String, String> CRITERION_BY_KIND = Map.of("wrong-number", "factual-accuracy", "boilerplate", "original",
            "missing-disclaimer", "disclaimer", "drift-text", "on-specification", "drift-sentence", "on-specification");
    static final Map<String, String> SIGNALS = Map.of("factual-accuracy", "A number that contradicts the source.",
            "original", "The text is a copy of another item's text.", "disclaimer", "A supplement without the disclaimer.",
            "on-specification", "A sentence about another product.");
    static final String DISCLAIMER = "These statements have not been evaluated by the Food and Drug Administration.";

    static final String WRONG = "The Zen Pro from Acme is a great pick. Acme backs it with a 5-year warranty. It is small and light.";
    static final String CLEAN = "The Oak Mill from Birch grinds every bean evenly. Its burrs stay sharp for years. It is simple to clean.";
    static final String BOILER = "Meet the Tide Cup from Wave. We ship fast and every order is packed with care. Our team answers each question.";
    static final String SUPPLEMENT = "Daily Greens from Leaf support a balanced diet. Take two scoops each morning.";
    static final String DRIFTED = "The tides of the Atlantic rise twice a day. Sailors read them from charts.";

    static final PlantedDefect WRONG_NUMBER = new PlantedDefect("P1", "wrong-number", "5-year", "3-year", "");
    static final PlantedDefect BOILERPLATE =
            new PlantedDefect("P3", "boilerplate", "We ship fast and every order is packed with care. Our team answers each question.", "", "");
    static final PlantedDefect MISSING = new PlantedDefect("P4", "missing-disclaimer", "", "", DISCLAIMER);
    static final PlantedDefect DRIFT = new PlantedDefect("P5", "drift-text", DRIFTED, "", "");
    static final String WITH_PRICE = "The Oak Mill from Birch is sturdy. The harbour sells charts at 12.50 each. It is simple to clean.";
    static final PlantedDefect DRIFT_SENTENCE = new PlantedDefect("P6", "drift-sentence", "The harbour sells charts", "", "");

    static Map<String, String> source(String id) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("name", "Item " + id);
        s.put("brand", "Brand " + id);
        s.put("category", id.equals("P4") ? "supplements" : "kitchen");
        s.put("warranty_years", "3");
        return s;
    }

    static RealisticJudges judges(RealisticJudges.Settings settings) {
        List<Map<String, String>> rows = new ArrayList<>();
        for (String id : List.of("P1", "P2", "P3", "P4", "P5", "P6")) {
            Map<String, String> row = new LinkedHashMap<>(source(id));
            row.put("id", id);
            row.put("description", "unused");
            rows.add(row);
        }
        return new RealisticJudges(List.of(WRONG_NUMBER, BOILERPLATE, MISSING, DRIFT, DRIFT_SENTENCE), CRITERION_BY_KIND, rows, "id", settings);
    }

    static RealisticJudges judges() {
        return judges(RealisticJudges.Settings.defaults(7));
    }

    @Test
    void eachReviewerMissesItsShareOfVisibleDefectsAndAFreshReviewOfTheSameTextDrawsAgain() {
        RealisticJudges judges = judges();
        int n = 4000;
        for (String model : List.of(B, C)) {
            int noticed = 0;
            for (int i = 0; i < n; i++) {
                // the same text every time: only the n-th review differs
                if (judges.review(model, WRONG, source("P1"), CRITERIA, SIGNALS).containsKey("factual-accuracy")) {
                    noticed++;
                }
            }
            double miss = 1 - noticed / (double) n;
            assertThat(miss).as(model).isCloseTo(judges.settings().miss(model), within(0.03));
        }
    }

    @Test
    void aReviewThatNoticesNothingFailsTwoPercentOfTimesQuotingARealSentence() {
        RealisticJudges judges = judges();
        int n = 5000;
        int failed = 0;
        Set<String> criteria = new HashSet<>();
        for (int i = 0; i < n; i++) {
            String text = CLEAN + " It sells for 49.99 dollars. Batch " + i + " is ready.";
            Map<String, List<String>> issues = judges.review(B, text, source("P2"), CRITERIA, SIGNALS);
            if (!issues.isEmpty()) {
                failed++;
                criteria.addAll(issues.keySet());
                String issue = issues.values().iterator().next().get(0);
                String quoted = issue.substring(issue.indexOf('"') + 1, issue.lastIndexOf('"'));
                // a whole sentence of the text (a price's full stop ends none)
                assertThat(text).contains(quoted);
                assertThat(quoted).matches("[A-Z][^.]*(\\d\\.\\d+[^.]*)?[.!?]");
            }
        }
        assertThat(failed / (double) n).isCloseTo(0.02, within(0.01));
        assertThat(criteria).hasSizeGreaterThan(1);
    }

    @Test
    void theSameRequestsGetTheSameAnswersWhateverElseIsAskedBetween() {
        RealisticJudges one = judges();
        RealisticJudges two = judges();
        for (int i = 0; i < 200; i++) {
            two.review(C, CLEAN, source("P2"), CRITERIA, SIGNALS);
            assertThat(two.review(B, WRONG, source("P1"), CRITERIA, SIGNALS))
                    .isEqualTo(one.review(B, WRONG, source("P1"), CRITERIA, SIGNALS));
            assertThat(two.fix("fixer", WRONG, source("P1"), List.of("factual-accuracy: wrong")))
                    .isEqualTo(one.fix("fixer", WRONG, source("P1"), List.of("factual-accuracy: wrong")));
        }
        RealisticJudges otherSeed = judges(RealisticJudges.Settings.defaults(8));
        List<Boolean> a = new ArrayList<>();
        List<Boolean> b = new ArrayList<>();
        RealisticJudges fresh = judges();
        for (int i = 0; i < 50; i++) {
            a.add(fresh.review(B, WRONG, source("P1"), CRITERIA, SIGNALS).isEmpty());
            b.add(otherSeed.review(B, WRONG, source("P1"), CRITERIA, SIGNALS).isEmpty());
        }
        assertThat(a).isNotEqualTo(b);
    }

    @Test
    void issuesAreInTheHouseShapeAndSomeQuoteTheEvidence() {
        RealisticJudges judges = judges();
        Set<Boolean> quoting = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            for (String issue : judges.review(B, WRONG, source("P1"), CRITERIA, SIGNALS).getOrDefault("factual-accuracy", List.of())) {
                quoting.add(issue.contains("\"5-year\""));
            }
        }
        assertThat(quoting).containsExactlyInAnyOrder(true, false);
        // a defect of a criterion the request does not ask for is not reported
        assertThat(judges.review(B, WRONG, source("P1"), List.of("original"), SIGNALS)).doesNotContainKey("factual-accuracy");
    }

    @Test
    void theFixerCorrectsAFlaggedNumberInDigitsWordsOrARewrittenSentence() {
        RealisticJudges judges = judges();
        Set<String> styles = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            String fixed = judges.fix("fixer", WRONG, source("P1"), List.of("factual-accuracy: \"5-year\" contradicts the source facts"));
            assertThat(DefectText.carries(fixed, WRONG_NUMBER)).as(fixed).isFalse();
            assertThat(fixed).startsWith("The Zen Pro from Acme is a great pick.").endsWith("It is small and light.");
            styles.add(fixed.contains("a 3-year warranty. ") ? "digits" : fixed.contains("a three-year warranty. ") ? "words"
                    : fixed.contains("3-year warranty, ") ? "rewritten" : fixed);
        }
        assertThat(styles).containsExactlyInAnyOrder("digits", "words", "rewritten");
    }

    @Test
    void theFixerRemovesAPassageAppendsAMissingPhraseAndWritesAnEmptiedTextAnew() {
        RealisticJudges judges = judges();

        String unboiled = judges.fix("fixer", BOILER, source("P3"), List.of("original: generic boilerplate"));
        String disclaimed = judges.fix("fixer", SUPPLEMENT, source("P4"), List.of("disclaimer: the required disclaimer is missing"));
        String rewritten = judges.fix("fixer", DRIFTED, source("P5"), List.of("on-specification: the whole text is unrelated"));

        String undrifted = judges.fix("fixer", WITH_PRICE, source("P6"), List.of("on-specification: a sentence is off topic"));

        assertThat(unboiled).isEqualTo("Meet the Tide Cup from Wave.");
        // the whole sentence goes, though a price's full stop stands in it
        assertThat(undrifted).isEqualTo("The Oak Mill from Birch is sturdy. It is simple to clean.");
        assertThat(disclaimed).isEqualTo(SUPPLEMENT + " " + DISCLAIMER);
        assertThat(DefectText.carries(rewritten, DRIFT)).isFalse();
        assertThat(rewritten).contains("Item P5", "Brand P5");
    }

    @Test
    void withNothingRealFlaggedTheFixerRewordsAWordOrAPunctuationMarkAndTheDefectsStayAQuotedSentenceByAWord() {
        RealisticJudges judges = judges();
        Set<String> kinds = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            // a false fail on a clean item, and a defective item flagged on a criterion it does not fail
            String clean = judges.fix("fixer", CLEAN, source("P2"), List.of("original: possibly a copy: \"It is simple to clean.\""));
            String boiler = judges.fix("fixer", BOILER, source("P3"), List.of("factual-accuracy: a number contradicts the source"));

            assertThat(clean).isNotEqualTo(CLEAN);
            assertThat(boiler).isNotEqualTo(BOILER);
            assertThat(DefectText.carries(boiler, BOILERPLATE)).as(boiler).isTrue();
            // a quoted sentence is reworded by a word, never by its punctuation alone
            assertThat(smallEdit(CLEAN, clean)).isEqualTo("word");
            kinds.add(smallEdit(BOILER, boiler));
            // the quoted sentence is the one reworded
            assertThat(clean).doesNotContain("It is simple to clean.");
        }
        // an unquoted flag may be answered by punctuation alone
        assertThat(kinds).contains("punctuation").isSubsetOf("word", "punctuation");
    }

    @Test
    void theMatcherMissesTenPercentAndMatchesTwoPercentOfTextsWithoutThePattern() {
        RealisticJudges judges = judges();
        int n = 5000;
        int shown = 0;
        int falseMatches = 0;
        for (int i = 0; i < n; i++) {
            String corrected = judges.match("matcher", WRONG, source("P1"), "factual-accuracy");
            if (corrected != null) {
                shown++;
                assertThat(DefectText.carries(corrected, WRONG_NUMBER)).isFalse();
            }
            String wrongCriterion = judges.match("matcher", WRONG, source("P1"), "original");
            String clean = judges.match("matcher", CLEAN, source("P2"), "factual-accuracy");
            falseMatches += (wrongCriterion != null ? 1 : 0) + (clean != null ? 1 : 0);
            if (wrongCriterion != null) {
                assertThat(DefectText.carries(wrongCriterion, WRONG_NUMBER)).isTrue();
            }
        }
        assertThat(1 - shown / (double) n).isCloseTo(0.10, within(0.02));
        assertThat(falseMatches / (2.0 * n)).isCloseTo(0.02, within(0.008));
    }

    /** "word" when one word changed, "punctuation" when only punctuation did; fails otherwise. */
    private static String smallEdit(String before, String after) {
        if (before.replaceAll("\\p{Punct}", "").equals(after.replaceAll("\\p{Punct}", ""))) {
            return "punctuation";
        }
        String[] a = before.split(" ");
        String[] b = after.split(" ");
        if (b.length == a.length + 1) {
            // one word inserted
            assertThat(after.replaceFirst(" also\\b", "")).as(after).isEqualTo(before);
            return "word";
        }
        assertThat(b).as(after).hasSameSizeAs(a);
        int changed = 0;
        for (int i = 0; i < a.length; i++) {
            changed += a[i].equals(b[i]) ? 0 : 1;
        }
        assertThat(changed).as(after).isEqualTo(1);
        return "word";
    }
}
