package dev.santabatch.config;

import java.util.List;

/**
 * One rubric criterion, as in the seed's rubric table.
 *
 * @param id short identifier (lower case, digits, dashes); every critical issue starts with it
 * @param name display name. Defaults to the id.
 * @param pass the pass condition
 * @param failSignal what a failure looks like
 * @param checkedBy who checks it. Defaults to {@link CheckedBy#RULES} when the criterion has
 *     rules, otherwise {@link CheckedBy#SANTA}.
 * @param rules deterministic rules, run by the pre-pass on every item and on every later revision
 */
public record Criterion(
        String id, String name, String pass, String failSignal, CheckedBy checkedBy, List<RuleSpec> rules) {

    public boolean reviewedBySanta() {
        return checkedBy == CheckedBy.SANTA || checkedBy == CheckedBy.BOTH;
    }

    public boolean checkedByRules() {
        return checkedBy == CheckedBy.RULES || checkedBy == CheckedBy.BOTH;
    }

    public enum CheckedBy {
        RULES,
        SANTA,
        BOTH
    }
}
