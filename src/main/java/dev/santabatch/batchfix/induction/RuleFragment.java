package dev.santabatch.batchfix.induction;

import dev.santabatch.config.RuleSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * A learned rule as job-file YAML: one entry of a criterion's {@code rules:} list, which the job
 * loader loads unchanged. Pasted under the pattern's criterion (with {@code checked-by: both}, so
 * the reviewers still judge the criterion), it makes the rule a permanent part of the pre-pass.
 */
public final class RuleFragment {

    private RuleFragment() {}

    /** The rule as a YAML list entry ({@code - id: ...}), block style, ending with a newline. */
    public static String yaml(RuleSpec spec) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setIndent(2);
        options.setIndicatorIndent(0);
        options.setWidth(Integer.MAX_VALUE);
        options.setSplitLines(false);
        return new Yaml(options).dump(List.of(entry(spec)));
    }

    /**
     * The rule a fragment of {@link #yaml} describes: what a later run of the job reads back from the
     * store to carry an earlier night's rule in. Empty when the text is not one such entry.
     */
    public static Optional<RuleSpec> parse(String fragment) {
        try {
            Object loaded = new Yaml(new SafeConstructor(new LoaderOptions())).load(fragment);
            if (!(loaded instanceof List<?> list) || list.size() != 1 || !(list.get(0) instanceof Map<?, ?> m)) {
                return Optional.empty();
            }
            return Optional.of(spec(m));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Whether two rules are one rule under any ids: the same type, settings and fix. */
    public static boolean sameRule(RuleSpec a, RuleSpec b) {
        Map<String, Object> x = entry(a);
        Map<String, Object> y = entry(b);
        x.remove("id");
        y.remove("id");
        return x.equals(y);
    }

    /** The rule under another id. */
    public static RuleSpec withId(RuleSpec spec, String id) {
        if (spec instanceof RuleSpec.NumberGrounding g) {
            return new RuleSpec.NumberGrounding(id, g.attributes(), g.fix());
        } else if (spec instanceof RuleSpec.ForbiddenTerms t) {
            return new RuleSpec.ForbiddenTerms(id, t.terms(), t.patterns(), t.replacements(), t.fix());
        } else if (spec instanceof RuleSpec.RequiredPhrase p) {
            return new RuleSpec.RequiredPhrase(id, p.column(), p.values(), p.phrase(), p.fix());
        } else if (spec instanceof RuleSpec.Length l) {
            return new RuleSpec.Length(id, l.min(), l.max(), l.fix());
        }
        throw new IllegalArgumentException(spec.getClass().getName());
    }

    private static RuleSpec spec(Map<?, ?> m) {
        String id = String.valueOf(m.get("id"));
        RuleSpec.FixKind fix = RuleSpec.FixKind.valueOf(String.valueOf(m.get("fix")).toUpperCase(Locale.ROOT).replace('-', '_'));
        return switch (String.valueOf(m.get("type"))) {
            case "number-grounding" -> new RuleSpec.NumberGrounding(id, list(m.get("attributes")).stream().map(o -> {
                Map<?, ?> a = (Map<?, ?>) o;
                return new RuleSpec.GroundedAttribute(String.valueOf(a.get("column")),
                        dev.santabatch.config.Unit.ofKey(String.valueOf(a.get("unit"))).orElseThrow(),
                        strings(a.get("keywords")));
            }).toList(), fix);
            case "forbidden-terms" -> {
                Map<String, String> replacements = new LinkedHashMap<>();
                if (m.get("replacements") instanceof Map<?, ?> r) {
                    r.forEach((k, v) -> replacements.put(String.valueOf(k), String.valueOf(v)));
                }
                yield new RuleSpec.ForbiddenTerms(id, strings(m.get("terms")), strings(m.get("patterns")), replacements, fix);
            }
            case "required-phrase" -> {
                Map<?, ?> when = (Map<?, ?>) m.get("when");
                yield new RuleSpec.RequiredPhrase(id, String.valueOf(when.get("column")), strings(when.get("values")),
                        String.valueOf(m.get("phrase")), fix);
            }
            case "length" -> new RuleSpec.Length(id, m.get("min") instanceof Number n ? n.intValue() : null,
                    m.get("max") instanceof Number n ? n.intValue() : null, fix);
            default -> throw new IllegalArgumentException("rule type " + m.get("type"));
        };
    }

    private static List<?> list(Object o) {
        return o instanceof List<?> l ? l : List.of();
    }

    private static List<String> strings(Object o) {
        return list(o).stream().map(String::valueOf).toList();
    }

    /** The rule's job-file keys and values. */
    static Map<String, Object> entry(RuleSpec spec) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", spec.id());
        if (spec instanceof RuleSpec.NumberGrounding g) {
            m.put("type", "number-grounding");
            m.put("attributes", g.attributes().stream().map(a -> {
                Map<String, Object> attr = new LinkedHashMap<>();
                attr.put("column", a.column());
                attr.put("unit", a.unit().key());
                attr.put("keywords", a.keywords());
                return attr;
            }).toList());
        } else if (spec instanceof RuleSpec.ForbiddenTerms t) {
            m.put("type", "forbidden-terms");
            if (!t.terms().isEmpty()) {
                m.put("terms", t.terms());
            }
            if (!t.patterns().isEmpty()) {
                m.put("patterns", t.patterns());
            }
            if (!t.replacements().isEmpty()) {
                m.put("replacements", new LinkedHashMap<>(t.replacements()));
            }
        } else if (spec instanceof RuleSpec.RequiredPhrase p) {
            m.put("type", "required-phrase");
            Map<String, Object> when = new LinkedHashMap<>();
            when.put("column", p.column());
            when.put("values", p.values());
            m.put("when", when);
            m.put("phrase", p.phrase());
        } else if (spec instanceof RuleSpec.Length l) {
            m.put("type", "length");
            if (l.min() != null) {
                m.put("min", l.min());
            }
            if (l.max() != null) {
                m.put("max", l.max());
            }
        }
        m.put("fix", spec.fix().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        return m;
    }
}
