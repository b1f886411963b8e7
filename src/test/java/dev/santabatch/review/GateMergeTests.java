package dev.santabatch.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GateMergeTests {

    static final List<String> CRITERIA = List.of("accuracy", "compliance");

    private static PanelReview reviewer(String id, Verdict verdict, List<String> issues, List<String> suggestions) {
        List<Check> checks = CRITERIA.stream()
                .map(c -> new Check(c, issues.stream().anyMatch(i -> i.startsWith(c + ":")) ? CheckResult.FAIL : CheckResult.PASS, ""))
                .toList();
        Review review = new Review(verdict, checks, issues, suggestions);
        return new PanelReview(id, Set.copyOf(CRITERIA), ReviewFixtures.reviewed(review), Duration.ZERO);
    }

    @Test
    void theSameIssueFromTwoReviewersIsOneIssueFlaggedByBoth() {
        // given the same issue, differing in case, blanks and punctuation
        PanelReview b = reviewer("B", Verdict.FAIL, List.of("compliance: uses the banned term 'best-in-class'."), List.of());
        PanelReview c = reviewer("C", Verdict.FAIL, List.of("Compliance:  Uses the banned term \"best in class\""), List.of());

        // when
        GateResult result = new Gate().decide(CRITERIA, List.of(b, c));

        // then
        assertThat(result.verdict()).isEqualTo(GateVerdict.NAUGHTY);
        assertThat(result.criticalIssues()).singleElement().satisfies(issue -> {
            assertThat(issue.text()).isEqualTo("compliance: uses the banned term 'best-in-class'.");
            assertThat(issue.criterion()).isEqualTo("compliance");
            assertThat(issue.flaggedBy()).containsExactly("B", "C");
            assertThat(issue.flaggedByAll(2)).isTrue();
        });
        assertThat(result.issueTexts()).hasSize(1);
    }

    @Test
    void differentIssuesStaySeparateEachFlaggedByItsReviewer() {
        // given
        PanelReview b = reviewer("B", Verdict.FAIL, List.of("accuracy: says 3 years, source says 2"), List.of());
        PanelReview c = reviewer("C", Verdict.FAIL,
                List.of("compliance: banned term 'cheap'", "accuracy: says 3 years, source says 2"), List.of());
        PanelReview d = reviewer("D", Verdict.PASS, List.of(), List.of());

        // when
        GateResult result = new Gate().decide(CRITERIA, List.of(b, c, d));

        // then
        assertThat(result.criticalIssues()).extracting(MergedIssue::text, MergedIssue::flaggedBy).containsExactly(
                org.assertj.core.groups.Tuple.tuple("accuracy: says 3 years, source says 2", Set.of("B", "C")),
                org.assertj.core.groups.Tuple.tuple("compliance: banned term 'cheap'", Set.of("C")));
        assertThat(result.failedCriteria()).containsExactly("accuracy", "compliance");
    }

    @Test
    void suggestionsAreMergedLikewise() {
        // given
        PanelReview b = reviewer("B", Verdict.PASS, List.of(), List.of("Shorten the first sentence.", "Add a size chart"));
        PanelReview c = reviewer("C", Verdict.PASS, List.of(), List.of("shorten the first sentence"));

        // when
        GateResult result = new Gate().decide(CRITERIA, List.of(b, c));

        // then
        assertThat(result.verdict()).isEqualTo(GateVerdict.NICE);
        assertThat(result.suggestions()).extracting(MergedIssue::text, MergedIssue::flaggedBy).containsExactly(
                org.assertj.core.groups.Tuple.tuple("Shorten the first sentence.", Set.of("B", "C")),
                org.assertj.core.groups.Tuple.tuple("Add a size chart", Set.of("B")));
    }

    @Test
    void aPluggedSimilarityDecidesWhatIsTheSame() {
        // given a similarity that calls any two issues the same (an embedding model would be subtler)
        Gate gate = new Gate((x, y) -> true);
        PanelReview b = reviewer("B", Verdict.FAIL, List.of("accuracy: wrong warranty"), List.of());
        PanelReview c = reviewer("C", Verdict.FAIL, List.of("accuracy: warranty is 2 years, not 3"), List.of());

        // when
        GateResult result = gate.decide(CRITERIA, List.of(b, c));

        // then issues of one criterion merge; the first wording is kept
        assertThat(result.criticalIssues()).singleElement()
                .satisfies(i -> assertThat(i.flaggedBy()).containsExactly("B", "C"))
                .satisfies(i -> assertThat(i.text()).isEqualTo("accuracy: wrong warranty"));
    }

    @Test
    void issuesOfDifferentCriteriaNeverMerge() {
        // given
        Gate gate = new Gate((x, y) -> true);
        PanelReview b = reviewer("B", Verdict.FAIL, List.of("accuracy: x"), List.of());
        PanelReview c = reviewer("C", Verdict.FAIL, List.of("compliance: x"), List.of());

        // when
        GateResult result = gate.decide(CRITERIA, List.of(b, c));

        // then
        assertThat(result.criticalIssues()).hasSize(2);
    }

    @Test
    void normalisationIgnoresCaseBlanksAndPunctuation() {
        assertThat(IssueSimilarity.normalise("  Compliance:  Uses 'BEST-in-class'!  "))
                .isEqualTo("compliance uses best in class");
        assertThat(IssueSimilarity.exactNormalised().same("a: B c.", "A:b   C")).isTrue();
        assertThat(IssueSimilarity.exactNormalised().same("a: b c", "a: b d")).isFalse();
    }
}
