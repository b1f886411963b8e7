package dev.santabatch.prepass.rules;

import dev.santabatch.text.SentenceSplitter;
import dev.santabatch.config.RuleSpec;
import dev.santabatch.config.RuleSpec.FixKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** One compiled rule. */
abstract class Rule {

    final String criterionId;

    Rule(String criterionId) {
        this.criterionId = criterionId;
    }

    abstract RuleSpec spec();

    abstract List<Finding> find(String text, Map<String, String> sourceFields);

    /** Applies the declared fix to the findings; returns the text unchanged when it cannot fix. */
    String fix(String text, Map<String, String> sourceFields, List<Finding> findings) {
        FixKind kind = spec().fix();
        return switch (kind) {
            case NONE -> text;
            case SUBSTITUTE, CORRECT -> replaceSpans(text, findings);
            case REMOVE_SENTENCE -> SentenceSplitter.removeSentencesAt(
                    text, findings.stream().map(f -> f.violation().start()).toList());
            case APPEND -> append(text, sourceFields, findings);
        };
    }

    String append(String text, Map<String, String> sourceFields, List<Finding> findings) {
        return text;
    }

    Violation violation(int start, int end, String message) {
        return new Violation(criterionId, spec().id(), start, end, criterionId + ": " + message);
    }

    /** Replaces non-overlapping spans from the end, so that earlier offsets stay valid. */
    static String replaceSpans(String text, List<Finding> findings) {
        List<Finding> sorted = new ArrayList<>(findings.stream().filter(f -> f.replacement() != null).toList());
        sorted.sort(Comparator.comparingInt(Finding::fixStart).reversed());
        StringBuilder sb = new StringBuilder(text);
        int limit = Integer.MAX_VALUE;
        for (Finding f : sorted) {
            if (f.fixEnd() > limit) {
                continue; // overlaps a later replacement: leave it for the re-check
            }
            sb.replace(f.fixStart(), f.fixEnd(), f.replacement());
            limit = f.fixStart();
        }
        return sb.toString();
    }
}
