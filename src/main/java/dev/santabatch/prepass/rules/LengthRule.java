package dev.santabatch.prepass.rules;

import dev.santabatch.config.RuleSpec;
import java.util.List;
import java.util.Map;

/** Content length in code points, within [min, max]. No fix. */
final class LengthRule extends Rule {

    private final RuleSpec.Length spec;

    LengthRule(String criterionId, RuleSpec.Length spec) {
        super(criterionId);
        this.spec = spec;
    }

    @Override
    RuleSpec spec() {
        return spec;
    }

    @Override
    List<Finding> find(String text, Map<String, String> sourceFields) {
        int length = text.codePointCount(0, text.length());
        if (spec.min() != null && length < spec.min()) {
            return List.of(Finding.of(violation(0, text.length(),
                    "text is " + length + " characters, shorter than the minimum of " + spec.min())));
        }
        if (spec.max() != null && length > spec.max()) {
            return List.of(Finding.of(violation(0, text.length(),
                    "text is " + length + " characters, longer than the maximum of " + spec.max())));
        }
        return List.of();
    }

    @Override
    String fix(String text, Map<String, String> sourceFields, List<Finding> findings) {
        return text;
    }
}
