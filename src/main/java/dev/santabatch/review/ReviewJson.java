package dev.santabatch.review;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reader and writer of the review contract JSON, on Jackson. The reader is strict JSON (RFC 8259:
 * no comments, single quotes or unquoted names; a duplicate key, text after the value or nesting
 * deeper than {@value #MAX_DEPTH} levels is an error) followed by a strict mapping: {@code verdict}
 * and {@code checks} are required, {@code critical_issues} and {@code suggestions} default to
 * empty, a check needs {@code criterion} and {@code result} ({@code detail} defaults to empty),
 * every value must have its contract type, and unknown verdict or result values are errors
 * ({@link InvalidReviewKind#UNKNOWN_VERDICT}). Unknown keys are ignored (models like to add a
 * "summary"). The writer writes the four keys in contract order, compact, UTF-8 text unescaped.
 */
final class ReviewJson {

    /** Deepest nesting accepted; a review needs 3 levels. */
    static final int MAX_DEPTH = 64;

    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
                    .build())
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private ReviewJson() {}

    static String write(Review review) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("verdict", review.verdict().name());
            g.writeArrayFieldStart("checks");
            for (Check c : review.checks()) {
                g.writeStartObject();
                g.writeStringField("criterion", c.criterion());
                g.writeStringField("result", c.result().name());
                g.writeStringField("detail", c.detail());
                g.writeEndObject();
            }
            g.writeEndArray();
            strings(g, "critical_issues", review.criticalIssues());
            strings(g, "suggestions", review.suggestions());
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a review as JSON", e); // a StringWriter does not fail
        }
        return out.toString();
    }

    private static void strings(JsonGenerator g, String key, List<String> values) throws IOException {
        g.writeArrayFieldStart(key);
        for (String v : values) {
            g.writeString(v);
        }
        g.writeEndArray();
    }

    static Review read(String json) throws MalformedReviewException {
        if (json == null || json.isBlank()) {
            throw new MalformedReviewException("no answer");
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new MalformedReviewException("not JSON: " + e.getOriginalMessage() + location(e));
        }
        JsonNode obj = object(root, "the review");
        Verdict verdict = verdict(obj.get("verdict"));
        JsonNode checksValue = present(obj.get("checks"));
        if (checksValue == null) {
            throw new MalformedReviewException("missing 'checks'");
        }
        List<Check> checks = new ArrayList<>();
        int index = 0;
        for (JsonNode c : array(checksValue, "'checks'")) {
            checks.add(check(c, index++));
        }
        List<String> issues = stringList(obj.get("critical_issues"), "critical_issues");
        List<String> suggestions = stringList(obj.get("suggestions"), "suggestions");
        return new Review(verdict, checks, issues, suggestions);
    }

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null ? "" : " at offset " + e.getLocation().getCharOffset();
    }

    /** The node, or null for an absent key or JSON null (both mean "not given"). */
    private static JsonNode present(JsonNode v) {
        return v == null || v.isNull() ? null : v;
    }

    private static Verdict verdict(JsonNode value) throws MalformedReviewException {
        JsonNode v = present(value);
        if (v == null) {
            throw new MalformedReviewException("missing 'verdict'");
        }
        if (!v.isTextual()) {
            throw new MalformedReviewException("'verdict' is not a string");
        }
        String s = v.textValue();
        for (Verdict verdict : Verdict.values()) {
            if (verdict.name().equals(s)) {
                return verdict;
            }
        }
        throw new MalformedReviewException(InvalidReviewKind.UNKNOWN_VERDICT, "unknown verdict '" + s + "' (PASS or FAIL)");
    }

    private static Check check(JsonNode value, int index) throws MalformedReviewException {
        String where = "checks[" + index + "]";
        JsonNode obj = object(value, where);
        JsonNode criterion = present(obj.get("criterion"));
        if (criterion == null || !criterion.isTextual() || criterion.textValue().isBlank()) {
            throw new MalformedReviewException(where + ": missing or non-string 'criterion'");
        }
        JsonNode result = present(obj.get("result"));
        if (result == null || !result.isTextual()) {
            throw new MalformedReviewException(where + ": missing or non-string 'result'");
        }
        CheckResult checkResult = null;
        for (CheckResult cr : CheckResult.values()) {
            if (cr.name().equals(result.textValue())) {
                checkResult = cr;
            }
        }
        if (checkResult == null) {
            throw new MalformedReviewException(InvalidReviewKind.UNKNOWN_VERDICT,
                    where + ": unknown result '" + result.textValue() + "' (PASS, FAIL or NOT_EVALUATED)");
        }
        JsonNode detail = present(obj.get("detail"));
        if (detail != null && !detail.isTextual()) {
            throw new MalformedReviewException(where + ": 'detail' is not a string");
        }
        return new Check(criterion.textValue().strip(), checkResult, detail == null ? "" : detail.textValue());
    }

    private static JsonNode object(JsonNode v, String what) throws MalformedReviewException {
        if (v != null && v.isObject()) {
            return v;
        }
        throw new MalformedReviewException(what + " is not a JSON object");
    }

    private static JsonNode array(JsonNode v, String what) throws MalformedReviewException {
        if (v.isArray()) {
            return v;
        }
        throw new MalformedReviewException(what + " is not a JSON array");
    }

    private static List<String> stringList(JsonNode value, String key) throws MalformedReviewException {
        JsonNode v = present(value);
        if (v == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (JsonNode o : array(v, "'" + key + "'")) {
            if (!o.isTextual()) {
                throw new MalformedReviewException("'" + key + "' holds a non-string value");
            }
            out.add(o.textValue());
        }
        return out;
    }
}
