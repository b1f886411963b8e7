package dev.santabatch.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReviewValidatorTests {

    static final List<String> REVIEWED = List.of("accuracy", "compliance");
    static final Set<String> ALL = Set.copyOf(REVIEWED);

    private final ReviewValidator validator = new ReviewValidator();

    private static Check pass(String c) {
        return new Check(c, CheckResult.PASS, "");
    }

    private static Check fail(String c) {
        return new Check(c, CheckResult.FAIL, "broken");
    }

    private static Check notEvaluated(String c) {
        return new Check(c, CheckResult.NOT_EVALUATED, "");
    }

    private InvalidReviewKind invalidKind(Review review, Set<String> judged) {
        ReviewValidation v = validator.validate(review, REVIEWED, judged);
        assertThat(v).isInstanceOf(ReviewValidation.Invalid.class);
        return ((ReviewValidation.Invalid) v).kind();
    }

    @Test
    void aConsistentReviewIsValid() {
        // given
        Review review = new Review(Verdict.FAIL, List.of(pass("accuracy"), fail("compliance")),
                List.of("compliance: says 'cheap'"), List.of("tighten the intro"));

        // when
        ReviewValidation v = validator.validate(review, REVIEWED, ALL);

        // then
        assertThat(v).isEqualTo(new ReviewValidation.Valid(review, List.of()));
    }

    @Test
    void aMissingCheckIsInvalid() {
        Review review = new Review(Verdict.PASS, List.of(pass("accuracy")), List.of(), List.of());
        assertThat(invalidKind(review, ALL)).isEqualTo(InvalidReviewKind.MISSING_CHECK);
    }

    @Test
    void aDuplicateCheckIsInvalid() {
        Review review = new Review(Verdict.PASS, List.of(pass("accuracy"), pass("accuracy"), pass("compliance")),
                List.of(), List.of());
        assertThat(invalidKind(review, ALL)).isEqualTo(InvalidReviewKind.DUPLICATE_CHECK);
    }

    @Test
    void aCheckForAnUnreviewedCriterionIsInvalid() {
        Review review = new Review(Verdict.PASS, List.of(pass("accuracy"), pass("compliance"), pass("tone")),
                List.of(), List.of());
        assertThat(invalidKind(review, ALL)).isEqualTo(InvalidReviewKind.UNKNOWN_CHECK);
    }

    @Test
    void aModelReviewerMayNotAnswerNotEvaluated() {
        // given a model reviewer: it judges every reviewed criterion
        Review review = new Review(Verdict.PASS, List.of(pass("accuracy"), notEvaluated("compliance")),
                List.of(), List.of());

        // then
        assertThat(invalidKind(review, ALL)).isEqualTo(InvalidReviewKind.NOT_EVALUATED_JUDGED_CRITERION);
    }

    @Test
    void anOfflineReviewerAnswersNotEvaluatedForWhatItDoesNotJudge() {
        // given an offline reviewer judging only accuracy
        Review review = new Review(Verdict.PASS, List.of(pass("accuracy"), notEvaluated("compliance")),
                List.of(), List.of());

        // when
        ReviewValidation v = validator.validate(review, REVIEWED, Set.of("accuracy"));

        // then
        assertThat(v).isInstanceOf(ReviewValidation.Valid.class);
    }

    @Test
    void anOfflineReviewerMustJudgeWhatItDeclares() {
        Review review = new Review(Verdict.PASS, List.of(notEvaluated("accuracy"), notEvaluated("compliance")),
                List.of(), List.of());
        assertThat(invalidKind(review, Set.of("accuracy"))).isEqualTo(InvalidReviewKind.NOT_EVALUATED_JUDGED_CRITERION);
    }

    @Test
    void anOfflineReviewerMayNotJudgeWhatItDoesNotDeclare() {
        Review review = new Review(Verdict.FAIL, List.of(pass("accuracy"), fail("compliance")),
                List.of("compliance: x"), List.of());
        assertThat(invalidKind(review, Set.of("accuracy"))).isEqualTo(InvalidReviewKind.JUDGED_UNDECLARED_CRITERION);
    }

    @Test
    void failWithoutAFailedCheckIsInvalid() {
        Review review = new Review(Verdict.FAIL, List.of(pass("accuracy"), pass("compliance")),
                List.of("accuracy: x"), List.of());
        assertThat(invalidKind(review, ALL)).isEqualTo(InvalidReviewKind.FAIL_WITHOUT_FAILED_CHECK);
    }

    @Test
    void passWithAFailedCheckIsInvalid() {
        Review review = new Review(Verdict.PASS, List.of(pass("accuracy"), fail("compliance")),
                List.of("compliance: x"), List.of());
        assertThat(invalidKind(review, ALL)).isEqualTo(InvalidReviewKind.PASS_WITH_FAILED_CHECK);
    }

    @Test
    void passWithACriticalIssueIsInvalid() {
        Review review = new Review(Verdict.PASS, List.of(pass("accuracy"), pass("compliance")),
                List.of("accuracy: x"), List.of());
        assertThat(invalidKind(review, ALL)).isEqualTo(InvalidReviewKind.PASS_WITH_CRITICAL_ISSUES);
    }

    @Test
    void aFailedCheckWithoutAnIssueForItsCriterionIsInvalid() {
        // given compliance fails but the only issue is about accuracy
        Review review = new Review(Verdict.FAIL, List.of(fail("accuracy"), fail("compliance")),
                List.of("accuracy: x"), List.of());
        assertThat(invalidKind(review, ALL)).isEqualTo(InvalidReviewKind.FAILED_CHECK_WITHOUT_ISSUE);
    }

    @Test
    void issuesNamingNoKnownCriterionAreDroppedAndCounted() {
        // given
        Review review = new Review(Verdict.FAIL, List.of(fail("accuracy"), pass("compliance")),
                List.of("accuracy: wrong weight", "style: too breezy", "no prefix at all", "  Accuracy : wrong colour"),
                List.of());

        // when
        ReviewValidation v = validator.validate(review, REVIEWED, ALL);

        // then
        assertThat(v).isInstanceOf(ReviewValidation.Valid.class);
        ReviewValidation.Valid valid = (ReviewValidation.Valid) v;
        assertThat(valid.droppedCount()).isEqualTo(2);
        assertThat(valid.droppedIssues()).containsExactly("style: too breezy", "no prefix at all");
        assertThat(valid.review().criticalIssues()).containsExactly("accuracy: wrong weight", "  Accuracy : wrong colour");
    }

    @Test
    void aFailedCheckWhoseOnlyIssueIsDroppedIsInvalid() {
        Review review = new Review(Verdict.FAIL, List.of(fail("accuracy"), pass("compliance")),
                List.of("acuracy: misspelt criterion"), List.of());
        assertThat(invalidKind(review, ALL)).isEqualTo(InvalidReviewKind.FAILED_CHECK_WITHOUT_ISSUE);
    }

    @Test
    void passWithOnlyDroppedIssuesIsValid() {
        // given the only issue names no criterion: dropped, so PASS is consistent
        Review review = new Review(Verdict.PASS, List.of(pass("accuracy"), pass("compliance")),
                List.of("style: could be livelier"), List.of());

        // when
        ReviewValidation v = validator.validate(review, REVIEWED, ALL);

        // then
        assertThat(v).isInstanceOfSatisfying(ReviewValidation.Valid.class, valid -> {
            assertThat(valid.droppedCount()).isEqualTo(1);
            assertThat(valid.review().criticalIssues()).isEmpty();
        });
    }

    // --- the contract JSON ---

    @Test
    void contractJsonRoundTrips() throws Exception {
        // given
        Review review = new Review(Verdict.FAIL,
                List.of(new Check("accuracy", CheckResult.FAIL, "says \"3 years\"\nsource: 2"),
                        new Check("compliance", CheckResult.NOT_EVALUATED, "")),
                List.of("accuracy: warranty \\ 3 years"), List.of("ünïcode ok"));

        // when
        String json = review.toJson();

        // then
        assertThat(json).startsWith("{\"verdict\":\"FAIL\",\"checks\":[{\"criterion\":\"accuracy\",\"result\":\"FAIL\"");
        assertThat(json).contains("\"critical_issues\":[").contains("\"suggestions\":[");
        assertThat(Review.fromJson(json)).isEqualTo(review);
    }

    @Test
    void theSeedShapeParses() throws Exception {
        // given a model's answer in the seed's shape, with an extra key and no detail
        String json = """
                { "verdict": "FAIL",
                  "checks": [ {"criterion": "accuracy", "result": "FAIL", "detail": "wrong"},
                              {"criterion": "compliance", "result": "PASS"} ],
                  "critical_issues": ["accuracy: wrong \\u0077eight"],
                  "suggestions": [],
                  "summary": "ignored" }
                """;

        // when
        Review review = Review.fromJson(json);

        // then
        assertThat(review.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(review.checks()).containsExactly(
                new Check("accuracy", CheckResult.FAIL, "wrong"), new Check("compliance", CheckResult.PASS, ""));
        assertThat(review.criticalIssues()).containsExactly("accuracy: wrong weight");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "not json",
        "[]",
        "{\"checks\": []}",
        "{\"verdict\": \"MAYBE\", \"checks\": []}",
        "{\"verdict\": \"pass\", \"checks\": []}",
        "{\"verdict\": \"PASS\"}",
        "{\"verdict\": \"PASS\", \"checks\": [{\"criterion\": \"a\", \"result\": \"SKIPPED\"}]}",
        "{\"verdict\": \"PASS\", \"checks\": [{\"result\": \"PASS\"}]}",
        "{\"verdict\": \"PASS\", \"checks\": [], \"critical_issues\": [1]}",
        "{\"verdict\": \"PASS\", \"checks\": []} trailing",
        "{\"verdict\": \"PASS\", \"verdict\": \"FAIL\", \"checks\": []}",
        "{\"verdict\": \"PASS\", \"checks\": [}",
    })
    void malformedAnswersAreErrors(String json) {
        assertThatThrownBy(() -> Review.fromJson(json)).isInstanceOfSatisfying(MalformedReviewException.class,
                e -> assertThat(e.kind()).isEqualTo(json.contains("MAYBE") || json.contains("\"pass\"") || json.contains("SKIPPED")
                        ? InvalidReviewKind.UNKNOWN_VERDICT : InvalidReviewKind.MALFORMED));
    }
}
