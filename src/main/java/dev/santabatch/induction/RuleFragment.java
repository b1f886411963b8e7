package dev.santabatch.induction;

import dev.santabatch.job.RuleSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

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
