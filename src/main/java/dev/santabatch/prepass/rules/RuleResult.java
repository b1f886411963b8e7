package dev.santabatch.prepass.rules;

import dev.santabatch.config.RuleSpec.FixKind;
import java.util.List;

/**
 * What one rule did to one text in {@link RuleEngine#apply}.
 *
 * @param criterionId the criterion the rule belongs to
 * @param ruleId the rule
 * @param fix the rule's declared fix
 * @param found violations the rule found when it ran (on the text as left by the rules before it)
 * @param fixed violations cleared by the fix ({@code found - unfixable}, never negative)
 * @param unfixable violations of this rule left in the final text; any of them escalates the item
 * @param violations the violations found when the rule ran (offsets in the text it ran on)
 */
public record RuleResult(
        String criterionId, String ruleId, FixKind fix, int found, int fixed, int unfixable, List<Violation> violations) {

    public RuleResult {
        violations = List.copyOf(violations);
    }
}
