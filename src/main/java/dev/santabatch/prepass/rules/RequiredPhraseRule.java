package dev.santabatch.prepass.rules;

import dev.santabatch.config.RuleSpec;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A phrase that must appear when a source column has one of the given values (compared trimmed and
 * case-insensitively). The phrase is found case-insensitively with whitespace normalised; its own
 * final punctuation is optional. APPEND adds it as a new sentence at the end of the text, after a
 * period if the text ends without terminal punctuation; trailing whitespace stays after it.
 */
final class RequiredPhraseRule extends Rule {

    private final RuleSpec.RequiredPhrase spec;

    RequiredPhraseRule(String criterionId, RuleSpec.RequiredPhrase spec) {
        super(criterionId);
        this.spec = spec;
    }

    @Override
    RuleSpec spec() {
        return spec;
    }

    boolean applies(Map<String, String> sourceFields) {
        String v = sourceFields.get(spec.column());
        if (v == null) {
            return false;
        }
        String value = v.trim();
        return spec.values().stream().anyMatch(x -> x.trim().equalsIgnoreCase(value));
    }

    @Override
    List<Finding> find(String text, Map<String, String> sourceFields) {
        if (!applies(sourceFields) || contains(text, spec.phrase())) {
            return List.of();
        }
        int end = text.length();
        return List.of(Finding.of(violation(end, end,
                spec.column() + " is " + sourceFields.get(spec.column()).trim()
                        + " but the required phrase \"" + spec.phrase().trim() + "\" is missing")));
    }

    static boolean contains(String text, String phrase) {
        String p = normalise(phrase).replaceAll("[.!?]+$", "");
        return p.isEmpty() || normalise(text).contains(p);
    }

    private static String normalise(String s) {
        return s.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    @Override
    String append(String text, Map<String, String> sourceFields, List<Finding> findings) {
        if (findings.isEmpty()) {
            return text;
        }
        return appendSentence(text, spec.phrase().strip());
    }

    static String appendSentence(String text, String sentence) {
        int core = text.length();
        while (core > 0 && Character.isWhitespace(text.charAt(core - 1))) {
            core--;
        }
        if (core == 0) {
            return sentence + text;
        }
        String head = text.substring(0, core);
        String tail = text.substring(core);
        int last = core - 1;
        while (last > 0 && "\"')]\u201D\u2019".indexOf(head.charAt(last)) >= 0) {
            last--;
        }
        boolean terminal = ".!?".indexOf(head.charAt(last)) >= 0;
        return head + (terminal ? "" : ".") + " " + sentence + tail;
    }
}
