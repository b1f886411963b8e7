package dev.santabatch.prepass.rules;

import dev.santabatch.config.Criterion;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.RuleSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The deterministic rules of a job's rubric: checks every rule, applies the declared fixes, and
 * re-checks. Pure and thread-safe after construction.
 */
public final class RuleEngine {

    private final List<Rule> rules;

    /** Compiles the rules of the given criteria (typically {@code JobDefinition.ruleCriteria()}). */
    public RuleEngine(List<Criterion> criteria) {
        List<Rule> list = new ArrayList<>();
        for (Criterion c : criteria) {
            for (RuleSpec r : c.rules()) {
                list.add(compile(c.id(), r));
            }
        }
        this.rules = List.copyOf(list);
    }

    /** The engine of a job: the rules of its rule criteria (checked-by rules or both). */
    public static RuleEngine forJob(JobDefinition job) {
        return new RuleEngine(job.ruleCriteria());
    }

    private static Rule compile(String criterionId, RuleSpec spec) {
        if (spec instanceof RuleSpec.ForbiddenTerms f) {
            return new ForbiddenTermsRule(criterionId, f);
        } else if (spec instanceof RuleSpec.RequiredPhrase p) {
            return new RequiredPhraseRule(criterionId, p);
        } else if (spec instanceof RuleSpec.Length l) {
            return new LengthRule(criterionId, l);
        } else if (spec instanceof RuleSpec.NumberGrounding g) {
            return new NumberGroundingRule(criterionId, g);
        }
        throw new IllegalArgumentException("unknown rule type: " + spec);
    }

    /** Every violation of every rule, in rule order and then by position. */
    public List<Violation> check(String content, Map<String, String> sourceFields) {
        List<Violation> out = new ArrayList<>();
        for (Rule r : rules) {
            r.find(content, sourceFields).forEach(f -> out.add(f.violation()));
        }
        return out;
    }

    /**
     * Checks, applies each rule's declared fix in rule order (each rule sees the text as left by the
     * rules before it), then re-checks the final text with every rule. A violation left in the
     * final text (no fix, or the fix did not clear it, or a later fix broke the rule) is unfixable.
     */
    public RuleOutcome apply(String content, Map<String, String> sourceFields) {
        String text = content;
        List<List<Violation>> foundPerRule = new ArrayList<>();
        for (Rule r : rules) {
            List<Finding> findings = r.find(text, sourceFields);
            foundPerRule.add(findings.stream().map(Finding::violation).toList());
            if (!findings.isEmpty()) {
                text = r.fix(text, sourceFields, findings);
            }
        }
        List<RuleResult> results = new ArrayList<>();
        List<Violation> remaining = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            Rule r = rules.get(i);
            List<Violation> left = r.find(text, sourceFields).stream().map(Finding::violation).toList();
            remaining.addAll(left);
            List<Violation> found = foundPerRule.get(i);
            results.add(new RuleResult(r.criterionId, r.spec().id(), r.spec().fix(), found.size(),
                    Math.max(0, found.size() - left.size()), left.size(), found));
        }
        return new RuleOutcome(content, text, results, remaining);
    }

    /** The rule ids, in order. */
    public List<String> ruleIds() {
        return rules.stream().map(r -> r.spec().id()).toList();
    }
}
