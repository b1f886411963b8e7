package dev.santabatch.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
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
        assertThat(v).isEqualTo(new ReviewValidation.Valid(review, 0, 0));
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
    void aFailedCheckWithNeitherIssueNorDetailIsIncomplete() {
        // given compliance fails with a blank detail and the only issue is about accuracy
        Review review = new Review(Verdict.FAIL,
                List.of(fail("accuracy"), new Check("compliance", CheckResult.FAIL, "  ")),
                List.of("accuracy: x"), List.of());
        assertThat(invalidKind(review, ALL)).isEqualTo(InvalidReviewKind.FAILED_CHECK_WITHOUT_ISSUE);
    }

    @Test
    void aBlankIssueIsNoIssue() {
        // given a FAIL whose only issues are blank or a bare prefix, and a PASS with a blank issue
        Review fail = new Review(Verdict.FAIL, List.of(new Check("accuracy", CheckResult.FAIL, "says 3 years, source 2"),
                pass("compliance")), List.of("  ", "accuracy:  "), List.of());
        Review pass = new Review(Verdict.PASS, List.of(pass("accuracy"), pass("compliance")), List.of(""), List.of());

        // then the failed check's detail is its issue, and the PASS is no contradiction
        assertThat(validator.validate(fail, REVIEWED, ALL)).isInstanceOfSatisfying(ReviewValidation.Valid.class, v -> {
            assertThat(v.review().criticalIssues()).containsExactly("accuracy: says 3 years, source 2");
            assertThat(v.derivedIssues()).isEqualTo(1);
        });
        assertThat(validator.validate(pass, REVIEWED, ALL)).isInstanceOfSatisfying(ReviewValidation.Valid.class,
                v -> assertThat(v.review().criticalIssues()).isEmpty());
    }

    @Test
    void prefixedIssuesKeepTheirTextAndNothingIsCounted() {
        // given prefixes in any case and spacing
        Review review = new Review(Verdict.FAIL, List.of(fail("accuracy"), pass("compliance")),
                List.of("accuracy: wrong weight", "  Accuracy : wrong colour"), List.of());

        // when
        ReviewValidation v = validator.validate(review, REVIEWED, ALL);

        // then
        assertThat(v).isEqualTo(new ReviewValidation.Valid(review, 0, 0));
    }

    /**
     * The decision table of {@link ReviewValidator} (criteria accuracy and compliance, both judged).
     * Columns: verdict; accuracy's check; compliance's check (PASS, or FAIL with the detail after
     * the colon); the critical issues ("|" between them, "-" for none); then either the expected
     * issues of the valid review ("|" between them) with the re-attributed and derived counts, or
     * the kind of an invalid one.
     */
    @ParameterizedTest(name = "{0} [{1}] [{2}] issues [{3}] -> {4}")
    @CsvSource(delimiter = ';', textBlock = """
        # the seed's shape: free-text issues
        FAIL; FAIL: says 3 years, source says 2; PASS; warranty is 3 years, not 2; accuracy: warranty is 3 years, not 2; 1; 0
        FAIL; PASS; FAIL: uses the banned word cheap; the word cheap is banned; compliance: the word cheap is banned; 1; 0
        # several failed checks: the detail sharing the most words wins
        FAIL; FAIL: warranty years wrong; FAIL: banned word cheap; the banned word cheap appears; compliance: the banned word cheap appears|accuracy: warranty years wrong; 1; 1
        FAIL; FAIL: warranty years wrong; FAIL: banned word cheap; warranty years are wrong|cheap is banned; accuracy: warranty years are wrong|compliance: cheap is banned; 2; 0
        # a tie (here: no shared word) goes to every failed check
        FAIL; FAIL: warranty wrong; FAIL: banned word; subtle problem; accuracy: subtle problem|compliance: subtle problem; 1; 0
        FAIL; FAIL: warranty wrong; FAIL: warranty banned; the warranty; accuracy: the warranty|compliance: the warranty; 1; 0
        # prefixed issues stay as they are; an issue naming no reviewed criterion is free text
        FAIL; FAIL: wrong weight; PASS; accuracy: wrong weight; accuracy: wrong weight; 0; 0
        FAIL; FAIL: wrong weight; PASS; style: too breezy; accuracy: style: too breezy; 1; 0
        FAIL; FAIL: wrong weight; FAIL: banned word; accuracy: wrong weight|the banned word again; accuracy: wrong weight|compliance: the banned word again; 1; 0
        # a failed check with no issue takes its detail
        FAIL; FAIL: says 3 years, source says 2; PASS; -; accuracy: says 3 years, source says 2; 0; 1
        FAIL; FAIL: says 3 years; FAIL: uses cheap; accuracy: wrong warranty; accuracy: wrong warranty|compliance: uses cheap; 0; 1
        FAIL; FAIL: says 3 years; FAIL: uses cheap; cheap is used; compliance: cheap is used|accuracy: says 3 years; 1; 1
        # a passing review
        PASS; PASS; PASS; -; ; 0; 0
        # contradictions: PASS with a failed check, or with any critical issue, prefixed or not
        PASS; FAIL: says 3 years; PASS; -; PASS_WITH_FAILED_CHECK; ;
        PASS; FAIL: says 3 years; PASS; accuracy: says 3 years; PASS_WITH_FAILED_CHECK; ;
        PASS; PASS; PASS; accuracy: slightly off; PASS_WITH_CRITICAL_ISSUES; ;
        PASS; PASS; PASS; subtle problem; PASS_WITH_CRITICAL_ISSUES; ;
        PASS; PASS; PASS; style: could be livelier; PASS_WITH_CRITICAL_ISSUES; ;
        # contradictions: a FAIL whose issue names a criterion the same review passed
        FAIL; FAIL: wrong weight; PASS; compliance: the word cheap; ISSUE_ON_PASSED_CHECK; ;
        FAIL; FAIL: wrong weight; PASS; accuracy: wrong weight|compliance: the word cheap; ISSUE_ON_PASSED_CHECK; ;
        # incomplete: FAIL with no failed check; a failed check with neither issue nor detail
        FAIL; PASS; PASS; accuracy: x; FAIL_WITHOUT_FAILED_CHECK; ;
        FAIL; PASS; PASS; -; FAIL_WITHOUT_FAILED_CHECK; ;
        FAIL; FAIL: ; PASS; -; FAILED_CHECK_WITHOUT_ISSUE; ;
        """)
    void decisionTable(String verdict, String accuracy, String compliance, String issues, @Nullable String expected,
            @Nullable Integer reattributed, @Nullable Integer derived) {
        // given
        Review review = new Review(Verdict.valueOf(verdict), List.of(check("accuracy", accuracy), check("compliance", compliance)),
                split(issues), List.of("a suggestion"));

        // when
        ReviewValidation v = validator.validate(review, REVIEWED, ALL);

        // then
        if (reattributed == null) {
            assertThat(v).isInstanceOfSatisfying(ReviewValidation.Invalid.class,
                    bad -> assertThat(bad.kind()).isEqualTo(InvalidReviewKind.valueOf(expected)));
            return;
        }
        assertThat(v).isInstanceOfSatisfying(ReviewValidation.Valid.class, valid -> {
            assertThat(valid.review().criticalIssues()).containsExactlyElementsOf(split(expected));
            assertThat(valid.reattributedIssues()).as("re-attributed").isEqualTo(reattributed);
            assertThat(valid.derivedIssues()).as("derived from detail").isEqualTo(derived);
            assertThat(valid.review().verdict()).isEqualTo(review.verdict());
            assertThat(valid.review().checks()).isEqualTo(review.checks());
            assertThat(valid.review().suggestions()).isEqualTo(review.suggestions());
            // validating the attributed review again changes nothing: a stored review is reused as is
            assertThat(validator.validate(valid.review(), REVIEWED, ALL)).isEqualTo(new ReviewValidation.Valid(valid.review(), 0, 0));
        });
    }

    /** "PASS", or "FAIL: detail". */
    private static Check check(String criterion, String cell) {
        if (cell.equals("PASS")) {
            return pass(criterion);
        }
        assertThat(cell).startsWith("FAIL:");
        return new Check(criterion, CheckResult.FAIL, cell.substring("FAIL:".length()).strip());
    }

    private static List<String> split(@Nullable String cell) {
        if (cell == null || cell.equals("-")) {
            return List.of();
        }
        return List.of(cell.split("\\|"));
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
        "{\"verdict\": \"PASS\", \"checks\": []} {}",
        "{\"verdict\": \"PASS\", \"checks\": [],}",
        "{'verdict': 'PASS', 'checks': []}",
        "{\"verdict\": \"PASS\", \"checks\": [] /* a comment */}",
        "{\"verdict\": 1, \"checks\": []}",
        "{\"verdict\": \"PASS\", \"checks\": {}}",
        "{\"verdict\": \"PASS\", \"checks\": [{\"criterion\": \"a\", \"result\": \"PASS\", \"detail\": 3}]}",
        "{\"verdict\": \"PASS\", \"checks\": [{\"criterion\": \"a\", \"result\": \"PASS\", \"criterion\": \"b\"}]}",
        "{\"verdict\": \"PASS\", \"checks\": [{\"criterion\": 7, \"result\": \"PASS\"}]}",
        "{\"verdict\": \"PASS\", \"checks\": [], \"suggestions\": \"one\"}",
        "{\"verdict\": \"PASS\", \"checks\": [], \"critical_issues\": [null]}",
        "{\"verdict\": \"PASS\", \"checks\": [\"x\"]}",
        "{\"verdict\": \"PASS\", \"checks\": []",
        "{\"verdict\": \"PA\u0001SS\", \"checks\": []}",
    })
    void malformedAnswersAreErrors(String json) {
        // the raw control character U+0001 inside a string is not JSON
        assertThatThrownBy(() -> Review.fromJson(json)).isInstanceOfSatisfying(MalformedReviewException.class,
                e -> assertThat(e.kind()).isEqualTo(json.contains("MAYBE") || json.contains("\"pass\"") || json.contains("SKIPPED")
                        ? InvalidReviewKind.UNKNOWN_VERDICT : InvalidReviewKind.MALFORMED));
    }

    @Test
    void nestingDeeperThanTheLimitIsAnErrorEvenUnderAnIgnoredKey() throws Exception {
        // given an unknown key (ignored) holding arrays nested one level past the limit, and one at it
        String tooDeep = "{\"verdict\": \"PASS\", \"checks\": [], \"x\": " + "[".repeat(ReviewJson.MAX_DEPTH)
                + "]".repeat(ReviewJson.MAX_DEPTH) + "}";
        String atLimit = "{\"verdict\": \"PASS\", \"checks\": [], \"x\": " + "[".repeat(ReviewJson.MAX_DEPTH - 1)
                + "]".repeat(ReviewJson.MAX_DEPTH - 1) + "}";

        // then
        assertThatThrownBy(() -> Review.fromJson(tooDeep)).isInstanceOfSatisfying(MalformedReviewException.class,
                e -> assertThat(e.kind()).isEqualTo(InvalidReviewKind.MALFORMED));
        assertThat(Review.fromJson(atLimit).verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void nullOptionalValuesAreAbsentOnesAndUnknownKeysAreIgnored() throws Exception {
        // given JSON null for the optional values, and keys the contract does not know
        String json = """
                {"verdict": "FAIL", "summary": {"a": [1, 2.5e3, true, null]},
                 "checks": [{"criterion": " accuracy ", "result": "FAIL", "detail": null, "confidence": 0.9}],
                 "critical_issues": null, "suggestions": null}
                """;

        // when
        Review review = Review.fromJson(json);

        // then
        assertThat(review).isEqualTo(new Review(Verdict.FAIL, List.of(new Check("accuracy", CheckResult.FAIL, "")),
                List.of(), List.of()));
    }

    @Test
    void theWriterEscapesWhatJsonNeedsAndKeepsTheContractOrder() throws Exception {
        // given every character a string needs escaped, and text that does not
        Review review = new Review(Verdict.PASS, List.of(new Check("a", CheckResult.PASS, "q\"b\\n\nr\rt\tc\u0001")),
                List.of(), List.of("ü €"));

        // when
        String json = review.toJson();

        // then
        assertThat(json).isEqualTo("{\"verdict\":\"PASS\",\"checks\":[{\"criterion\":\"a\",\"result\":\"PASS\","
                + "\"detail\":\"q\\\"b\\\\n\\nr\\rt\\tc\\u0001\"}],\"critical_issues\":[],\"suggestions\":[\"ü €\"]}");
        assertThat(Review.fromJson(json)).isEqualTo(review);
    }
}
