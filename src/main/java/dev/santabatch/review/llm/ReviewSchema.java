package dev.santabatch.review.llm;

import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.santabatch.config.ModelSpec;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The review contract as a strict JSON schema, and the response format per structured-output mode. */
final class ReviewSchema {

    static final String NAME = "santa_review";

    private ReviewSchema() {}

    static JsonSchema schema(List<String> criterionIds) {
        JsonObjectSchema check = JsonObjectSchema.builder()
                .addProperty("criterion", JsonEnumSchema.builder().enumValues(criterionIds).build())
                .addEnumProperty("result", List.of("PASS", "FAIL"))
                .addStringProperty("detail")
                .required("criterion", "result", "detail")
                .additionalProperties(false)
                .build();
        JsonObjectSchema root = JsonObjectSchema.builder()
                .addEnumProperty("verdict", List.of("PASS", "FAIL"))
                .addProperty("checks", JsonArraySchema.builder().items(check).build())
                .addProperty("critical_issues", JsonArraySchema.builder().items(new JsonStringSchema()).build())
                .addProperty("suggestions", JsonArraySchema.builder().items(new JsonStringSchema()).build())
                .required("verdict", "checks", "critical_issues", "suggestions")
                .additionalProperties(false)
                .build();
        return JsonSchema.builder().name(NAME).rootElement(root).build();
    }

    static @Nullable ResponseFormat responseFormat(ModelSpec.StructuredOutput mode, List<String> criterionIds) {
        return switch (mode) {
            case JSON_SCHEMA -> ResponseFormat.builder().type(ResponseFormatType.JSON).jsonSchema(schema(criterionIds)).build();
            case JSON_OBJECT -> ResponseFormat.JSON;
            case PROMPT -> null;
        };
    }
}
