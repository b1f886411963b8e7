package dev.santabatch.batchfix.induction;

import dev.santabatch.config.Criterion;
import dev.santabatch.config.RuleSpec;
import dev.santabatch.prepass.rules.RuleEngine;
import dev.santabatch.prepass.rules.RuleOutcome;
import java.util.List;
import java.util.Map;

/**
 * A rule induced from a pattern's accepted fixes.
 *
 * @param criterion the criterion of the pattern (the rule's violations fail it)
 * @param shape the fixes' shared shape
 * @param spec the rule, in the job file's rule language
 * @param supportItems the sampled items whose fixes have the shape (and that the rule flags before their fix)
 * @param fixes how many accepted fixes the pattern had
 */
public record LearnedRule(String criterion, Shape shape, RuleSpec spec, List<String> supportItems, int fixes) {

    public LearnedRule {
        supportItems = List.copyOf(supportItems);
    }

    public String id() {
        return spec.id();
    }

    public int support() {
        return supportItems.size();
    }

    /** The rule compiled alone, as the job's rule engine would compile it on the criterion. */
    public RuleEngine engine() {
        return new RuleEngine(List.of(new Criterion(criterion, criterion, "", "", Criterion.CheckedBy.BOTH, List.of(spec))));
    }

    /** Whether the rule flags the text. Compiles the rule: a loop compiles {@link #engine()} once. */
    public boolean flags(String text, Map<String, String> facts) {
        return !engine().check(text, facts).isEmpty();
    }

    /** The rule's fix of the text (unchanged when it flags nothing). Compiles the rule, as {@link #flags} does. */
    public RuleOutcome fix(String text, Map<String, String> facts) {
        return engine().apply(text, facts);
    }
}
