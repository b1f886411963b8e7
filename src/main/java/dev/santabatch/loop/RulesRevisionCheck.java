package dev.santabatch.loop;

import dev.santabatch.review.RevisionCheck;
import dev.santabatch.rules.RuleEngine;
import dev.santabatch.rules.Violation;
import java.util.List;
import java.util.Map;

/** The pre-pass rules re-check every later revision: a revision that breaks a rule is a failed fix. */
final class RulesRevisionCheck implements RevisionCheck {

    private final RuleEngine engine;

    RulesRevisionCheck(RuleEngine engine) {
        this.engine = engine;
    }

    @Override
    public List<String> violations(String content, Map<String, String> source) {
        return engine.check(content, source).stream().map(Violation::message).toList();
    }
}
