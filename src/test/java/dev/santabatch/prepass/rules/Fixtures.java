package dev.santabatch.prepass.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.Criterion;
import dev.santabatch.config.Criterion.CheckedBy;
import dev.santabatch.config.RuleSpec;
import dev.santabatch.config.RuleSpec.FixKind;
import dev.santabatch.config.RuleSpec.GroundedAttribute;
import dev.santabatch.config.Unit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The default job's rules (jobs/product-descriptions.yml), for the tests. */
final class Fixtures {

    static final String DISCLAIMER = "These statements have not been evaluated by the Food and Drug Administration.";

    private Fixtures() {}

    static Map<String, String> replacements() {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("miracle", "remarkable");
        r.put("cure", "relieve");
        r.put("revolutionize", "transform");
        r.put("risk-free", "low-risk");
        r.put("clinically proven", "tested");
        return r;
    }

    static RuleSpec.ForbiddenTerms forbidden(FixKind fix) {
        return new RuleSpec.ForbiddenTerms("forbidden-claims",
                List.of("miracle", "cure", "revolutionize", "risk-free", "clinically proven"), List.of(),
                replacements(), fix);
    }

    static RuleSpec.RequiredPhrase disclaimer(FixKind fix) {
        return new RuleSpec.RequiredPhrase("supplement-disclaimer", "category", List.of("supplements"), DISCLAIMER, fix);
    }

    static RuleSpec.NumberGrounding grounding(FixKind fix) {
        return new RuleSpec.NumberGrounding("grounded-numbers", List.of(
                new GroundedAttribute("warranty_years", Unit.YEAR,
                        List.of("warranty", "guarantee", "guaranteed", "covered", "coverage")),
                new GroundedAttribute("battery_hours", Unit.HOUR,
                        List.of("battery", "charge", "runtime", "playback", "play time", "battery life"))), fix);
    }

    static RuleSpec.Length length() {
        return new RuleSpec.Length("length-bounds", 40, 2000, FixKind.NONE);
    }

    static Criterion criterion(String id, RuleSpec... rules) {
        return new Criterion(id, id, "pass", "fail", CheckedBy.RULES, List.of(rules));
    }

    static List<Criterion> defaultRubric() {
        return List.of(
                criterion("compliance", forbidden(FixKind.SUBSTITUTE)),
                criterion("disclaimer", disclaimer(FixKind.APPEND)),
                criterion("factual-accuracy", grounding(FixKind.CORRECT)),
                criterion("length", length()));
    }

    static Map<String, String> fields(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1] == null ? "" : kv[i + 1]);
        }
        return m;
    }

    /** Asserts that {@code after} differs from {@code before} only inside one span. */
    static void onlySpanChanged(String before, String after, String removedOrReplaced, String inserted) {
        int p = 0;
        while (p < before.length() && p < after.length() && before.charAt(p) == after.charAt(p)) {
            p++;
        }
        int s = 0;
        while (s < before.length() - p && s < after.length() - p
                && before.charAt(before.length() - 1 - s) == after.charAt(after.length() - 1 - s)) {
            s++;
        }
        assertThat(before.substring(p, before.length() - s).length())
                .as("changed span of %s", before).isLessThanOrEqualTo(removedOrReplaced.length());
        assertThat(after.substring(p, after.length() - s).length())
                .as("inserted span of %s", after).isLessThanOrEqualTo(inserted.length());
    }
}
