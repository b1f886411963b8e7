package dev.santabatch.prepass;

import dev.santabatch.review.RevisionCheck;
import dev.santabatch.prepass.rules.RuleEngine;
import dev.santabatch.prepass.rules.Violation;
import java.util.List;
import java.util.Map;

/** The pre-pass rules re-check every later revision: a revision that breaks a rule is a failed fix. */
public final class RulesRevisionCheck implements RevisionCheck {

    private final RuleEngine engine;

    public RulesRevisionCheck(RuleEngine engine) {
        this.engine = engine;
    }

    @Override
    public List<String> violations(String content, Map<String, String> source) {
        return engine.check(content, source).stream().map(Violation::message).toList();
    }
}
