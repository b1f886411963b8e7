package dev.santabatch.prepass.rules;

/**
 * One rule violation in a text.
 *
 * @param criterionId the rubric criterion the rule belongs to
 * @param ruleId the rule
 * @param start start offset (UTF-16 index, inclusive) of the offending span in the checked text
 * @param end end offset (exclusive); equal to {@code start} for a missing phrase
 * @param message a critical-issue text starting with the criterion id and a colon
 */
public record Violation(String criterionId, String ruleId, int start, int end, String message) {}
