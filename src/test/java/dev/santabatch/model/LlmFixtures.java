package dev.santabatch.model;

import dev.santabatch.config.BudgetSpec;
import dev.santabatch.config.Criterion;
import dev.santabatch.config.ModelSpec;
import dev.santabatch.review.FixRequest;
import dev.santabatch.review.ReviewRequest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Models, requests and answers for the llm package's tests. */
public final class LlmFixtures {

    public static final String KEY_ENV = "SANTA_TEST_KEY";
    public static final String SECRET = "sk-test-SECRET123";
    public static final Function<String, String> ENV = name -> KEY_ENV.equals(name) ? SECRET : null;

    /** {@link #ENV} as the variables a run is given. */
    public static final Map<String, String> KEYS = Map.of(KEY_ENV, SECRET);

    public static final List<Criterion> RUBRIC = List.of(
            new Criterion("accuracy", "Factual accuracy", "All claims match the source facts",
                    "Invented numbers, wrong warranty", Criterion.CheckedBy.SANTA, List.of()),
            new Criterion("compliance", "Compliance", "No outcome guarantees",
                    "Guaranteed results", Criterion.CheckedBy.SANTA, List.of()));

    public static final List<String> IDS = List.of("accuracy", "compliance");

    /** Short backoffs, so tests are fast. */
    public static final GovernorSettings FAST = GovernorSettings.defaults().withRetries(4, Duration.ofMillis(10), Duration.ofMillis(40));

    public static final BudgetSpec NO_BUDGET = new BudgetSpec(null, null, null, null, null, null);

    private LlmFixtures() {}

    public static ModelSpec model(String baseUrl, ModelSpec.StructuredOutput mode, Duration timeout) {
        return new ModelSpec(baseUrl, "test-model", KEY_ENV, 0.0, timeout, 512, mode, 2.0, 8.0);
    }

    public static ModelSpec model(String baseUrl) {
        return model(baseUrl, ModelSpec.StructuredOutput.JSON_SCHEMA, Duration.ofSeconds(5));
    }

    public static ReviewRequest request(String content) {
        Map<String, String> source = new LinkedHashMap<>();
        source.put("name", "Trail Kettle");
        source.put("warranty_years", "2");
        return new ReviewRequest("Write a product description from the source facts.", "item-1", source, content, RUBRIC);
    }

    public static FixRequest fixRequest(String content, List<String> issues) {
        Map<String, String> source = new LinkedHashMap<>();
        source.put("name", "Trail Kettle");
        source.put("warranty_years", "2");
        return new FixRequest(content, source, issues, "Write a product description from the source facts.");
    }

    public static String passJson() {
        return "{\"verdict\":\"PASS\",\"checks\":[{\"criterion\":\"accuracy\",\"result\":\"PASS\",\"detail\":\"ok\"},"
                + "{\"criterion\":\"compliance\",\"result\":\"PASS\",\"detail\":\"ok\"}],\"critical_issues\":[],\"suggestions\":[]}";
    }

    public static String failJson() {
        return "{\"verdict\":\"FAIL\",\"checks\":[{\"criterion\":\"accuracy\",\"result\":\"FAIL\",\"detail\":\"warranty\"},"
                + "{\"criterion\":\"compliance\",\"result\":\"PASS\",\"detail\":\"ok\"}],"
                + "\"critical_issues\":[\"accuracy: states a 5-year warranty; the source says 2 years\"],\"suggestions\":[]}";
    }

    public static String missingCriterionJson() {
        return "{\"verdict\":\"PASS\",\"checks\":[{\"criterion\":\"accuracy\",\"result\":\"PASS\",\"detail\":\"ok\"}],"
                + "\"critical_issues\":[],\"suggestions\":[]}";
    }

    public static String passWithIssuesJson() {
        return "{\"verdict\":\"PASS\",\"checks\":[{\"criterion\":\"accuracy\",\"result\":\"PASS\",\"detail\":\"ok\"},"
                + "{\"criterion\":\"compliance\",\"result\":\"PASS\",\"detail\":\"ok\"}],"
                + "\"critical_issues\":[\"accuracy: the warranty is wrong\"],\"suggestions\":[]}";
    }
}
