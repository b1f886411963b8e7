package dev.santabatch.config;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A deterministic rule declared on a rubric criterion. Each rule has an id unique in the job. */
public sealed interface RuleSpec
        permits RuleSpec.ForbiddenTerms, RuleSpec.RequiredPhrase, RuleSpec.Length, RuleSpec.NumberGrounding {

    String id();

    FixKind fix();

    /** What a rule does about a violation. */
    enum FixKind {
        /** No fix: a violation escalates the item. */
        NONE,
        /** Replace the offending term with its replacement. */
        SUBSTITUTE,
        /** Append the required phrase. */
        APPEND,
        /** Correct a quantity from its source column, keeping the text's unit and style. */
        CORRECT,
        /** Remove the sentence holding the violation. */
        REMOVE_SENTENCE
    }

    /**
     * Forbidden terms (case-insensitive, whole word, with inflections) and regular expressions.
     *
     * @param replacements term to replacement, used by {@link FixKind#SUBSTITUTE}; every term needs one
     */
    record ForbiddenTerms(
            String id, List<String> terms, List<String> patterns, Map<String, String> replacements, FixKind fix)
            implements RuleSpec {}

    /**
     * A phrase that must appear when a source column has one of the given values (case-insensitive).
     * Fix: {@link FixKind#APPEND} or {@link FixKind#NONE}.
     */
    record RequiredPhrase(String id, String column, List<String> values, String phrase, FixKind fix)
            implements RuleSpec {}

    /** Content length in characters (code points). Fix: {@link FixKind#NONE} only. */
    record Length(String id, @Nullable Integer min, @Nullable Integer max, FixKind fix) implements RuleSpec {}

    /**
     * Every quantity the text states for a source attribute must equal that attribute.
     * Fix: {@link FixKind#CORRECT}, {@link FixKind#REMOVE_SENTENCE} or {@link FixKind#NONE}.
     */
    record NumberGrounding(String id, List<GroundedAttribute> attributes, FixKind fix) implements RuleSpec {}

    /**
     * A numeric source column and how the text talks about it.
     *
     * @param column the source column holding the true value
     * @param unit the unit of the column's value
     * @param keywords words that tie a stated quantity to this attribute (e.g. warranty, guarantee)
     */
    record GroundedAttribute(String column, Unit unit, List<String> keywords) {}
}
