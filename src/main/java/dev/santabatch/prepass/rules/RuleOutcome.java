package dev.santabatch.prepass.rules;

import java.util.List;

/**
 * The result of {@link RuleEngine#apply}: the text after every declared fix, and what each rule did.
 *
 * @param original the text the rules ran on
 * @param text the final text (identical to {@code original} when nothing was fixed)
 * @param rules one result per rule, in rubric order
 * @param remaining violations of the final text (offsets in {@code text}); non-empty means escalate
 */
public record RuleOutcome(String original, String text, List<RuleResult> rules, List<Violation> remaining) {

    public RuleOutcome {
        rules = List.copyOf(rules);
        remaining = List.copyOf(remaining);
    }

    /** True when a fix changed the text (the change becomes a new revision, cause {@code rules}). */
    public boolean changed() {
        return !original.equals(text);
    }

    /** True when a violation has no fix or its fix did not clear it: the item must escalate. */
    public boolean mustEscalate() {
        return !remaining.isEmpty();
    }

    public int found() {
        return rules.stream().mapToInt(RuleResult::found).sum();
    }

    public int fixed() {
        return rules.stream().mapToInt(RuleResult::fixed).sum();
    }

    public int unfixable() {
        return rules.stream().mapToInt(RuleResult::unfixable).sum();
    }
}
