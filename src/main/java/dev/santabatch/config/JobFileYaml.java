package dev.santabatch.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.text.similarity.LevenshteinDistance;
import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A job file read into {@link JobFile} records, with the line of every key and value.
 *
 * <p>SnakeYAML composes the file into a node tree (no Java object is constructed from the file, so
 * loading is safe; anchors and aliases resolve there, an alias standing for its anchor's node). The
 * tree is checked for what YAML allows but a job file does not (non-standard tags, merge keys,
 * duplicate or non-string keys), turned into a Jackson tree of strings (every scalar is its text;
 * the scalar deserializers below parse integers, numbers, booleans and durations the way the
 * reference describes), and bound by Jackson, which rejects unknown keys and values of the wrong
 * shape. Every error is a {@link JobFileException} naming the dotted key ({@code
 * rubric[2].rules[0].fix}) and the line, found by the key's path in {@link #values}.
 */
final class JobFileYaml {

    /** Mappings whose keys are data (terms, threshold names), not keys of the job file. */
    private static final Set<String> FREE_MAPS = Set.of("replacements", "thresholds");
    /** Values an aliased file may expand to; far more than any job file needs. */
    private static final int MAX_VALUES = 1_000_000;
    private static final Pattern SECRET_KEY =
            Pattern.compile("(?i)(api[-_]?key|secret|passw(or)?d|bearer|access[-_]?(key|token)|auth[-_]?token|^token$|^key$)");
    static final String NEVER_THE_KEY = "job files name the environment variable, never the key";

    private static final Pattern INTEGER = Pattern.compile("[-+]?[0-9][0-9_]*");
    private static final Pattern NUMBER =
            Pattern.compile("[-+]?(\\.[0-9]+|[0-9][0-9_]*(\\.[0-9_]*)?)([eE][-+]?[0-9]+)?");
    private static final Pattern SHORT_DURATION = Pattern.compile("([0-9]+)\\s*(ms|s|m|h)?");
    private static final PropertyNamingStrategies.NamingBase KEBAB =
            (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.KEBAB_CASE;
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(KEBAB)
            .addModule(new SimpleModule()
                    .addDeserializer(String.class, new Scalar<>(String.class, "a string", JobFileYaml::text))
                    .addDeserializer(Long.class, new Scalar<>(Long.class, "an integer", (t, p) -> numeral(t, INTEGER, Long::parseLong)))
                    .addDeserializer(Double.class, new Scalar<>(Double.class, "a number", (t, p) -> numeral(t, NUMBER, Double::parseDouble)))
                    .addDeserializer(Boolean.class, new Scalar<>(Boolean.class, "true or false", JobFileYaml::bool))
                    .addDeserializer(Duration.class, new Scalar<>(Duration.class, "a duration", JobFileYaml::duration)))
            .build();

    private final Path file;
    /** Value nodes by dotted path ({@code ""} is the top level); a key with an empty value maps to a null scalar. */
    private final Map<String, Node> values = new HashMap<>();
    /** Key nodes by dotted path. */
    private final Map<String, Node> keys = new HashMap<>();

    /** The file, not yet read: {@link #bind()} reads it. */
    JobFileYaml(Path file) {
        this.file = file;
    }

    /** The file's records. */
    JobFile bind() throws JobFileException {
        Node root = compose();
        checkTags(root, Collections.newSetFromMap(new IdentityHashMap<>()));
        if (!(root instanceof MappingNode)) {
            throw error(null, root, "expected a mapping of keys at the top level, got " + describe(root));
        }
        JsonNode tree = convert(root, "", new int[] {0});
        try {
            return MAPPER.treeToValue(tree, JobFile.class);
        } catch (UnrecognizedPropertyException e) {
            throw unknownKey(e);
        } catch (Problem e) {
            String path = path(e);
            throw error(path, values.get(path), e.getOriginalMessage());
        } catch (MismatchedInputException e) {
            String path = path(e);
            Class<?> target = e.getTargetType();
            String expected = target != null && target.isRecord() ? "a mapping of keys"
                    : target != null && Collection.class.isAssignableFrom(target) ? "a list"
                    : target != null && Map.class.isAssignableFrom(target) ? "a mapping" : "a valid value";
            throw error(path, values.get(path), "expected " + expected + ", got " + describe(values.get(path)));
        } catch (IOException e) {
            String path = path(e instanceof JsonMappingException m ? m : null);
            throw error(path, values.get(path), "invalid value: " + firstLine(e.getMessage()));
        }
    }

    private Node compose() throws JobFileException {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setAllowRecursiveKeys(false);
        options.setMaxAliasesForCollections(50);
        Yaml yaml = new Yaml(new SafeConstructor(options));
        Node root;
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            root = yaml.compose(reader);
        } catch (NoSuchFileException e) {
            throw new JobFileException(file, null, 0, "job file not found");
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() != null ? e.getProblemMark().getLine() + 1 : 0;
            String problem = e.getProblem() != null ? e.getProblem() : e.getMessage();
            String context = e.getContext() != null ? e.getContext() + ": " : "";
            throw new JobFileException(file, null, line, "invalid YAML: " + context + problem);
        } catch (YAMLException e) {
            if (e.getCause() instanceof CharacterCodingException) {
                throw new JobFileException(file, null, 0, "not valid UTF-8");
            }
            throw new JobFileException(file, null, 0, "invalid YAML: " + firstLine(e.getMessage()));
        } catch (CharacterCodingException e) {
            throw new JobFileException(file, null, 0, "not valid UTF-8");
        } catch (IOException e) {
            throw new JobFileException(file, null, 0, "cannot read the job file: " + e);
        }
        if (root == null) {
            throw new JobFileException(file, null, 0, "the job file is empty");
        }
        return root;
    }

    private void checkTags(Node node, Set<Node> seen) throws JobFileException {
        if (!seen.add(node)) {
            return;
        }
        Tag tag = node.getTag();
        if (!tag.getValue().startsWith(Tag.PREFIX)) {
            throw error(null, node, "YAML tags are not allowed (" + tag.getValue() + ")");
        }
        if (node instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                checkTags(t.getKeyNode(), seen);
                checkTags(t.getValueNode(), seen);
            }
        } else if (node instanceof SequenceNode s) {
            for (Node n : s.getValue()) {
                checkTags(n, seen);
            }
        }
    }

    /** The node as a Jackson tree of strings, each value's node recorded under its path. */
    private JsonNode convert(Node node, String path, int[] count) throws JobFileException {
        values.put(path, node);
        if (++count[0] > MAX_VALUES) {
            throw error(null, node, "aliases expand to more than " + MAX_VALUES + " values");
        }
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (node instanceof SequenceNode s) {
            ArrayNode array = f.arrayNode();
            for (int i = 0; i < s.getValue().size(); i++) {
                array.add(convert(s.getValue().get(i), path + "[" + i + "]", count));
            }
            return array;
        }
        if (node instanceof MappingNode m) {
            String last = path.substring(path.lastIndexOf('.') + 1);
            ObjectNode object = f.objectNode();
            for (NodeTuple t : m.getValue()) {
                String k = FREE_MAPS.contains(last) && path.contains("[") ? freeKey(t, path) : key(t, path);
                object.set(k, convert(t.getValueNode(), join(path, k), count));
            }
            return object;
        }
        return node.getTag().equals(Tag.NULL) ? f.nullNode() : f.textNode(((ScalarNode) node).getValue());
    }

    /** A job file key: plain, given once. */
    private String key(NodeTuple t, String path) throws JobFileException {
        Node k = t.getKeyNode();
        if (k.getTag().equals(Tag.MERGE)) {
            throw error(join(path, "<<"), k, "YAML merge keys (<<) are not supported");
        }
        if (!(k instanceof ScalarNode ks)) {
            throw error(path.isEmpty() ? null : path, k, "keys must be plain strings, got " + describe(k));
        }
        Node previous = keys.putIfAbsent(join(path, ks.getValue()), k);
        if (previous != null) {
            throw error(join(path, ks.getValue()), k, "duplicate key (first given on line " + line(previous) + ")");
        }
        return ks.getValue();
    }

    /** A key of a mapping of terms or names to values: a non-blank string, given once. */
    private String freeKey(NodeTuple t, String path) throws JobFileException {
        if (!(t.getKeyNode() instanceof ScalarNode ks) || ks.getTag().equals(Tag.NULL)) {
            throw error(path, t.getKeyNode(), "keys must be plain strings, got " + describe(t.getKeyNode()));
        }
        if (ks.getValue().isBlank()) {
            throw error(path, ks, "keys must not be blank");
        }
        if (keys.putIfAbsent(join(path, ks.getValue()), ks) != null) {
            throw error(join(path, ks.getValue()), ks, "duplicate key");
        }
        return ks.getValue();
    }

    private JobFileException unknownKey(UnrecognizedPropertyException e) {
        String k = e.getPropertyName();
        String path = path(e);
        if (!path.equals(k) && !path.endsWith("." + k)) {
            path = join(path, k);
        }
        List<String> allowed = keysOf(e.getReferringClass());
        Node at = keys.get(path);
        if (SECRET_KEY.matcher(k).find()) {
            return error(path, at, NEVER_THE_KEY + (allowed.contains("api-key-env") ? " (use api-key-env)" : ""));
        }
        return unknownKey(path, at, k, allowed, null);
    }

    JobFileException unknownKey(String path, @Nullable Node at, String k, List<String> allowed, @Nullable String where) {
        String suggestion = closest(k, allowed);
        return error(path, at, "unknown key" + (where != null ? " for " + where : "")
                + (suggestion != null ? " (did you mean '" + suggestion + "'?)" : "")
                + "; allowed here: " + String.join(", ", allowed));
    }

    /** A record of the type with every component null: a section that is not written. */
    static <R extends Record> R empty(Class<R> type) {
        return MAPPER.convertValue(Map.of(), type);
    }

    /** The keys of a job file mapping: its record's components, in kebab case. */
    static List<String> keysOf(Class<?> record) {
        return Arrays.stream(record.getRecordComponents()).map(c -> KEBAB.translate(c.getName())).toList();
    }

    static @Nullable String closest(String key, List<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = LevenshteinDistance.getDefaultInstance().apply(key.toLowerCase(Locale.ROOT), c);
            if (d < bestDistance) {
                bestDistance = d;
                best = c;
            }
        }
        return best != null && bestDistance <= Math.max(2, key.length() / 3) ? best : null;
    }

    // ------------------------------------------------------------------ where things are

    /** True when the key is written, with a value or without. */
    boolean present(String path) {
        return values.containsKey(path);
    }

    /** The value's node; when the key is absent, the node of the mapping it would be in. */
    @Nullable Node node(String path) {
        Node n = values.get(path);
        if (n != null || path.isEmpty()) {
            return n;
        }
        int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
        return values.get(cut < 0 ? "" : path.substring(0, cut));
    }

    /** The keys of the mapping at this path, in the order written. */
    List<String> keysIn(String path) {
        return values.get(path) instanceof MappingNode m
                ? m.getValue().stream().map(t -> ((ScalarNode) t.getKeyNode()).getValue()).toList() : List.of();
    }

    @Nullable Node keyNode(String path) {
        Node k = keys.get(path);
        return k != null ? k : node(path);
    }

    /** The value as written (a scalar's text), for messages; when absent, its mapping described. */
    String raw(String path) {
        Node n = node(path);
        return n instanceof ScalarNode s ? s.getValue() : describe(n);
    }

    /** An error at the value (or, when the key is absent, at its mapping). */
    JobFileException err(String path, String problem) {
        return error(path, node(path), problem);
    }

    JobFileException error(@Nullable String key, @Nullable Node node, String problem) {
        return new JobFileException(file, key, line(node), problem);
    }

    private static String path(@Nullable JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        if (e != null) {
            for (JsonMappingException.Reference r : e.getPath()) {
                if (r.getFieldName() != null) {
                    sb.append(sb.isEmpty() ? "" : ".").append(r.getFieldName());
                } else if (r.getIndex() >= 0) {
                    sb.append('[').append(r.getIndex()).append(']');
                }
            }
        }
        return sb.toString();
    }

    static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private static int line(@Nullable Node node) {
        return node == null || node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
    }

    static String describe(@Nullable Node node) {
        if (node instanceof MappingNode) {
            return "a mapping";
        }
        if (node instanceof SequenceNode) {
            return "a list";
        }
        if (node instanceof ScalarNode s && !s.getTag().equals(Tag.NULL)) {
            return describeText(s.getValue());
        }
        return "nothing (null)";
    }

    private static String describeText(String v) {
        return "'" + (v.length() > 40 ? v.substring(0, 40) + "..." : v).replace("\n", "\\n") + "'";
    }

    private static String firstLine(@Nullable String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    // ------------------------------------------------------------------ scalars


    /** A value that cannot be used; the message is the problem as the job file error states it. */
    static final class Problem extends JsonMappingException {
        Problem(JsonParser p, String problem) {
            super(p, problem);
        }
    }

    @FunctionalInterface
    private interface Parse<T> {
        /** The value of a scalar's text, or null when it is not one ({@code expected ..., got ...}). */
        @Nullable T parse(String text, JsonParser p) throws Problem;
    }

    /** Reads a scalar with {@code parse}; anything else is "expected (what), got (what)". */
    private static final class Scalar<T> extends StdScalarDeserializer<T> {
        private final String expected;
        private final Parse<T> parse;

        Scalar(Class<T> type, String expected, Parse<T> parse) {
            super(type);
            this.expected = expected;
            this.parse = parse;
        }

        @Override
        public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonToken t = p.currentToken();
            String got = t == JsonToken.START_ARRAY ? "a list" : t == JsonToken.START_OBJECT ? "a mapping" : null;
            T value = got == null ? parse.parse(p.getText(), p) : null;
            if (value == null) {
                throw new Problem(p, "expected " + expected + ", got " + (got != null ? got : describeText(p.getText())));
            }
            return value;
        }
    }

    private static String text(String v, JsonParser p) throws Problem {
        if (v.isBlank()) {
            throw new Problem(p, "must not be blank");
        }
        return v.strip();
    }

    /** An integer or number: the text trimmed, its underscores dropped, when it matches; else null. */
    private static <T> @Nullable T numeral(String text, Pattern pattern, java.util.function.Function<String, T> parse) {
        String v = text.trim();
        try {
            return pattern.matcher(v).matches() ? parse.apply(v.replace("_", "")) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static @Nullable Boolean bool(String text, JsonParser p) {
        String v = text.toLowerCase(Locale.ROOT);
        return v.equals("true") ? Boolean.TRUE : v.equals("false") ? Boolean.FALSE : null;
    }

    /** 30s, 2m, 500ms, 1h, a bare number of seconds, or ISO-8601 (PT30S); positive. */
    private static Duration duration(String text, JsonParser p) throws Problem {
        String v = text.trim();
        Duration d;
        Matcher m = SHORT_DURATION.matcher(v);
        if (m.matches()) {
            try {
                long n = Long.parseLong(m.group(1));
                d = switch (m.group(2) == null ? "s" : m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofSeconds(n);
                };
            } catch (NumberFormatException | ArithmeticException e) {
                throw new Problem(p, "duration too long, got " + describeText(text));
            }
        } else {
            try {
                d = Duration.parse(v.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                throw new Problem(p, "expected a duration such as 30s, 2m, 500ms or PT30S, got " + describeText(text));
            }
        }
        if (d.isNegative() || d.isZero()) {
            throw new Problem(p, "must be a positive duration, got " + describeText(text));
        }
        return d;
    }
}
