package dev.santabatch.job;

import dev.santabatch.job.Criterion.CheckedBy;
import dev.santabatch.job.ModelSpec.StructuredOutput;
import dev.santabatch.job.RuleSpec.FixKind;
import dev.santabatch.job.RuleSpec.GroundedAttribute;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
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
 * Reads a YAML job file into a fully resolved, validated {@link JobDefinition}.
 *
 * <p>The file is parsed with SnakeYAML's {@code compose} into a node tree (no Java objects are
 * ever constructed from the file, so loading is safe), and every value is read from its node so
 * that each error names the dotted key (e.g. {@code rubric[2].rules[0].fix}) and its 1-based line.
 * Errors are {@link JobFileException}s with the message {@code <file>:<line>: key '<key>': <problem>}.
 *
 * <p>YAML rules: one document; the top level is a mapping; duplicate keys are errors; explicit
 * non-standard tags ({@code !foo}, {@code !!java...}) are errors; merge keys ({@code <<}) are not
 * supported. Anchors and aliases are allowed: an alias stands for the anchored node, so an error
 * inside aliased content reports the line of the anchor.
 *
 * <p>Validation problems that do not make the job unusable are returned as warnings by
 * {@link #loadWithWarnings(Path)}: currently a Santa criterion judged by only one reviewer (it is
 * not dual-reviewed). {@link #load(Path)} drops the warnings.
 *
 * <p>Every key, type, default and range is listed in {@code docs/job-file-reference.md}.
 */
public final class JobFileLoader {

    /** A loaded job and the warnings found while validating it, each formatted like an error message. */
    public record Result(JobDefinition definition, List<String> warnings) {
        public Result {
            warnings = List.copyOf(warnings);
        }
    }

    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    static final Pattern CRITERION_ID = Pattern.compile("[a-z][a-z0-9-]*");
    static final Pattern RULE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    static final Pattern REVIEWER_ID = Pattern.compile("[A-Za-z0-9_-]+");
    static final Pattern ENV_NAME = Pattern.compile("[A-Z_][A-Z0-9_]*");
    private static final Pattern INTEGER = Pattern.compile("[-+]?[0-9][0-9_]*");
    private static final Pattern NUMBER =
            Pattern.compile("[-+]?(\\.[0-9]+|[0-9][0-9_]*(\\.[0-9_]*)?)([eE][-+]?[0-9]+)?");
    private static final Pattern SHORT_DURATION = Pattern.compile("([0-9]+)\\s*(ms|s|m|h)?");
    private static final Pattern SECRET_KEY =
            Pattern.compile("(?i)(api[-_]?key|secret|passw(or)?d|bearer|access[-_]?(key|token)|auth[-_]?token|^token$|^key$)");

    static final String DEFAULT_API_KEY_ENV = "OPENAI_API_KEY";
    private static final String NEVER_THE_KEY = "job files name the environment variable, never the key";

    private static final List<String> TOP_KEYS = List.of(
            "name", "input", "task-spec", "rubric", "sampling", "santa", "reviewers", "fixer", "matcher", "run", "budget",
            "governor", "carry-over");
    private static final List<String> INPUT_KEYS = List.of(
            "path", "id-column", "content-column", "category-column", "source-columns", "ground-truth");
    private static final List<String> CRITERION_KEYS = List.of("id", "name", "pass", "fail-signal", "checked-by", "rules",
            "canaries");
    private static final Map<String, List<String>> RULE_KEYS = ruleKeys();
    private static final List<String> ALL_RULE_KEYS =
            RULE_KEYS.values().stream().flatMap(List::stream).distinct().toList();
    private static final List<String> SAMPLING_KEYS =
            List.of("rate", "allow-rate-outside-range", "min-size", "full-review-below", "seed");
    private static final List<String> SANTA_KEYS = List.of("max-iterations", "max-rounds", "systematic-min-items",
            "failed-review-threshold", "low-agreement-kappa", "pattern-similarity", "audit-size", "acceptance-number",
            "canary-share", "min-canaries", "min-panel-sensitivity", "max-false-flag-rate", "max-fail-share");
    /** A larger acceptance number would call a sample with over a hundred failures clean. */
    private static final int ACCEPTANCE_NUMBER_MAX = 100;
    private static final List<String> REVIEWER_KEYS = List.of("id", "type", "criteria", "model", "thresholds");
    private static final List<String> FIXER_KEYS = List.of("type", "model");
    private static final List<String> MATCHER_KEYS = List.of("model", "max-candidate-share", "min-similarity");
    private static final List<String> GOVERNOR_KEYS = List.of("max-in-flight-per-endpoint", "max-in-flight-per-model",
            "requests-per-minute-per-model", "max-attempts", "initial-backoff", "max-backoff", "jitter",
            "max-retry-after", "log-requests", "circuit-breaker-failures");
    private static final List<String> MODEL_KEYS = List.of("base-url", "model", "api-key-env", "temperature", "timeout",
            "max-output-tokens", "structured-output", "price-input-per-million", "price-output-per-million",
            "reasoning-effort");
    private static final List<String> RUN_KEYS = List.of("chunk-size", "concurrency");
    private static final List<String> CARRY_OVER_KEYS = List.of("enabled", "max-age", "target-bound");
    private static final List<String> BUDGET_KEYS = List.of("max-calls", "max-tokens", "max-cost",
            "max-calls-per-round", "max-tokens-per-round", "max-cost-per-round");

    private static final List<String> WHEN_KEYS = List.of("column", "values");
    private static final List<String> ATTRIBUTE_KEYS = List.of("column", "unit", "keywords");

    /**
     * Every key the loader accepts, as dotted paths with {@code []} for list items and {@code model.}
     * for a model mapping (under {@code reviewers[].model} and {@code fixer.model}). The reference in
     * {@code docs/job-file-reference.md} is tested against this list.
     */
    static List<String> referenceKeys() {
        List<String> keys = new ArrayList<>(TOP_KEYS);
        addAll(keys, "input.", INPUT_KEYS);
        addAll(keys, "rubric[].", CRITERION_KEYS);
        addAll(keys, "rubric[].rules[].", ALL_RULE_KEYS);
        addAll(keys, "rubric[].rules[].when.", WHEN_KEYS);
        addAll(keys, "rubric[].rules[].attributes[].", ATTRIBUTE_KEYS);
        addAll(keys, "sampling.", SAMPLING_KEYS);
        addAll(keys, "santa.", SANTA_KEYS);
        addAll(keys, "reviewers[].", REVIEWER_KEYS);
        addAll(keys, "fixer.", FIXER_KEYS);
        addAll(keys, "matcher.", MATCHER_KEYS);
        addAll(keys, "model.", MODEL_KEYS);
        addAll(keys, "run.", RUN_KEYS);
        addAll(keys, "budget.", BUDGET_KEYS);
        addAll(keys, "governor.", GOVERNOR_KEYS);
        addAll(keys, "carry-over.", CARRY_OVER_KEYS);
        return List.copyOf(keys);
    }

    private static void addAll(List<String> keys, String prefix, List<String> names) {
        names.forEach(n -> keys.add(prefix + n));
    }

    private static Map<String, List<String>> ruleKeys() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("forbidden-terms", List.of("id", "type", "terms", "patterns", "replacements", "fix"));
        m.put("required-phrase", List.of("id", "type", "when", "phrase", "fix"));
        m.put("length", List.of("id", "type", "min", "max", "fix"));
        m.put("number-grounding", List.of("id", "type", "attributes", "fix"));
        return Collections.unmodifiableMap(m);
    }

    private final Path file;
    private final Path baseDir;
    /** The input's listed source columns (empty: every column), set once the input section is read. */
    private List<String> sourceColumns = List.of();
    private final List<String> warnings = new ArrayList<>();
    /** Canary kinds by criterion id, in rubric order, filled while the rubric is read. */
    private final Map<String, List<CanaryKind>> canaries = new LinkedHashMap<>();
    private final java.util.function.Function<String, @org.jspecify.annotations.Nullable String> env;

    private JobFileLoader(Path file, java.util.function.Function<String, @org.jspecify.annotations.Nullable String> env) {
        this.file = file;
        this.env = env;
        Path parent = file.toAbsolutePath().normalize().getParent();
        this.baseDir = parent != null ? parent : file.toAbsolutePath().getRoot();
    }

    /** Loads and validates a job file; warnings are dropped (use {@link #loadWithWarnings}). */
    public static JobDefinition load(Path file) throws JobFileException {
        return loadWithWarnings(file).definition();
    }

    /**
     * Loads and validates a job file and returns the definition together with its warnings, in the
     * process's environment (which resolves a model without base URL: see
     * {@link #loadWithWarnings(Path, java.util.function.Function)}).
     */
    public static Result loadWithWarnings(Path file) throws JobFileException {
        return loadWithWarnings(file, System::getenv);
    }

    /**
     * Loads and validates a job file and returns the definition together with its warnings.
     *
     * @param env the environment as the models see it: a model without base URL is called at its
     *     {@code OPENAI_BASE_URL}, which the same-model warning resolves
     */
    public static Result loadWithWarnings(Path file,
            java.util.function.Function<String, @org.jspecify.annotations.Nullable String> env) throws JobFileException {
        JobFileLoader loader = new JobFileLoader(file, env);
        JobDefinition definition = loader.read();
        return new Result(definition, loader.warnings);
    }

    // ------------------------------------------------------------------ parsing

    private JobDefinition read() throws JobFileException {
        Node root = compose();
        checkTags(root, Collections.newSetFromMap(new IdentityHashMap<>()));
        if (!(root instanceof MappingNode)) {
            throw error(null, root, "expected a mapping of keys at the top level, got " + describe(root));
        }
        Obj top = new Obj(root, "", TOP_KEYS);

        String name = top.reqString("name");
        if (!NAME.matcher(name).matches()) {
            throw top.err("name", "must be a safe path segment matching " + NAME.pattern() + ", got '" + name + "'");
        }
        InputSpec input = input(top.reqObj("input", INPUT_KEYS));
        String taskSpec = top.reqString("task-spec");
        List<Criterion> rubric = rubric(top);
        SamplingSpec sampling = sampling(top.optObj("sampling", SAMPLING_KEYS));
        SantaSpec santa = santa(top.optObj("santa", SANTA_KEYS));
        List<ReviewerSpec> reviewers = reviewers(top, rubric);
        FixerSpec fixer = fixer(top.optObj("fixer", FIXER_KEYS));
        MatcherSpec matcher = matcher(top.optObj("matcher", MATCHER_KEYS), fixer, reviewers, top);
        Obj runObj = top.optObj("run", RUN_KEYS);
        RunSpec run = new RunSpec(
                runObj.intIn("chunk-size", 500, 1, 100_000), runObj.intIn("concurrency", 4, 1, 256));
        BudgetSpec budget = budget(top.optObj("budget", BUDGET_KEYS));
        GovernorSpec governor = governor(top.optObj("governor", GOVERNOR_KEYS));
        Obj carryObj = top.optObj("carry-over", CARRY_OVER_KEYS);
        double targetBound = carryObj.number("target-bound", CarryOverSpec.DEFAULT_TARGET_BOUND);
        if (!(targetBound > 0 && targetBound < 1)) {
            throw carryObj.err("target-bound", "must be greater than 0 and less than 1, got " + carryObj.raw("target-bound"));
        }
        CarryOverSpec carryOver = new CarryOverSpec(carryObj.bool("enabled", true),
                carryObj.intIn("max-age", CarryOverSpec.DEFAULT_MAX_AGE, 1, 1000), targetBound);
        JobDefinition job = new JobDefinition(file, name, input, taskSpec, rubric, sampling, santa, reviewers, fixer,
                matcher, run, budget, governor,
                Collections.unmodifiableMap(new LinkedHashMap<>(canaries)), carryOver);
        for (String same : job.sameModelReviewers(env)) {
            warnings.add(format("reviewers", top.node("reviewers"), "reviewers " + same
                    + " use the same endpoint and model: they share its biases, so their agreement says little;"
                    + " use models of different families (see README, 'Model reviewers')"));
        }
        return job;
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
            Throwable cause = e.getCause();
            if (cause instanceof CharacterCodingException) {
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

    // ------------------------------------------------------------------ sections

    private InputSpec input(Obj o) throws JobFileException {
        Path path = existingFile(o, "path", true);
        String idColumn = o.reqString("id-column");
        String contentColumn = o.reqString("content-column");
        String categoryColumn = o.optString("category-column");
        List<String> sourceColumns = o.stringList("source-columns", false, true);
        this.sourceColumns = sourceColumns == null ? List.of() : sourceColumns;
        Path groundTruth = o.has("ground-truth") ? existingFile(o, "ground-truth", false) : null;
        return new InputSpec(path, idColumn, contentColumn, categoryColumn, sourceColumns, groundTruth);
    }

    private @Nullable Path existingFile(Obj o, String key, boolean required) throws JobFileException {
        String value = required ? o.reqString(key) : o.optString(key);
        if (value == null) {
            return null;
        }
        Path resolved;
        try {
            resolved = baseDir.resolve(value).normalize();
        } catch (RuntimeException e) {
            throw o.err(key, "not a valid path: '" + value + "'");
        }
        if (!Files.exists(resolved)) {
            throw o.err(key, "file not found: " + resolved);
        }
        if (!Files.isRegularFile(resolved)) {
            throw o.err(key, "not a regular file: " + resolved);
        }
        if (!Files.isReadable(resolved)) {
            throw o.err(key, "file not readable: " + resolved);
        }
        return resolved;
    }

    private List<Criterion> rubric(Obj top) throws JobFileException {
        List<Node> items = top.reqList("rubric", true);
        List<Criterion> rubric = new ArrayList<>();
        Map<String, String> criterionIds = new LinkedHashMap<>();
        Map<String, String> ruleIds = new LinkedHashMap<>();
        for (int i = 0; i < items.size(); i++) {
            String path = "rubric[" + i + "]";
            Obj c = new Obj(items.get(i), path, CRITERION_KEYS);
            String id = c.reqString("id");
            if (!CRITERION_ID.matcher(id).matches()) {
                throw c.err("id", "must match " + CRITERION_ID.pattern() + " (lower case, digits, dashes), got '" + id + "'");
            }
            String previous = criterionIds.putIfAbsent(id, path);
            if (previous != null) {
                throw c.err("id", "duplicate criterion id '" + id + "' (already used by " + previous + ")");
            }
            String name = c.has("name") ? c.reqString("name") : id;
            String pass = c.reqString("pass");
            String failSignal = c.reqString("fail-signal");
            List<RuleSpec> rules = new ArrayList<>();
            List<Node> ruleNodes = c.list("rules", false);
            for (int j = 0; j < ruleNodes.size(); j++) {
                String rulePath = path + ".rules[" + j + "]";
                RuleSpec rule = rule(new Obj(ruleNodes.get(j), rulePath, ALL_RULE_KEYS));
                String previousRule = ruleIds.putIfAbsent(rule.id(), rulePath);
                if (previousRule != null) {
                    throw error(rulePath + ".id", ruleNodes.get(j),
                            "duplicate rule id '" + rule.id() + "' (already used by " + previousRule + ")");
                }
                rules.add(rule);
            }
            CheckedBy checkedBy = c.enumValue("checked-by", null, CheckedBy.class);
            if (checkedBy == null) {
                checkedBy = rules.isEmpty() ? CheckedBy.SANTA : CheckedBy.RULES;
            } else if (checkedBy != CheckedBy.SANTA && rules.isEmpty()) {
                throw c.err("checked-by", "checked-by " + kebab(checkedBy) + " needs at least one rule in 'rules'");
            }
            if (checkedBy == CheckedBy.SANTA && !rules.isEmpty()) {
                warnings.add(format(c.key("checked-by"), c.node("checked-by"), "criterion '" + id
                        + "' has rules but is checked by santa only; its rules are not run (use checked-by both)"));
            }
            Criterion criterion = new Criterion(id, name, pass, failSignal, checkedBy, List.copyOf(rules));
            List<CanaryKind> kinds = canaryKinds(c, criterion);
            if (!kinds.isEmpty()) {
                canaries.put(id, kinds);
            }
            rubric.add(criterion);
        }
        return List.copyOf(rubric);
    }

    /**
     * A criterion's canary kinds: {@code canaries} as written (a list of kinds, possibly empty: no
     * canaries), else the default for its id and wording ({@link #defaultCanaries}). A criterion
     * checked by rules only has none: canaries test the panel.
     */
    private List<CanaryKind> canaryKinds(Obj c, Criterion criterion) throws JobFileException {
        if (!c.has("canaries")) {
            return criterion.reviewedBySanta() ? defaultCanaries(criterion) : List.of();
        }
        List<String> ids = c.stringList("canaries", false, true);
        List<Node> nodes = c.list("canaries", false);
        if (!ids.isEmpty() && !criterion.reviewedBySanta()) {
            throw c.err("canaries", "criterion '" + criterion.id() + "' is checked by rules only; canaries test the"
                    + " panel (checked-by santa or both), the pre-pass reports rules-only criteria");
        }
        List<CanaryKind> kinds = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            String k = ids.get(i);
            CanaryKind kind = CanaryKind.of(k).orElse(null);
            if (kind == null) {
                throw error(c.key("canaries") + "[" + i + "]", nodes.get(i),
                        "unknown canary kind '" + k + "' (known: " + CanaryKind.ids() + ")");
            }
            kinds.add(kind);
        }
        return List.copyOf(kinds);
    }

    /**
     * The default canary kinds of a Santa criterion, by what it is about: a criterion about what the
     * text is about (its id or pass condition speaks of specification, topic, another product or
     * item) gets {@code foreign-sentence}; one about originality (original, boilerplate, copy,
     * duplicate, reused) gets {@code boilerplate}; one about facts or numbers gets {@code
     * changed-number}. The default job's: on-specification, original (factual-accuracy is rules only).
     */
    static List<CanaryKind> defaultCanaries(Criterion criterion) {
        String text = (criterion.id() + " " + criterion.name() + " " + criterion.pass() + " " + criterion.failSignal())
                .toLowerCase(java.util.Locale.ROOT);
        String id = criterion.id();
        if (id.contains("original") || id.contains("boilerplate") || id.contains("duplicate")) {
            return List.of(CanaryKind.BOILERPLATE);
        }
        if (id.contains("spec") || id.contains("topic") || id.contains("relevan")) {
            return List.of(CanaryKind.FOREIGN_SENTENCE);
        }
        if (id.contains("fact") || id.contains("accura") || id.contains("number")) {
            return List.of(CanaryKind.CHANGED_NUMBER);
        }
        if (text.contains("boilerplate") || text.contains("copy") || text.contains("reused") || text.contains("duplicate")) {
            return List.of(CanaryKind.BOILERPLATE);
        }
        if (text.contains("another product") || text.contains("another item") || text.contains("unrelated")
                || text.contains("off-topic") || text.contains("off topic")) {
            return List.of(CanaryKind.FOREIGN_SENTENCE);
        }
        if (text.contains("number") || text.contains("source facts") || text.contains("contradict")) {
            return List.of(CanaryKind.CHANGED_NUMBER);
        }
        return List.of();
    }

    private RuleSpec rule(Obj r) throws JobFileException {
        String id = r.reqString("id");
        if (!RULE_ID.matcher(id).matches()) {
            throw r.err("id", "must match " + RULE_ID.pattern() + ", got '" + id + "'");
        }
        String type = r.reqChoice("type", RULE_KEYS.keySet());
        r.allow(RULE_KEYS.get(type), "a " + type + " rule");
        switch (type) {
            case "forbidden-terms" -> {
                List<String> terms = r.stringList("terms", false, true);
                List<String> patterns = r.stringList("patterns", false, false);
                List<Node> patternNodes = r.list("patterns", false);
                for (int k = 0; k < patterns.size(); k++) {
                    try {
                        Pattern.compile(patterns.get(k));
                    } catch (PatternSyntaxException e) {
                        throw error(r.key("patterns") + "[" + k + "]", patternNodes.get(k),
                                "invalid regular expression: " + e.getDescription()
                                        + (e.getIndex() >= 0 ? " near index " + e.getIndex() : ""));
                    }
                }
                if (terms.isEmpty() && patterns.isEmpty()) {
                    throw r.err(r.has("terms") ? "terms" : null,
                            "a forbidden-terms rule needs at least one entry in 'terms' or 'patterns'");
                }
                Map<String, String> replacements = r.stringMap("replacements");
                Set<String> lowerTerms = new LinkedHashSet<>();
                terms.forEach(t -> lowerTerms.add(t.toLowerCase(Locale.ROOT)));
                for (String term : replacements.keySet()) {
                    if (!lowerTerms.contains(term.toLowerCase(Locale.ROOT))) {
                        throw error(r.key("replacements") + "." + term, r.keyNodeIn("replacements", term),
                                "replacement for '" + term + "', which is not in 'terms'");
                    }
                }
                FixKind fix = r.fix(FixKind.NONE, FixKind.SUBSTITUTE, FixKind.REMOVE_SENTENCE);
                if (fix == FixKind.SUBSTITUTE) {
                    Set<String> replaced = new LinkedHashSet<>();
                    replacements.keySet().forEach(t -> replaced.add(t.toLowerCase(Locale.ROOT)));
                    for (String term : terms) {
                        if (!replaced.contains(term.toLowerCase(Locale.ROOT))) {
                            Node at = r.has("replacements") ? r.node("replacements") : r.node("fix");
                            throw error(r.key("replacements") + "." + term, at,
                                    "fix substitute needs a replacement for every term; '" + term + "' has none");
                        }
                    }
                }
                return new RuleSpec.ForbiddenTerms(id, terms, patterns, replacements, fix);
            }
            case "required-phrase" -> {
                Obj when = r.reqObj("when", WHEN_KEYS);
                String column = when.reqString("column");
                requireSourceColumn(when, column);
                List<String> values = when.stringList("values", true, true);
                String phrase = r.reqString("phrase");
                FixKind fix = r.fix(FixKind.NONE, FixKind.APPEND);
                return new RuleSpec.RequiredPhrase(id, column, values, phrase, fix);
            }
            case "length" -> {
                Integer min = r.optIntIn("min", 0, Integer.MAX_VALUE);
                Integer max = r.optIntIn("max", 0, Integer.MAX_VALUE);
                if (min == null && max == null) {
                    throw r.err(null, "a length rule needs 'min', 'max' or both");
                }
                if (min != null && max != null && min > max) {
                    throw r.err("max", "max (" + max + ") is less than min (" + min + ")");
                }
                FixKind fix = r.fix(FixKind.NONE);
                return new RuleSpec.Length(id, min, max, fix);
            }
            case "number-grounding" -> {
                List<Node> nodes = r.reqList("attributes", true);
                List<GroundedAttribute> attributes = new ArrayList<>();
                for (int k = 0; k < nodes.size(); k++) {
                    Obj a = new Obj(nodes.get(k), r.key("attributes") + "[" + k + "]", ATTRIBUTE_KEYS);
                    String column = a.reqString("column");
                    requireSourceColumn(a, column);
                    Unit unit = unit(a);
                    List<String> keywords = a.stringList("keywords", true, true);
                    attributes.add(new GroundedAttribute(column, unit, keywords));
                }
                FixKind fix = r.fix(FixKind.NONE, FixKind.CORRECT, FixKind.REMOVE_SENTENCE);
                return new RuleSpec.NumberGrounding(id, List.copyOf(attributes), fix);
            }
            default -> throw new IllegalStateException(type);
        }
    }

    /**
     * A grounded attribute's unit: one of {@link Unit}, every one of which the number-grounding rule
     * finds in text. Any other name (a currency among them) would check nothing, so it is an error.
     */
    private static Unit unit(Obj a) throws JobFileException {
        String name = a.reqString("unit");
        return Unit.ofKey(name).orElseThrow(() -> a.err("unit", "number grounding cannot find '" + name
                + "' in text; the units it finds: " + String.join(", ", Arrays.stream(Unit.values()).map(Unit::key)
                        .toList()) + " (currency amounts are not grounded)"));
    }

    private SamplingSpec sampling(Obj o) throws JobFileException {
        boolean allowOutside = o.bool("allow-rate-outside-range", false);
        double rate = o.number("rate", 0.12);
        if (allowOutside) {
            if (!(rate > 0 && rate <= 1)) {
                throw o.err("rate", "must be greater than 0 and at most 1, got " + o.raw("rate"));
            }
        } else if (rate < 0.10 || rate > 0.15) {
            throw o.err("rate", "must be between 0.10 and 0.15 (or set allow-rate-outside-range: true), got "
                    + o.raw("rate"));
        }
        int minSize = o.intIn("min-size", 5, 1, Integer.MAX_VALUE);
        int fullReviewBelow = o.intIn("full-review-below", 100, 0, Integer.MAX_VALUE);
        Long seed = o.has("seed") ? o.longIn("seed", Long.MIN_VALUE, Long.MAX_VALUE) : null;
        return new SamplingSpec(rate, allowOutside, minSize, fullReviewBelow, seed);
    }

    private SantaSpec santa(Obj o) throws JobFileException {
        return new SantaSpec(
                o.intIn("max-iterations", 3, 1, 10),
                o.intIn("max-rounds", 5, 1, 100),
                o.intIn("systematic-min-items", 2, 1, Integer.MAX_VALUE),
                o.numberIn("failed-review-threshold", 0.10, 0, 1),
                o.numberIn("low-agreement-kappa", 0.4, -1, 1),
                o.numberIn("pattern-similarity", 0.45, 0, 1),
                o.intIn("audit-size", 20, 0, 10_000),
                o.has("acceptance-number") ? o.intIn("acceptance-number", 0, 0, ACCEPTANCE_NUMBER_MAX) : null,
                new FitSpec(
                        o.numberIn("canary-share", FitSpec.DEFAULT_CANARY_SHARE, 0, 1),
                        o.intIn("min-canaries", FitSpec.DEFAULT_MIN_CANARIES, 0, 1000),
                        o.numberIn("min-panel-sensitivity", FitSpec.DEFAULT_MIN_PANEL_SENSITIVITY, 0, 1),
                        o.numberIn("max-false-flag-rate", FitSpec.DEFAULT_MAX_FALSE_FLAG_RATE, 0, 1),
                        o.numberIn("max-fail-share", FitSpec.DEFAULT_MAX_FAIL_SHARE, 0, 1)));
    }

    private List<ReviewerSpec> reviewers(Obj top, List<Criterion> rubric) throws JobFileException {
        List<String> santaIds = rubric.stream().filter(Criterion::reviewedBySanta).map(Criterion::id).toList();
        List<ReviewerSpec> reviewers = new ArrayList<>();
        if (!top.has("reviewers")) {
            reviewers.add(new ReviewerSpec("B", "lexical", santaIds, null, Map.of()));
            reviewers.add(new ReviewerSpec("C", "semantic", santaIds, null, Map.of()));
            return List.copyOf(reviewers);
        }
        List<Node> nodes = top.reqList("reviewers", false);
        if (nodes.size() < 2 || nodes.size() > 3) {
            throw top.err("reviewers", "expected 2 or 3 reviewers, got " + nodes.size());
        }
        Map<String, String> ids = new LinkedHashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            String path = "reviewers[" + i + "]";
            Obj r = new Obj(nodes.get(i), path, REVIEWER_KEYS);
            String id = r.reqString("id");
            if (!REVIEWER_ID.matcher(id).matches()) {
                throw r.err("id", "must match " + REVIEWER_ID.pattern() + ", got '" + id + "'");
            }
            String previous = ids.putIfAbsent(id, path);
            if (previous != null) {
                throw r.err("id", "duplicate reviewer id '" + id + "' (already used by " + previous + ")");
            }
            String type = r.reqChoice("type", List.of("llm", "lexical", "semantic"));
            List<String> criteria;
            if (r.has("criteria")) {
                criteria = r.stringList("criteria", false, true);
                List<Node> critNodes = r.list("criteria", false);
                for (int k = 0; k < criteria.size(); k++) {
                    String cid = criteria.get(k);
                    Criterion c = rubric.stream().filter(x -> x.id().equals(cid)).findFirst().orElse(null);
                    String key = r.key("criteria") + "[" + k + "]";
                    if (c == null) {
                        throw error(key, critNodes.get(k), "no criterion '" + cid + "' in the rubric; Santa criteria: "
                                + String.join(", ", santaIds));
                    }
                    if (!c.reviewedBySanta()) {
                        throw error(key, critNodes.get(k), "criterion '" + cid
                                + "' is checked by rules only; reviewers judge only criteria checked-by santa or both");
                    }
                }
                if (type.equals("llm") && !Set.copyOf(criteria).containsAll(santaIds)) {
                    throw r.err("criteria", "an llm reviewer judges every Santa criterion; omit 'criteria' or list all of: "
                            + String.join(", ", santaIds));
                }
                if (criteria.isEmpty() && !santaIds.isEmpty()) {
                    throw r.err("criteria", "a reviewer must judge at least one criterion");
                }
            } else {
                criteria = santaIds;
            }
            ModelSpec model = null;
            Map<String, Double> thresholds = Map.of();
            if (type.equals("llm")) {
                if (!r.has("model")) {
                    throw r.err("model", "required for an llm reviewer");
                }
                model = model(r.reqObj("model", MODEL_KEYS));
                if (r.has("thresholds")) {
                    throw r.err("thresholds", "only offline reviewers (lexical, semantic) take thresholds");
                }
            } else {
                if (r.has("model")) {
                    throw r.err("model", "only an llm reviewer takes a model");
                }
                thresholds = r.numberMap("thresholds");
                try {
                    // each method validates its own threshold names and values
                    if ("lexical".equals(type)) {
                        dev.santabatch.lexical.LexicalThresholds.of(thresholds);
                    } else {
                        dev.santabatch.semantic.SemanticSettings.from(thresholds);
                    }
                } catch (IllegalArgumentException e) {
                    throw r.err("thresholds", e.getMessage());
                }
            }
            reviewers.add(new ReviewerSpec(id, type, List.copyOf(criteria), model, thresholds));
        }
        // coverage: every Santa criterion needs a reviewer, and should have two
        List<Node> rubricNodes = top.list("rubric", true);
        for (int i = 0; i < rubric.size(); i++) {
            Criterion c = rubric.get(i);
            if (!c.reviewedBySanta()) {
                continue;
            }
            List<String> judges = reviewers.stream()
                    .filter(r -> r.criteria().contains(c.id()))
                    .map(ReviewerSpec::id)
                    .toList();
            Obj co = new Obj(rubricNodes.get(i), "rubric[" + i + "]", CRITERION_KEYS);
            String key = "checked-by"; // the value's line, or the criterion's line when the key is absent
            if (judges.isEmpty()) {
                throw co.err(key, "criterion '" + c.id()
                        + "' is checked by santa but no reviewer judges it; add it to a reviewer's criteria");
            }
            if (judges.size() == 1) {
                warnings.add(format(co.key(key), co.node(key), "criterion '" + c.id()
                        + "' is judged by only one reviewer (" + judges.get(0) + "); it is not dual-reviewed"));
            }
        }
        return List.copyOf(reviewers);
    }

    private FixerSpec fixer(Obj o) throws JobFileException {
        String type = o.has("type") ? o.reqChoice("type", List.of("offline", "llm")) : "offline";
        ModelSpec model = null;
        if (type.equals("llm")) {
            if (!o.has("model")) {
                throw o.err("model", "required for an llm fixer");
            }
            model = model(o.reqObj("model", MODEL_KEYS));
        } else if (o.has("model")) {
            throw o.err("model", "only an llm fixer takes a model");
        }
        return new FixerSpec(type, model);
    }

    private MatcherSpec matcher(Obj o, FixerSpec fixer, List<ReviewerSpec> reviewers, Obj top) throws JobFileException {
        double share = o.numberIn("max-candidate-share", 0.25, 0, 1);
        if (o.has("max-candidate-share") && share <= 0) {
            throw o.err("max-candidate-share", "must be greater than 0, got " + o.raw("max-candidate-share"));
        }
        double floor = o.numberIn("min-similarity", MatcherSpec.DEFAULT_MIN_SIMILARITY, 0, 1);
        if (o.has("model")) {
            return new MatcherSpec(model(o.reqObj("model", MODEL_KEYS)), false, share, floor);
        }
        if (fixer.model() != null) {
            return new MatcherSpec(fixer.model(), true, share, floor);
        }
        if (reviewers.stream().anyMatch(r -> "llm".equals(r.type()))) {
            warnings.add(format("matcher", top.node("matcher"), "the panel has a model reviewer but no matcher"
                    + " model is named (matcher.model, or an llm fixer's model): the batch fix would run the whole panel,"
                    + " its model calls included, on every eligible item; name a matcher model"));
        }
        return new MatcherSpec(null, false, share, floor);
    }

    private GovernorSpec governor(Obj o) throws JobFileException {
        GovernorSpec d = GovernorSpec.DEFAULTS;
        Duration initial = o.duration("initial-backoff", d.initialBackoff());
        Duration max = o.duration("max-backoff", d.maxBackoff());
        if (max.compareTo(initial) < 0) {
            throw o.err("max-backoff", "max-backoff (" + o.raw("max-backoff") + ") is less than initial-backoff ("
                    + (o.has("initial-backoff") ? o.raw("initial-backoff") : "the default 1s") + ")");
        }
        return new GovernorSpec(
                o.intIn("max-in-flight-per-endpoint", d.maxInFlightPerEndpoint(), 1, 1024),
                o.intIn("max-in-flight-per-model", d.maxInFlightPerModel(), 1, 1024),
                o.intIn("requests-per-minute-per-model", d.requestsPerMinutePerModel(), 0, 1_000_000),
                o.intIn("max-attempts", d.maxAttempts(), 1, 20),
                initial,
                max,
                o.numberIn("jitter", d.jitter(), 0, 1),
                o.duration("max-retry-after", d.maxRetryAfter()),
                o.bool("log-requests", d.logRequests()),
                o.intIn("circuit-breaker-failures", d.circuitBreakerFailures(), 0, 100_000));
    }

    private ModelSpec model(Obj o) throws JobFileException {
        String baseUrl = o.optString("base-url");
        if (baseUrl != null) {
            try {
                URI uri = new URI(baseUrl);
                if (uri.getRawUserInfo() != null) {
                    throw o.err("base-url", NEVER_THE_KEY + " (remove the credentials from the URL)");
                }
                String scheme = uri.getScheme();
                if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
                        || uri.getHost() == null) {
                    throw o.err("base-url", "must be an http or https URL, got '" + baseUrl + "'");
                }
            } catch (URISyntaxException e) {
                throw o.err("base-url", "must be an http or https URL, got '" + baseUrl + "'");
            }
        }
        String model = o.reqString("model");
        String apiKeyEnv = DEFAULT_API_KEY_ENV;
        if (o.has("api-key-env")) {
            Node n = o.node("api-key-env");
            if (!(n instanceof ScalarNode s)) {
                throw o.err("api-key-env", "expected an environment variable name, got " + describe(n));
            }
            apiKeyEnv = s.getValue().trim();
            if (!ENV_NAME.matcher(apiKeyEnv).matches()) {
                if (looksLikeSecret(apiKeyEnv)) {
                    throw o.err("api-key-env", NEVER_THE_KEY + " (the value looks like a secret; name the variable that holds it, e.g. OPENAI_API_KEY)");
                }
                throw o.err("api-key-env", "expected an environment variable name matching " + ENV_NAME.pattern()
                        + ", e.g. OPENAI_API_KEY");
            }
        }
        double temperature = o.numberIn("temperature", 0.0, 0, 2);
        Duration timeout = o.duration("timeout", Duration.ofSeconds(60));
        int maxOutputTokens = o.intIn("max-output-tokens", 1024, 1, 1_000_000);
        StructuredOutput structured = o.enumValue("structured-output", StructuredOutput.JSON_SCHEMA, StructuredOutput.class);
        Double priceIn = o.has("price-input-per-million") ? o.numberIn("price-input-per-million", 0, 0, Double.MAX_VALUE) : null;
        Double priceOut = o.has("price-output-per-million") ? o.numberIn("price-output-per-million", 0, 0, Double.MAX_VALUE) : null;
        ModelSpec.ReasoningEffort effort = o.enumValue("reasoning-effort", ModelSpec.ReasoningEffort.NONE,
                ModelSpec.ReasoningEffort.class);
        if (effort != ModelSpec.ReasoningEffort.NONE && o.has("temperature")) {
            throw o.err("temperature", "a reasoning model (reasoning-effort: " + kebab(effort)
                    + ") takes no temperature; remove it");
        }
        return new ModelSpec(baseUrl, model, apiKeyEnv, temperature, timeout, maxOutputTokens, structured, priceIn, priceOut,
                effort);
    }

    static boolean looksLikeSecret(String value) {
        if (value.startsWith("sk-") || value.startsWith("sk_") || value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return true;
        }
        boolean lower = value.chars().anyMatch(Character::isLowerCase);
        boolean digit = value.chars().anyMatch(Character::isDigit);
        return value.length() >= 16 && lower && digit && !value.contains(" ");
    }

    private BudgetSpec budget(Obj o) throws JobFileException {
        return new BudgetSpec(
                o.optPositiveLong("max-calls"),
                o.optPositiveLong("max-tokens"),
                o.optPositiveNumber("max-cost"),
                o.optPositiveLong("max-calls-per-round"),
                o.optPositiveLong("max-tokens-per-round"),
                o.optPositiveNumber("max-cost-per-round"));
    }

    // ------------------------------------------------------------------ helpers

    /**
     * A rule reads its column from the item's source facts: a column outside {@code
     * input.source-columns} (when they are listed) would never reach it, and the rule would silently
     * check nothing. Whether the column is in the catalog's header is checked when the run opens it.
     */
    private void requireSourceColumn(Obj o, String column) throws JobFileException {
        if (!sourceColumns.isEmpty() && !sourceColumns.contains(column)) {
            throw o.err("column", "column '" + column + "' is not in input.source-columns " + sourceColumns
                    + ": the rule would never see it; add it there (or leave source-columns out: every column)");
        }
    }

    private JobFileException error(@Nullable String key, @Nullable Node node, String problem) {
        return new JobFileException(file, key, line(node), problem);
    }

    private String format(@Nullable String key, @Nullable Node node, String problem) {
        return new JobFileException(file, key, line(node), problem).getMessage();
    }

    private static int line(@Nullable Node node) {
        return node == null || node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
    }

    static String describe(Node node) {
        if (node instanceof MappingNode) {
            return "a mapping";
        }
        if (node instanceof SequenceNode) {
            return "a list";
        }
        if (node instanceof ScalarNode s) {
            if (s.getTag().equals(Tag.NULL)) {
                return "nothing (null)";
            }
            String v = s.getValue();
            if (v.length() > 40) {
                v = v.substring(0, 40) + "...";
            }
            return "'" + v.replace("\n", "\\n") + "'";
        }
        return "an unexpected node";
    }

    private static String kebab(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static String firstLine(@Nullable String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
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

    private static String fmt(double d) {
        return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }

    /** A mapping node with its dotted path, duplicate-checked and checked against the allowed keys. */
    private final class Obj {
        private final String path;
        private final Node node;
        private final Map<String, NodeTuple> entries = new LinkedHashMap<>();

        /** An absent section: every key is absent, so every default applies. */
        Obj(String path) {
            this.path = path;
            this.node = null;
        }

        Obj(Node node, String path, List<String> allowed) throws JobFileException {
            this.path = path;
            this.node = node;
            if (!(node instanceof MappingNode mapping)) {
                throw error(path.isEmpty() ? null : path, node, "expected a mapping of keys, got " + describe(node));
            }
            for (NodeTuple t : mapping.getValue()) {
                Node k = t.getKeyNode();
                if (k.getTag().equals(Tag.MERGE)) {
                    throw error(key("<<"), k, "YAML merge keys (<<) are not supported");
                }
                if (!(k instanceof ScalarNode ks)) {
                    throw error(path.isEmpty() ? null : path, k, "keys must be plain strings, got " + describe(k));
                }
                NodeTuple previous = entries.putIfAbsent(ks.getValue(), t);
                if (previous != null) {
                    throw error(key(ks.getValue()), k,
                            "duplicate key (first given on line " + line(previous.getKeyNode()) + ")");
                }
            }
            allow(allowed, null);
        }

        void allow(List<String> allowed, @Nullable String where) throws JobFileException {
            for (Map.Entry<String, NodeTuple> e : entries.entrySet()) {
                String k = e.getKey();
                if (allowed.contains(k)) {
                    continue;
                }
                Node at = e.getValue().getKeyNode();
                if (SECRET_KEY.matcher(k).find()) {
                    throw error(key(k), at, NEVER_THE_KEY
                            + (allowed.contains("api-key-env") ? " (use api-key-env)" : ""));
                }
                String suggestion = closest(k, allowed);
                throw error(key(k), at, "unknown key" + (where != null ? " for " + where : "")
                        + (suggestion != null ? " (did you mean '" + suggestion + "'?)" : "")
                        + "; allowed here: " + String.join(", ", allowed));
            }
        }

        String key(@Nullable String k) {
            if (k == null) {
                return path.isEmpty() ? null : path;
            }
            return path.isEmpty() ? k : path + "." + k;
        }

        /** True when the key is present with a non-null value. */
        boolean has(String k) {
            NodeTuple t = entries.get(k);
            return t != null && !t.getValueNode().getTag().equals(Tag.NULL);
        }

        @Nullable Node node(String k) {
            NodeTuple t = entries.get(k);
            return t == null ? node : t.getValueNode();
        }

        Node keyNodeIn(String mapKey, String innerKey) {
            Node m = node(mapKey);
            if (m instanceof MappingNode mn) {
                for (NodeTuple t : mn.getValue()) {
                    if (t.getKeyNode() instanceof ScalarNode s && s.getValue().equals(innerKey)) {
                        return t.getKeyNode();
                    }
                }
            }
            return m;
        }

        /** An error at a key's value (or at this mapping when the key is absent or null). */
        JobFileException err(@Nullable String k, String problem) {
            return error(key(k), k == null ? node : node(k), problem);
        }

        JobFileException missing(String k) {
            return error(key(k), node, "required key is missing");
        }

        String raw(String k) {
            Node n = node(k);
            return n instanceof ScalarNode s ? s.getValue() : describe(n);
        }

        private ScalarNode scalar(String k, String expected) throws JobFileException {
            Node n = node(k);
            if (!(n instanceof ScalarNode s) || s.getTag().equals(Tag.NULL)) {
                throw err(k, "expected " + expected + ", got " + describe(n));
            }
            return s;
        }

        String reqString(String k) throws JobFileException {
            if (!has(k)) {
                if (entries.containsKey(k)) {
                    throw err(k, "a value is required");
                }
                throw missing(k);
            }
            String v = scalar(k, "a string").getValue();
            if (v.isBlank()) {
                throw err(k, "must not be blank");
            }
            return v.strip();
        }

        @Nullable String optString(String k) throws JobFileException {
            return has(k) ? reqString(k) : null;
        }

        String reqChoice(String k, java.util.Collection<String> allowed) throws JobFileException {
            String v = reqString(k);
            if (!allowed.contains(v)) {
                throw err(k, "invalid value '" + v + "'; allowed: " + String.join(", ", allowed));
            }
            return v;
        }

        <E extends Enum<E>> @Nullable E enumValue(String k, @Nullable E def, Class<E> type) throws JobFileException {
            if (!has(k)) {
                return def;
            }
            List<String> allowed = java.util.Arrays.stream(type.getEnumConstants()).map(JobFileLoader::kebab).toList();
            String v = reqChoice(k, allowed);
            return type.getEnumConstants()[allowed.indexOf(v)];
        }

        FixKind fix(FixKind... allowed) throws JobFileException {
            if (!has("fix")) {
                return FixKind.NONE;
            }
            List<String> names = java.util.Arrays.stream(allowed).map(JobFileLoader::kebab).toList();
            String v = reqString("fix");
            if (!names.contains(v)) {
                throw err("fix", "invalid value '" + v + "'; allowed for this rule type: " + String.join(", ", names));
            }
            return allowed[names.indexOf(v)];
        }

        boolean bool(String k, boolean def) throws JobFileException {
            if (!has(k)) {
                return def;
            }
            ScalarNode s = scalar(k, "true or false");
            String v = s.getValue().toLowerCase(Locale.ROOT);
            if (v.equals("true")) {
                return true;
            }
            if (v.equals("false")) {
                return false;
            }
            throw err(k, "expected true or false, got " + describe(s));
        }

        long longIn(String k, long min, long max) throws JobFileException {
            ScalarNode s = scalar(k, "an integer");
            String v = s.getValue().trim();
            long value;
            try {
                if (!INTEGER.matcher(v).matches()) {
                    throw new NumberFormatException();
                }
                value = Long.parseLong(v.replace("_", ""));
            } catch (NumberFormatException e) {
                throw err(k, "expected an integer, got " + describe(s));
            }
            if (value < min || value > max) {
                throw err(k, rangeProblem(String.valueOf(min), String.valueOf(max), min == Long.MIN_VALUE,
                        max == Long.MAX_VALUE || max == Integer.MAX_VALUE, v));
            }
            return value;
        }

        int intIn(String k, int def, int min, int max) throws JobFileException {
            return has(k) ? (int) longIn(k, min, max) : def;
        }

        @Nullable Integer optIntIn(String k, int min, int max) throws JobFileException {
            return has(k) ? (int) longIn(k, min, max) : null;
        }

        @Nullable Long optPositiveLong(String k) throws JobFileException {
            if (!has(k)) {
                return null;
            }
            long v = longIn(k, Long.MIN_VALUE, Long.MAX_VALUE);
            if (v <= 0) {
                throw err(k, "must be greater than 0, got " + raw(k));
            }
            return v;
        }

        private double parseNumber(ScalarNode s, String k) throws JobFileException {
            String v = s.getValue().trim();
            if (!NUMBER.matcher(v).matches()) {
                throw err(k, "expected a number, got " + describe(s));
            }
            try {
                return Double.parseDouble(v.replace("_", ""));
            } catch (NumberFormatException e) {
                throw err(k, "expected a number, got " + describe(s));
            }
        }

        double number(String k, double def) throws JobFileException {
            return has(k) ? parseNumber(scalar(k, "a number"), k) : def;
        }

        double numberIn(String k, double def, double min, double max) throws JobFileException {
            double v = number(k, def);
            if (has(k) && (v < min || v > max)) {
                throw err(k, rangeProblem(fmt(min), fmt(max), false, max == Double.MAX_VALUE, raw(k)));
            }
            return v;
        }

        @Nullable Double optPositiveNumber(String k) throws JobFileException {
            if (!has(k)) {
                return null;
            }
            double v = number(k, 0);
            if (!(v > 0)) {
                throw err(k, "must be greater than 0, got " + raw(k));
            }
            return v;
        }

        private String rangeProblem(String min, String max, boolean noMin, boolean noMax, String got) {
            if (noMax) {
                return "out of range: must be at least " + min + ", got " + got;
            }
            if (noMin) {
                return "out of range: must be at most " + max + ", got " + got;
            }
            return "out of range: must be between " + min + " and " + max + ", got " + got;
        }

        Duration duration(String k, Duration def) throws JobFileException {
            if (!has(k)) {
                return def;
            }
            ScalarNode s = scalar(k, "a duration");
            String v = s.getValue().trim();
            Duration d = null;
            Matcher m = SHORT_DURATION.matcher(v);
            if (m.matches()) {
                String unit = m.group(2) == null ? "s" : m.group(2);
                try {
                    long n = Long.parseLong(m.group(1));
                    d = switch (unit) {
                        case "ms" -> Duration.ofMillis(n);
                        case "m" -> Duration.ofMinutes(n);
                        case "h" -> Duration.ofHours(n);
                        default -> Duration.ofSeconds(n);
                    };
                } catch (NumberFormatException | ArithmeticException e) {
                    throw err(k, "duration too long, got " + describe(s));
                }
            } else {
                try {
                    d = Duration.parse(v.toUpperCase(Locale.ROOT));
                } catch (DateTimeParseException e) {
                    throw err(k, "expected a duration such as 30s, 2m, 500ms or PT30S, got " + describe(s));
                }
            }
            if (d.isNegative() || d.isZero()) {
                throw err(k, "must be a positive duration, got " + describe(s));
            }
            return d;
        }

        Obj reqObj(String k, List<String> allowed) throws JobFileException {
            if (!has(k)) {
                if (entries.containsKey(k)) {
                    throw err(k, "expected a mapping of keys, got nothing (null)");
                }
                throw missing(k);
            }
            return new Obj(node(k), key(k), allowed);
        }

        Obj optObj(String k, List<String> allowed) throws JobFileException {
            return has(k) ? new Obj(node(k), key(k), allowed) : new Obj(key(k));
        }

        List<Node> list(String k, boolean nonEmpty) throws JobFileException {
            if (!has(k)) {
                return List.of();
            }
            Node n = node(k);
            if (!(n instanceof SequenceNode seq)) {
                throw err(k, "expected a list, got " + describe(n));
            }
            if (nonEmpty && seq.getValue().isEmpty()) {
                throw err(k, "must not be empty");
            }
            return seq.getValue();
        }

        List<Node> reqList(String k, boolean nonEmpty) throws JobFileException {
            if (!has(k)) {
                if (entries.containsKey(k)) {
                    throw err(k, "expected a list, got nothing (null)");
                }
                throw missing(k);
            }
            return list(k, nonEmpty);
        }

        /** A list of non-blank strings; required when nonEmpty, else defaults to the empty list. */
        List<String> stringList(String k, boolean nonEmpty, boolean unique) throws JobFileException {
            List<Node> nodes = nonEmpty ? reqList(k, true) : list(k, false);
            List<String> out = new ArrayList<>();
            for (int i = 0; i < nodes.size(); i++) {
                Node n = nodes.get(i);
                String ik = key(k) + "[" + i + "]";
                if (!(n instanceof ScalarNode s) || s.getTag().equals(Tag.NULL)) {
                    throw error(ik, n, "expected a string, got " + describe(n));
                }
                String v = s.getValue();
                if (v.isBlank()) {
                    throw error(ik, n, "must not be blank");
                }
                v = v.strip();
                if (unique && out.contains(v)) {
                    throw error(ik, n, "duplicate entry '" + v + "'");
                }
                out.add(v);
            }
            return List.copyOf(out);
        }

        private @Nullable Obj map(String k) throws JobFileException {
            if (!has(k)) {
                return null;
            }
            Node n = node(k);
            if (!(n instanceof MappingNode)) {
                throw err(k, "expected a mapping, got " + describe(n));
            }
            Obj o = new Obj(key(k));
            for (NodeTuple t : ((MappingNode) n).getValue()) {
                if (!(t.getKeyNode() instanceof ScalarNode ks) || ks.getTag().equals(Tag.NULL)) {
                    throw error(key(k), t.getKeyNode(), "keys must be plain strings, got " + describe(t.getKeyNode()));
                }
                if (ks.getValue().isBlank()) {
                    throw error(key(k), ks, "keys must not be blank");
                }
                if (o.entries.putIfAbsent(ks.getValue(), t) != null) {
                    throw error(key(k) + "." + ks.getValue(), ks, "duplicate key");
                }
            }
            return o;
        }

        Map<String, String> stringMap(String k) throws JobFileException {
            Obj o = map(k);
            if (o == null) {
                return Map.of();
            }
            Map<String, String> out = new LinkedHashMap<>();
            for (String inner : o.entries.keySet()) {
                Node v = o.node(inner);
                if (!(v instanceof ScalarNode s) || s.getTag().equals(Tag.NULL)) {
                    throw error(o.key(inner), v, "expected a string, got " + describe(v));
                }
                out.put(inner, s.getValue());
            }
            return Collections.unmodifiableMap(out);
        }

        Map<String, Double> numberMap(String k) throws JobFileException {
            Obj o = map(k);
            if (o == null) {
                return Map.of();
            }
            Map<String, Double> out = new LinkedHashMap<>();
            for (String inner : o.entries.keySet()) {
                out.put(inner, o.parseNumber(o.scalar(inner, "a number"), inner));
            }
            return Collections.unmodifiableMap(out);
        }
    }
}
