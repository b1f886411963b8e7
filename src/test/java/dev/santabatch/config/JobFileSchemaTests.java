package dev.santabatch.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * The published JSON Schema of the job file ({@code docs/job-file.schema.json}, which editors use to
 * check job files as they are typed): the bundled and test job files satisfy it, it names exactly
 * the keys the loader accepts, and it rejects what the loader rejects for shape, type and range.
 */
class JobFileSchemaTests {

    private static final Path SCHEMA_FILE = Path.of("docs/job-file.schema.json");

    private static Schema schema() throws IOException {
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(Files.readString(SCHEMA_FILE), InputFormat.JSON);
    }

    static Stream<Path> jobFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path dir : List.of(Path.of("jobs"), Path.of("src/test/resources/bench"))) {
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(p -> p.toString().endsWith(".yml")).sorted().forEach(files::add);
            }
        }
        // the golden cases that load (with warnings)
        try (Stream<Path> s = Files.list(Path.of("src/test/resources/job-errors"))) {
            s.filter(p -> p.toString().endsWith(".warnings")).sorted()
                    .map(p -> Path.of(p.toString().replaceAll("\\.warnings$", ".yml"))).forEach(files::add);
        }
        return files.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jobFiles")
    void jobFileSatisfiesTheSchema(Path file) throws IOException {
        // the benchmarks' templates with their placeholders filled as the benchmarks fill them
        String yaml = Files.readString(file).replace("@CSV@", "/tmp/catalog.csv")
                .replace("@BASE_URL@", "http://127.0.0.1:8080/v1").replace("@RATE@", "0.10").replace("@MAX_ROUNDS@", "5");
        List<Error> errors = schema().validate(yaml, InputFormat.YAML);
        assertThat(errors).as(file.toString()).isEmpty();
    }

    @Test
    void schemaNamesEveryKeyTheLoaderAccepts() throws IOException {
        JsonNode root = new ObjectMapper().readTree(SCHEMA_FILE.toFile());
        List<String> keys = new ArrayList<>();
        collect(root, root, "", keys);
        assertThat(keys).containsExactlyInAnyOrderElementsOf(JobFileLoader.referenceKeys());
    }

    /** The keys of an object schema as {@link JobFileLoader#referenceKeys()} writes them. */
    private static void collect(JsonNode root, JsonNode node, String at, List<String> keys) {
        JsonNode schema = node;
        String prefix = at;
        if (schema.has("$ref")) {
            String name = schema.get("$ref").asText().substring("#/$defs/".length());
            if (name.equals("model")) {
                if (keys.contains("model.model")) {
                    return;
                }
                prefix = "model.";
            }
            schema = root.get("$defs").get(name);
        }
        if (schema.has("items")) {
            collect(root, schema.get("items"), prefix.substring(0, prefix.length() - 1) + "[].", keys);
            return;
        }
        if (!"object".equals(schema.path("type").asText()) || !schema.path("additionalProperties").isBoolean()) {
            return;
        }
        for (var e : schema.get("properties").properties()) {
            keys.add(prefix + e.getKey());
            collect(root, e.getValue(), prefix + e.getKey() + ".", keys);
        }
    }

    @Test
    void schemaRejectsAnUnknownKeyAWrongTypeAndAValueOutOfRange() throws IOException {
        String valid = Files.readString(Path.of("jobs/product-descriptions.yml"));
        assertThat(schema().validate(valid, InputFormat.YAML)).isEmpty();

        assertThat(schema().validate(valid + "colour: red\n", InputFormat.YAML)).isNotEmpty();
        assertThat(schema().validate(valid.replace("chunk-size: 500", "chunk-size: many"), InputFormat.YAML)).isNotEmpty();
        assertThat(schema().validate(valid.replace("max-iterations: 3", "max-iterations: 11"), InputFormat.YAML))
                .isNotEmpty();
        assertThat(schema().validate(valid.replace("type: lexical", "type: lexicon"), InputFormat.YAML)).isNotEmpty();
    }
}
