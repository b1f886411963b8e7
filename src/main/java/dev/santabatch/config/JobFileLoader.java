package dev.santabatch.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.santabatch.config.Criterion.CheckedBy;
import dev.santabatch.config.ModelSpec.StructuredOutput;
import dev.santabatch.config.RuleSpec.FixKind;
import dev.santabatch.config.RuleSpec.GroundedAttribute;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.jspecify.annotations.Nullable;

/**
 * Reads a YAML job file into a fully resolved, validated {@link JobDefinition}.
 *
 * <p>{@link JobFileYaml} parses the file and binds it to {@link JobFile} records (unknown keys,
 * values of the wrong shape and unparseable scalars are errors there); this class applies the
 * defaults, ranges and cross-key checks. Errors are {@link JobFileException}s with the message
 * {@code <file>:<line>: key '<key>': <problem>}, the key dotted (e.g. {@code rubric[2].rules[0].fix}).
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

    static final String DEFAULT_API_KEY_ENV = "OPENAI_API_KEY";
    private static final String NEVER_THE_KEY = JobFileYaml.NEVER_THE_KEY;

    /** The keys each rule type takes (a rule's record, {@link JobFile.Rule}, has every type's). */
    private static final Map<String, List<String>> RULE_KEYS = ruleKeys();
    /** A larger acceptance number would call a sample with over a hundred failures clean. */
    private static final int ACCEPTANCE_NUMBER_MAX = 100;

    /**
     * Every key the loader accepts, as dotted paths with {@code []} for list items and {@code model.}
     * for a model mapping (under {@code reviewers[].model}, {@code fixer.model} and {@code
     * matcher.model}). The reference in {@code docs/job-file-reference.md} is tested against this list.
     */
    static List<String> referenceKeys() {
        List<String> keys = new ArrayList<>(JobFileYaml.keysOf(JobFile.class));
        addAll(keys, "input.", JobFile.Input.class);
        addAll(keys, "rubric[].", JobFile.Criterion.class);
        addAll(keys, "rubric[].rules[].", JobFile.Rule.class);
        addAll(keys, "rubric[].rules[].when.", JobFile.When.class);
        addAll(keys, "rubric[].rules[].attributes[].", JobFile.Attribute.class);
        addAll(keys, "sampling.", JobFile.Sampling.class);
        addAll(keys, "santa.", JobFile.Santa.class);
        addAll(keys, "reviewers[].", JobFile.Reviewer.class);
        addAll(keys, "fixer.", JobFile.Fixer.class);
        addAll(keys, "matcher.", JobFile.Matcher.class);
        addAll(keys, "model.", JobFile.Model.class);
        addAll(keys, "run.", JobFile.Run.class);
        addAll(keys, "budget.", JobFile.Budget.class);
        addAll(keys, "governor.", JobFile.Governor.class);
        addAll(keys, "carry-over.", JobFile.CarryOver.class);
        return List.copyOf(keys);
    }

    private static void addAll(List<String> keys, String prefix, Class<?> record) {
        JobFileYaml.keysOf(record).forEach(n -> keys.add(prefix + n));
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
    private final JobFileYaml yaml;
    /** The input's listed source columns (empty: every column), set once the input section is read. */
    private List<String> sourceColumns = List.of();
    private final List<String> warnings = new ArrayList<>();
    /** Canary kinds by criterion id, in rubric order, filled while the rubric is read. */
    private final Map<String, List<CanaryKind>> canaries = new LinkedHashMap<>();
    private final Function<String, @Nullable String> env;

    private JobFileLoader(Path file, Function<String, @Nullable String> env) {
        this.file = file;
        this.env = env;
        this.yaml = new JobFileYaml(file);
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
     * {@link #loadWithWarnings(Path, Function)}).
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
    public static Result loadWithWarnings(Path file, Function<String, @Nullable String> env) throws JobFileException {
        JobFileLoader loader = new JobFileLoader(file, env);
        JobDefinition definition = loader.read();
        return new Result(definition, loader.warnings);
    }

    // ------------------------------------------------------------------ sections

    private JobDefinition read() throws JobFileException {
        JobFile f = yaml.bind();
        String name = req("name", f.name());
        if (!NAME.matcher(name).matches()) {
            throw yaml.err("name", "must be a safe path segment matching " + NAME.pattern() + ", got '" + name + "'");
        }
        InputSpec input = input(section("input", f.input(), JobFile.Input.class, true));
        String taskSpec = req("task-spec", f.taskSpec());
        List<Criterion> rubric = rubric(f.rubric());
        SamplingSpec sampling = sampling(section("sampling", f.sampling(), JobFile.Sampling.class, false));
        SantaSpec santa = santa(section("santa", f.santa(), JobFile.Santa.class, false));
        List<ReviewerSpec> reviewers = reviewers(f.reviewers(), rubric);
        FixerSpec fixer = fixer(section("fixer", f.fixer(), JobFile.Fixer.class, false));
        MatcherSpec matcher = matcher(section("matcher", f.matcher(), JobFile.Matcher.class, false), fixer, reviewers);
        JobFile.Run r = section("run", f.run(), JobFile.Run.class, false);
        RunSpec run = new RunSpec(intIn("run.chunk-size", r.chunkSize(), 500, 1, 100_000),
                intIn("run.concurrency", r.concurrency(), 4, 1, 256));
        BudgetSpec budget = budget(section("budget", f.budget(), JobFile.Budget.class, false));
        GovernorSpec governor = governor(section("governor", f.governor(), JobFile.Governor.class, false));
        JobFile.CarryOver c = section("carry-over", f.carryOver(), JobFile.CarryOver.class, false);
        double targetBound = c.targetBound() != null ? c.targetBound() : CarryOverSpec.DEFAULT_TARGET_BOUND;
        if (!(targetBound > 0 && targetBound < 1)) {
            throw yaml.err("carry-over.target-bound",
                    "must be greater than 0 and less than 1, got " + yaml.raw("carry-over.target-bound"));
        }
        CarryOverSpec carryOver = new CarryOverSpec(c.enabled() == null || c.enabled(),
                intIn("carry-over.max-age", c.maxAge(), CarryOverSpec.DEFAULT_MAX_AGE, 1, 1000), targetBound);
        JobDefinition job = new JobDefinition(file, name, input, taskSpec, rubric, sampling, santa, reviewers, fixer,
                matcher, run, budget, governor,
                Collections.unmodifiableMap(new LinkedHashMap<>(canaries)), carryOver);
        for (String same : job.sameModelReviewers(env)) {
            warn("reviewers", "reviewers " + same
                    + " use the same endpoint and model: they share its biases, so their agreement says little;"
                    + " use models of different families (see README, 'Model reviewers')");
        }
        return job;
    }

    private InputSpec input(JobFile.Input o) throws JobFileException {
        Path path = existingFile("input.path", req("input.path", o.path()));
        String idColumn = req("input.id-column", o.idColumn());
        String contentColumn = req("input.content-column", o.contentColumn());
        List<String> sourceColumns = strings("input.source-columns", o.sourceColumns(), false, true);
        this.sourceColumns = sourceColumns;
        Path groundTruth = o.groundTruth() != null ? existingFile("input.ground-truth", o.groundTruth()) : null;
        return new InputSpec(path, idColumn, contentColumn, o.categoryColumn(), sourceColumns, groundTruth);
    }

    private Path existingFile(String key, String value) throws JobFileException {
        Path resolved;
        try {
            resolved = baseDir.resolve(value).normalize();
        } catch (RuntimeException e) {
            throw yaml.err(key, "not a valid path: '" + value + "'");
        }
        if (!Files.exists(resolved)) {
            throw yaml.err(key, "file not found: " + resolved);
        }
        if (!Files.isRegularFile(resolved)) {
            throw yaml.err(key, "not a regular file: " + resolved);
        }
        if (!Files.isReadable(resolved)) {
            throw yaml.err(key, "file not readable: " + resolved);
        }
        return resolved;
    }

    private List<Criterion> rubric(@Nullable List<JobFile.@Nullable Criterion> items) throws JobFileException {
        items = reqList("rubric", items, true);
        List<Criterion> rubric = new ArrayList<>();
        Map<String, String> criterionIds = new LinkedHashMap<>();
        Map<String, String> ruleIds = new LinkedHashMap<>();
        for (int i = 0; i < items.size(); i++) {
            String path = "rubric[" + i + "]";
            JobFile.Criterion c = item(path, items.get(i));
            String id = req(path + ".id", c.id());
            if (!CRITERION_ID.matcher(id).matches()) {
                throw yaml.err(path + ".id",
                        "must match " + CRITERION_ID.pattern() + " (lower case, digits, dashes), got '" + id + "'");
            }
            String previous = criterionIds.putIfAbsent(id, path);
            if (previous != null) {
                throw yaml.err(path + ".id", "duplicate criterion id '" + id + "' (already used by " + previous + ")");
            }
            String name = c.name() != null ? c.name() : id;
            String pass = req(path + ".pass", c.pass());
            String failSignal = req(path + ".fail-signal", c.failSignal());
            List<RuleSpec> rules = new ArrayList<>();
            List<JobFile.@Nullable Rule> ruleItems = list(path + ".rules", c.rules(), false);
            for (int j = 0; j < ruleItems.size(); j++) {
                String rulePath = path + ".rules[" + j + "]";
                RuleSpec rule = rule(rulePath, item(rulePath, ruleItems.get(j)));
                String previousRule = ruleIds.putIfAbsent(rule.id(), rulePath);
                if (previousRule != null) {
                    throw yaml.error(rulePath + ".id", yaml.node(rulePath),
                            "duplicate rule id '" + rule.id() + "' (already used by " + previousRule + ")");
                }
                rules.add(rule);
            }
            CheckedBy checkedBy = enumValue(path + ".checked-by", c.checkedBy(), null, CheckedBy.class);
            if (checkedBy == null) {
                checkedBy = rules.isEmpty() ? CheckedBy.SANTA : CheckedBy.RULES;
            } else if (checkedBy != CheckedBy.SANTA && rules.isEmpty()) {
                throw yaml.err(path + ".checked-by",
                        "checked-by " + kebab(checkedBy) + " needs at least one rule in 'rules'");
            }
            if (checkedBy == CheckedBy.SANTA && !rules.isEmpty()) {
                warn(path + ".checked-by", "criterion '" + id
                        + "' has rules but is checked by santa only; its rules are not run (use checked-by both)");
            }
            Criterion criterion = new Criterion(id, name, pass, failSignal, checkedBy, List.copyOf(rules));
            List<CanaryKind> kinds = canaryKinds(path + ".canaries", c.canaries(), criterion);
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
    private List<CanaryKind> canaryKinds(String path, @Nullable List<@Nullable String> written, Criterion criterion)
            throws JobFileException {
        if (written == null) {
            return criterion.reviewedBySanta() ? defaultCanaries(criterion) : List.of();
        }
        List<String> ids = strings(path, written, false, true);
        if (!ids.isEmpty() && !criterion.reviewedBySanta()) {
            throw yaml.err(path, "criterion '" + criterion.id() + "' is checked by rules only; canaries test the"
                    + " panel (checked-by santa or both), the pre-pass reports rules-only criteria");
        }
        List<CanaryKind> kinds = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            String k = ids.get(i);
            CanaryKind kind = CanaryKind.of(k).orElse(null);
            if (kind == null) {
                throw yaml.err(path + "[" + i + "]", "unknown canary kind '" + k + "' (known: " + CanaryKind.ids() + ")");
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

    private RuleSpec rule(String path, JobFile.Rule r) throws JobFileException {
        String id = req(path + ".id", r.id());
        if (!RULE_ID.matcher(id).matches()) {
            throw yaml.err(path + ".id", "must match " + RULE_ID.pattern() + ", got '" + id + "'");
        }
        String type = choice(path + ".type", req(path + ".type", r.type()), RULE_KEYS.keySet());
        for (String k : yaml.keysIn(path)) {
            if (!RULE_KEYS.get(type).contains(k)) {
                String at = path + "." + k;
                throw yaml.unknownKey(at, yaml.keyNode(at), k, RULE_KEYS.get(type), "a " + type + " rule");
            }
        }
        String fixKey = path + ".fix";
        switch (type) {
            case "forbidden-terms" -> {
                List<String> terms = strings(path + ".terms", r.terms(), false, true);
                List<String> patterns = strings(path + ".patterns", r.patterns(), false, false);
                for (int k = 0; k < patterns.size(); k++) {
                    try {
                        Pattern.compile(patterns.get(k));
                    } catch (PatternSyntaxException e) {
                        throw yaml.err(path + ".patterns[" + k + "]", "invalid regular expression: " + e.getDescription()
                                + (e.getIndex() >= 0 ? " near index " + e.getIndex() : ""));
                    }
                }
                if (terms.isEmpty() && patterns.isEmpty()) {
                    throw yaml.err(r.terms() != null ? path + ".terms" : path,
                            "a forbidden-terms rule needs at least one entry in 'terms' or 'patterns'");
                }
                String at = path + ".replacements";
                Map<String, String> replacements = replacements(at, r.replacements());
                Set<String> lowerTerms = new LinkedHashSet<>();
                terms.forEach(t -> lowerTerms.add(t.toLowerCase(Locale.ROOT)));
                for (String term : replacements.keySet()) {
                    if (!lowerTerms.contains(term.toLowerCase(Locale.ROOT))) {
                        throw yaml.error(at + "." + term, yaml.keyNode(at + "." + term),
                                "replacement for '" + term + "', which is not in 'terms'");
                    }
                }
                FixKind fix = fix(fixKey, r.fix(), FixKind.NONE, FixKind.SUBSTITUTE, FixKind.REMOVE_SENTENCE);
                if (fix == FixKind.SUBSTITUTE) {
                    Set<String> replaced = new LinkedHashSet<>();
                    replacements.keySet().forEach(t -> replaced.add(t.toLowerCase(Locale.ROOT)));
                    for (String term : terms) {
                        if (!replaced.contains(term.toLowerCase(Locale.ROOT))) {
                            throw yaml.error(at + "." + term, yaml.node(r.replacements() != null ? at : fixKey),
                                    "fix substitute needs a replacement for every term; '" + term + "' has none");
                        }
                    }
                }
                return new RuleSpec.ForbiddenTerms(id, terms, patterns, replacements, fix);
            }
            case "required-phrase" -> {
                JobFile.When when = section(path + ".when", r.when(), JobFile.When.class, true);
                String column = req(path + ".when.column", when.column());
                requireSourceColumn(path + ".when.column", column);
                List<String> values = strings(path + ".when.values", when.values(), true, true);
                String phrase = req(path + ".phrase", r.phrase());
                return new RuleSpec.RequiredPhrase(id, column, values, phrase, fix(fixKey, r.fix(), FixKind.NONE, FixKind.APPEND));
            }
            case "length" -> {
                Integer min = r.min() == null ? null : (int) range(path + ".min", r.min(), 0, Integer.MAX_VALUE);
                Integer max = r.max() == null ? null : (int) range(path + ".max", r.max(), 0, Integer.MAX_VALUE);
                if (min == null && max == null) {
                    throw yaml.err(path, "a length rule needs 'min', 'max' or both");
                }
                if (min != null && max != null && min > max) {
                    throw yaml.err(path + ".max", "max (" + max + ") is less than min (" + min + ")");
                }
                return new RuleSpec.Length(id, min, max, fix(fixKey, r.fix(), FixKind.NONE));
            }
            case "number-grounding" -> {
                List<JobFile.@Nullable Attribute> items = reqList(path + ".attributes", r.attributes(), true);
                List<GroundedAttribute> attributes = new ArrayList<>();
                for (int k = 0; k < items.size(); k++) {
                    String at = path + ".attributes[" + k + "]";
                    JobFile.Attribute a = item(at, items.get(k));
                    String column = req(at + ".column", a.column());
                    requireSourceColumn(at + ".column", column);
                    Unit unit = unit(at + ".unit", req(at + ".unit", a.unit()));
                    attributes.add(new GroundedAttribute(column, unit, strings(at + ".keywords", a.keywords(), true, true)));
                }
                FixKind fix = fix(fixKey, r.fix(), FixKind.NONE, FixKind.CORRECT, FixKind.REMOVE_SENTENCE);
                return new RuleSpec.NumberGrounding(id, List.copyOf(attributes), fix);
            }
            default -> throw new IllegalStateException(type);
        }
    }

    /** A forbidden-terms rule's replacements: each term's replacement text. */
    private Map<String, String> replacements(String path, @Nullable Map<String, JsonNode> written)
            throws JobFileException {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : written == null ? Map.<String, JsonNode>of().entrySet() : written.entrySet()) {
            String at = path + "." + e.getKey();
            if (e.getValue() == null || !e.getValue().isTextual()) {
                throw yaml.err(at, "expected a string, got " + JobFileYaml.describe(yaml.node(at)));
            }
            out.put(e.getKey(), e.getValue().textValue());
        }
        return Collections.unmodifiableMap(out);
    }

    /**
     * A grounded attribute's unit: one of {@link Unit}, every one of which the number-grounding rule
     * finds in text. Any other name (a currency among them) would check nothing, so it is an error.
     */
    private Unit unit(String path, String name) throws JobFileException {
        return Unit.ofKey(name).orElseThrow(() -> yaml.err(path, "number grounding cannot find '" + name
                + "' in text; the units it finds: " + String.join(", ", Arrays.stream(Unit.values()).map(Unit::key)
                        .toList()) + " (currency amounts are not grounded)"));
    }

    private SamplingSpec sampling(JobFile.Sampling o) throws JobFileException {
        boolean allowOutside = o.allowRateOutsideRange() != null && o.allowRateOutsideRange();
        double rate = o.rate() != null ? o.rate() : 0.12;
        if (allowOutside) {
            if (!(rate > 0 && rate <= 1)) {
                throw yaml.err("sampling.rate", "must be greater than 0 and at most 1, got " + yaml.raw("sampling.rate"));
            }
        } else if (rate < 0.10 || rate > 0.15) {
            throw yaml.err("sampling.rate", "must be between 0.10 and 0.15 (or set allow-rate-outside-range: true), got "
                    + yaml.raw("sampling.rate"));
        }
        return new SamplingSpec(rate, allowOutside, intIn("sampling.min-size", o.minSize(), 5, 1, Integer.MAX_VALUE),
                intIn("sampling.full-review-below", o.fullReviewBelow(), 100, 0, Integer.MAX_VALUE), o.seed());
    }

    private SantaSpec santa(JobFile.Santa o) throws JobFileException {
        return new SantaSpec(
                intIn("santa.max-iterations", o.maxIterations(), 3, 1, 10),
                intIn("santa.max-rounds", o.maxRounds(), 5, 1, 100),
                intIn("santa.systematic-min-items", o.systematicMinItems(), 2, 1, Integer.MAX_VALUE),
                numberIn("santa.failed-review-threshold", o.failedReviewThreshold(), 0.10, 0, 1),
                numberIn("santa.low-agreement-kappa", o.lowAgreementKappa(), 0.4, -1, 1),
                numberIn("santa.pattern-similarity", o.patternSimilarity(), 0.45, 0, 1),
                intIn("santa.audit-size", o.auditSize(), 20, 0, 10_000),
                o.acceptanceNumber() == null ? null
                        : intIn("santa.acceptance-number", o.acceptanceNumber(), 0, 0, ACCEPTANCE_NUMBER_MAX),
                new FitSpec(
                        numberIn("santa.canary-share", o.canaryShare(), FitSpec.DEFAULT_CANARY_SHARE, 0, 1),
                        intIn("santa.min-canaries", o.minCanaries(), FitSpec.DEFAULT_MIN_CANARIES, 0, 1000),
                        numberIn("santa.min-panel-sensitivity", o.minPanelSensitivity(),
                                FitSpec.DEFAULT_MIN_PANEL_SENSITIVITY, 0, 1),
                        numberIn("santa.max-false-flag-rate", o.maxFalseFlagRate(), FitSpec.DEFAULT_MAX_FALSE_FLAG_RATE, 0, 1),
                        numberIn("santa.max-fail-share", o.maxFailShare(), FitSpec.DEFAULT_MAX_FAIL_SHARE, 0, 1)));
    }

    private List<ReviewerSpec> reviewers(@Nullable List<JobFile.@Nullable Reviewer> items, List<Criterion> rubric)
            throws JobFileException {
        List<String> santaIds = rubric.stream().filter(Criterion::reviewedBySanta).map(Criterion::id).toList();
        List<ReviewerSpec> reviewers = new ArrayList<>();
        if (items == null) {
            reviewers.add(new ReviewerSpec("B", "lexical", santaIds, null, Map.of()));
            reviewers.add(new ReviewerSpec("C", "semantic", santaIds, null, Map.of()));
            return List.copyOf(reviewers);
        }
        if (items.size() < 2 || items.size() > 3) {
            throw yaml.err("reviewers", "expected 2 or 3 reviewers, got " + items.size());
        }
        Map<String, String> ids = new LinkedHashMap<>();
        for (int i = 0; i < items.size(); i++) {
            String path = "reviewers[" + i + "]";
            JobFile.Reviewer r = item(path, items.get(i));
            String id = req(path + ".id", r.id());
            if (!REVIEWER_ID.matcher(id).matches()) {
                throw yaml.err(path + ".id", "must match " + REVIEWER_ID.pattern() + ", got '" + id + "'");
            }
            String previous = ids.putIfAbsent(id, path);
            if (previous != null) {
                throw yaml.err(path + ".id", "duplicate reviewer id '" + id + "' (already used by " + previous + ")");
            }
            String type = choice(path + ".type", req(path + ".type", r.type()), List.of("llm", "lexical", "semantic"));
            List<String> criteria = r.criteria() != null
                    ? judged(path + ".criteria", strings(path + ".criteria", r.criteria(), false, true), type, rubric, santaIds)
                    : santaIds;
            ModelSpec model = null;
            Map<String, Double> thresholds = Map.of();
            if (type.equals("llm")) {
                if (r.model() == null) {
                    throw yaml.err(path + ".model", "required for an llm reviewer");
                }
                model = model(path + ".model", r.model());
                if (r.thresholds() != null) {
                    throw yaml.err(path + ".thresholds", "only offline reviewers (lexical, semantic) take thresholds");
                }
            } else {
                if (r.model() != null) {
                    throw yaml.err(path + ".model", "only an llm reviewer takes a model");
                }
                thresholds = thresholds(path + ".thresholds", r.thresholds());
                try {
                    // each method validates its own threshold names and values
                    if ("lexical".equals(type)) {
                        LexicalThresholds.of(thresholds);
                    } else {
                        SemanticSettings.from(thresholds);
                    }
                } catch (IllegalArgumentException e) {
                    throw yaml.err(path + ".thresholds", e.getMessage());
                }
            }
            reviewers.add(new ReviewerSpec(id, type, List.copyOf(criteria), model, thresholds));
        }
        // coverage: every Santa criterion needs a reviewer, and should have two
        for (int i = 0; i < rubric.size(); i++) {
            Criterion c = rubric.get(i);
            if (!c.reviewedBySanta()) {
                continue;
            }
            List<String> judges = reviewers.stream()
                    .filter(r -> r.criteria().contains(c.id()))
                    .map(ReviewerSpec::id)
                    .toList();
            String key = "rubric[" + i + "].checked-by"; // the value's line, or the criterion's line when absent
            if (judges.isEmpty()) {
                throw yaml.err(key, "criterion '" + c.id()
                        + "' is checked by santa but no reviewer judges it; add it to a reviewer's criteria");
            }
            if (judges.size() == 1) {
                warn(key, "criterion '" + c.id()
                        + "' is judged by only one reviewer (" + judges.get(0) + "); it is not dual-reviewed");
            }
        }
        return List.copyOf(reviewers);
    }

    /** A reviewer's criteria as written: Santa criteria of the rubric, all of them for an llm reviewer. */
    private List<String> judged(String path, List<String> criteria, String type, List<Criterion> rubric,
            List<String> santaIds) throws JobFileException {
        for (int k = 0; k < criteria.size(); k++) {
            String cid = criteria.get(k);
            Criterion c = rubric.stream().filter(x -> x.id().equals(cid)).findFirst().orElse(null);
            if (c == null) {
                throw yaml.err(path + "[" + k + "]", "no criterion '" + cid + "' in the rubric; Santa criteria: "
                        + String.join(", ", santaIds));
            }
            if (!c.reviewedBySanta()) {
                throw yaml.err(path + "[" + k + "]", "criterion '" + cid
                        + "' is checked by rules only; reviewers judge only criteria checked-by santa or both");
            }
        }
        if (type.equals("llm") && !Set.copyOf(criteria).containsAll(santaIds)) {
            throw yaml.err(path, "an llm reviewer judges every Santa criterion; omit 'criteria' or list all of: "
                    + String.join(", ", santaIds));
        }
        if (criteria.isEmpty() && !santaIds.isEmpty()) {
            throw yaml.err(path, "a reviewer must judge at least one criterion");
        }
        return criteria;
    }

    /** An offline reviewer's thresholds by name; their names and values are checked by the reviewer. */
    private Map<String, Double> thresholds(String path, @Nullable Map<String, @Nullable Double> written)
            throws JobFileException {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Map.Entry<String, @Nullable Double> e : written == null ? Map.<String, Double>of().entrySet() : written.entrySet()) {
            out.put(e.getKey(), req(path + "." + e.getKey(), e.getValue(), "expected a number, got nothing (null)"));
        }
        return Collections.unmodifiableMap(out);
    }

    private FixerSpec fixer(JobFile.Fixer o) throws JobFileException {
        String type = o.type() != null ? choice("fixer.type", o.type(), List.of("offline", "llm")) : "offline";
        if (type.equals("llm")) {
            if (o.model() == null) {
                throw yaml.err("fixer.model", "required for an llm fixer");
            }
            return new FixerSpec(type, model("fixer.model", o.model()));
        }
        if (o.model() != null) {
            throw yaml.err("fixer.model", "only an llm fixer takes a model");
        }
        return new FixerSpec(type, null);
    }

    private MatcherSpec matcher(JobFile.Matcher o, FixerSpec fixer, List<ReviewerSpec> reviewers) throws JobFileException {
        double share = numberIn("matcher.max-candidate-share", o.maxCandidateShare(), 0.25, 0, 1);
        if (o.maxCandidateShare() != null && share <= 0) {
            throw yaml.err("matcher.max-candidate-share", "must be greater than 0, got " + yaml.raw("matcher.max-candidate-share"));
        }
        double floor = numberIn("matcher.min-similarity", o.minSimilarity(), MatcherSpec.DEFAULT_MIN_SIMILARITY, 0, 1);
        if (o.model() != null) {
            return new MatcherSpec(model("matcher.model", o.model()), false, share, floor);
        }
        if (fixer.model() != null) {
            return new MatcherSpec(fixer.model(), true, share, floor);
        }
        if (reviewers.stream().anyMatch(r -> "llm".equals(r.type()))) {
            warn("matcher", "the panel has a model reviewer but no matcher"
                    + " model is named (matcher.model, or an llm fixer's model): the batch fix would run the whole panel,"
                    + " its model calls included, on every eligible item; name a matcher model");
        }
        return new MatcherSpec(null, false, share, floor);
    }

    private GovernorSpec governor(JobFile.Governor o) throws JobFileException {
        GovernorSpec d = GovernorSpec.DEFAULTS;
        Duration initial = o.initialBackoff() != null ? o.initialBackoff() : d.initialBackoff();
        Duration max = o.maxBackoff() != null ? o.maxBackoff() : d.maxBackoff();
        if (max.compareTo(initial) < 0) {
            throw yaml.err("governor.max-backoff", "max-backoff (" + yaml.raw("governor.max-backoff")
                    + ") is less than initial-backoff ("
                    + (o.initialBackoff() != null ? yaml.raw("governor.initial-backoff") : "the default 1s") + ")");
        }
        return new GovernorSpec(
                intIn("governor.max-in-flight-per-endpoint", o.maxInFlightPerEndpoint(), d.maxInFlightPerEndpoint(), 1, 1024),
                intIn("governor.max-in-flight-per-model", o.maxInFlightPerModel(), d.maxInFlightPerModel(), 1, 1024),
                intIn("governor.requests-per-minute-per-model", o.requestsPerMinutePerModel(),
                        d.requestsPerMinutePerModel(), 0, 1_000_000),
                intIn("governor.max-attempts", o.maxAttempts(), d.maxAttempts(), 1, 20),
                initial,
                max,
                numberIn("governor.jitter", o.jitter(), d.jitter(), 0, 1),
                o.maxRetryAfter() != null ? o.maxRetryAfter() : d.maxRetryAfter(),
                o.logRequests() != null ? o.logRequests() : d.logRequests(),
                intIn("governor.circuit-breaker-failures", o.circuitBreakerFailures(), d.circuitBreakerFailures(), 0, 100_000));
    }

    private ModelSpec model(String path, JobFile.Model o) throws JobFileException {
        String baseUrl = o.baseUrl();
        if (baseUrl != null) {
            try {
                URI uri = new URI(baseUrl);
                if (uri.getRawUserInfo() != null) {
                    throw yaml.err(path + ".base-url", NEVER_THE_KEY + " (remove the credentials from the URL)");
                }
                String scheme = uri.getScheme();
                if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
                        || uri.getHost() == null) {
                    throw yaml.err(path + ".base-url", "must be an http or https URL, got '" + baseUrl + "'");
                }
            } catch (URISyntaxException e) {
                throw yaml.err(path + ".base-url", "must be an http or https URL, got '" + baseUrl + "'");
            }
        }
        String model = req(path + ".model", o.model());
        String apiKeyEnv = DEFAULT_API_KEY_ENV;
        if (o.apiKeyEnv() != null && !o.apiKeyEnv().isNull()) {
            String at = path + ".api-key-env";
            if (!o.apiKeyEnv().isTextual()) {
                throw yaml.err(at, "expected an environment variable name, got " + JobFileYaml.describe(yaml.node(at)));
            }
            apiKeyEnv = o.apiKeyEnv().textValue().trim();
            if (!ENV_NAME.matcher(apiKeyEnv).matches()) {
                if (looksLikeSecret(apiKeyEnv)) {
                    throw yaml.err(at, NEVER_THE_KEY
                            + " (the value looks like a secret; name the variable that holds it, e.g. OPENAI_API_KEY)");
                }
                throw yaml.err(at, "expected an environment variable name matching " + ENV_NAME.pattern()
                        + ", e.g. OPENAI_API_KEY");
            }
        }
        double temperature = numberIn(path + ".temperature", o.temperature(), 0.0, 0, 2);
        Duration timeout = o.timeout() != null ? o.timeout() : Duration.ofSeconds(60);
        int maxOutputTokens = intIn(path + ".max-output-tokens", o.maxOutputTokens(), 1024, 1, 1_000_000);
        StructuredOutput structured = enumValue(path + ".structured-output", o.structuredOutput(),
                StructuredOutput.JSON_SCHEMA, StructuredOutput.class);
        Double priceIn = o.priceInputPerMillion() == null ? null
                : numberIn(path + ".price-input-per-million", o.priceInputPerMillion(), 0, 0, Double.MAX_VALUE);
        Double priceOut = o.priceOutputPerMillion() == null ? null
                : numberIn(path + ".price-output-per-million", o.priceOutputPerMillion(), 0, 0, Double.MAX_VALUE);
        ModelSpec.ReasoningEffort effort = enumValue(path + ".reasoning-effort", o.reasoningEffort(),
                ModelSpec.ReasoningEffort.NONE, ModelSpec.ReasoningEffort.class);
        if (effort != ModelSpec.ReasoningEffort.NONE && o.temperature() != null) {
            throw yaml.err(path + ".temperature", "a reasoning model (reasoning-effort: " + kebab(effort)
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

    private BudgetSpec budget(JobFile.Budget o) throws JobFileException {
        return new BudgetSpec(
                positive("budget.max-calls", o.maxCalls()),
                positive("budget.max-tokens", o.maxTokens()),
                positive("budget.max-cost", o.maxCost()),
                positive("budget.max-calls-per-round", o.maxCallsPerRound()),
                positive("budget.max-tokens-per-round", o.maxTokensPerRound()),
                positive("budget.max-cost-per-round", o.maxCostPerRound()));
    }

    // ------------------------------------------------------------------ checks of bound values

    /**
     * A rule reads its column from the item's source facts: a column outside {@code
     * input.source-columns} (when they are listed) would never reach it, and the rule would silently
     * check nothing. Whether the column is in the catalog's header is checked when the run opens it.
     */
    private void requireSourceColumn(String path, String column) throws JobFileException {
        if (!sourceColumns.isEmpty() && !sourceColumns.contains(column)) {
            throw yaml.err(path, "column '" + column + "' is not in input.source-columns " + sourceColumns
                    + ": the rule would never see it; add it there (or leave source-columns out: every column)");
        }
    }

    private void warn(String path, String problem) {
        warnings.add(yaml.err(path, problem).getMessage());
    }

    /** A required value: absent is "missing", written without a value is {@code empty} (by default "a value is required"). */
    private <T> T req(String path, @Nullable T value, String empty) throws JobFileException {
        if (value == null) {
            throw yaml.err(path, yaml.present(path) ? empty : "required key is missing");
        }
        return value;
    }

    private <T> T req(String path, @Nullable T value) throws JobFileException {
        return req(path, value, "a value is required");
    }

    /** A mapping of keys; an optional one that is absent is a record of nulls (every default applies). */
    private <R extends Record> R section(String path, @Nullable R value, Class<R> type, boolean required)
            throws JobFileException {
        return value == null && !required ? JobFileYaml.empty(type)
                : req(path, value, "expected a mapping of keys, got nothing (null)");
    }

    /** An item of a list of mappings. */
    private <R> R item(String path, @Nullable R value) throws JobFileException {
        if (value == null) {
            throw yaml.err(path, "expected a mapping of keys, got nothing (null)");
        }
        return value;
    }

    private <T> List<T> reqList(String path, @Nullable List<T> value, boolean nonEmpty) throws JobFileException {
        return list(path, req(path, value, "expected a list, got nothing (null)"), nonEmpty);
    }

    private <T> List<T> list(String path, @Nullable List<T> value, boolean nonEmpty) throws JobFileException {
        if (value == null) {
            return List.of();
        }
        if (nonEmpty && value.isEmpty()) {
            throw yaml.err(path, "must not be empty");
        }
        return value;
    }

    /** A list of strings; required when nonEmpty, else defaults to the empty list. */
    private List<String> strings(String path, @Nullable List<@Nullable String> value, boolean nonEmpty, boolean unique)
            throws JobFileException {
        List<@Nullable String> items = nonEmpty ? reqList(path, value, true) : list(path, value, false);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String v = items.get(i);
            if (v == null) {
                throw yaml.err(path + "[" + i + "]", "expected a string, got nothing (null)");
            }
            if (unique && out.contains(v)) {
                throw yaml.err(path + "[" + i + "]", "duplicate entry '" + v + "'");
            }
            out.add(v);
        }
        return List.copyOf(out);
    }

    private String choice(String path, String value, Collection<String> allowed) throws JobFileException {
        if (!allowed.contains(value)) {
            throw yaml.err(path, "invalid value '" + value + "'; allowed: " + String.join(", ", allowed));
        }
        return value;
    }

    private <E extends Enum<E>> @Nullable E enumValue(String path, @Nullable String value, @Nullable E def, Class<E> type)
            throws JobFileException {
        if (value == null) {
            return def;
        }
        List<String> allowed = Arrays.stream(type.getEnumConstants()).map(JobFileLoader::kebab).toList();
        return type.getEnumConstants()[allowed.indexOf(choice(path, value, allowed))];
    }

    private FixKind fix(String path, @Nullable String value, FixKind... allowed) throws JobFileException {
        if (value == null) {
            return FixKind.NONE;
        }
        List<String> names = Arrays.stream(allowed).map(JobFileLoader::kebab).toList();
        if (!names.contains(value)) {
            throw yaml.err(path, "invalid value '" + value + "'; allowed for this rule type: " + String.join(", ", names));
        }
        return allowed[names.indexOf(value)];
    }

    private int intIn(String path, @Nullable Long value, int def, int min, int max) throws JobFileException {
        return value == null ? def : (int) range(path, value, min, max);
    }

    private long range(String path, long value, long min, long max) throws JobFileException {
        if (value < min || value > max) {
            throw yaml.err(path, rangeProblem(String.valueOf(min), String.valueOf(max), max == Integer.MAX_VALUE,
                    yaml.raw(path).trim()));
        }
        return value;
    }

    private double numberIn(String path, @Nullable Double value, double def, double min, double max)
            throws JobFileException {
        if (value != null && (value < min || value > max)) {
            throw yaml.err(path, rangeProblem(fmt(min), fmt(max), max == Double.MAX_VALUE, yaml.raw(path)));
        }
        return value == null ? def : value;
    }

    private <N extends Number> @Nullable N positive(String path, @Nullable N value) throws JobFileException {
        if (value != null && !(value.doubleValue() > 0)) {
            throw yaml.err(path, "must be greater than 0, got " + yaml.raw(path));
        }
        return value;
    }

    private static String rangeProblem(String min, String max, boolean noMax, String got) {
        return noMax ? "out of range: must be at least " + min + ", got " + got
                : "out of range: must be between " + min + " and " + max + ", got " + got;
    }

    private static String kebab(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static String fmt(double d) {
        return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }

    static @Nullable String closest(String key, List<String> candidates) {
        return JobFileYaml.closest(key, candidates);
    }
}
