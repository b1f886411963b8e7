package dev.santabatch.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.santabatch.model.ScriptedServer.Recorded;
import dev.santabatch.model.ScriptedServer.Reply;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A scripted model for whole-job tests: reviewers fail a text that carries a planted defect (as the
 * {@code <content>} of their request shows it) on one criterion, with the issue text the defect's
 * kind names; the fixer and the matcher remove the defect. Roles are told apart by their system
 * messages.
 */
final class ScriptedCatalogModel {

    /** One planted defect kind: how to see it, the reviewers' issue, how to remove it. */
    record Defect(String criterion, String issue, Predicate<String> shows, UnaryOperator<String> fix) {}

    private final List<Defect> defects;

    ScriptedCatalogModel(List<Defect> defects) {
        this.defects = List.copyOf(defects);
    }

    Reply answer(Recorded request) {
        JsonNode body = request.json();
        String system = body.get("messages").get(0).get("content").asText();
        String user = body.get("messages").get(1).get("content").asText();
        String content = between(user, "<content>\n", "\n</content>");
        try {
            if (system.startsWith("You are an independent quality reviewer")) {
                return Reply.ok(review(content, criteria(user)));
            }
            if (system.startsWith("You are an editor")) {
                return Reply.ok(fixAll(content));
            }
            if (system.startsWith("You check one text for one known problem")) {
                Defect d = defectNamed(between(user, "<issues>\n", "\n</issues>"));
                boolean shows = d != null && d.shows().test(content);
                return Reply.ok(ScriptedServer.JSON.writeValueAsString(Map.of(
                        "shows_pattern", shows, "corrected_text", shows ? d.fix().apply(content) : "")));
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return Reply.status(400, "{\"error\":{\"message\":\"unknown role\"}}", Map.of("Content-Type", "application/json"));
    }

    String fixAll(String content) {
        String out = content;
        for (Defect d : defects) {
            if (d.shows().test(out)) {
                out = d.fix().apply(out);
            }
        }
        return out;
    }

    boolean defective(String content) {
        return defects.stream().anyMatch(d -> d.shows().test(content));
    }

    private Defect defectNamed(String issues) {
        return defects.stream().filter(d -> issues.contains(d.issue())).findFirst().orElse(null);
    }

    private static List<String> criteria(String user) {
        String list = between(user, "judge every one of ", ", with exactly one check");
        return List.of(list.split(", "));
    }

    private String review(String content, List<String> criteria) throws IOException {
        List<Defect> found = defects.stream().filter(d -> d.shows().test(content)).toList();
        List<Map<String, String>> checks = criteria.stream().map(c -> {
            boolean fail = found.stream().anyMatch(d -> d.criterion().equals(c));
            return Map.of("criterion", c, "result", fail ? "FAIL" : "PASS", "detail", fail ? "defect" : "ok");
        }).toList();
        List<String> issues = found.stream().map(d -> d.criterion() + ": " + d.issue()).toList();
        return ScriptedServer.JSON.writeValueAsString(Map.of(
                "verdict", found.isEmpty() ? "PASS" : "FAIL",
                "checks", checks,
                "critical_issues", issues,
                "suggestions", List.of()));
    }

    static String between(String s, String from, String to) {
        int a = s.indexOf(from);
        if (a < 0) {
            return "";
        }
        a += from.length();
        int b = s.indexOf(to, a);
        return (b < 0 ? s.substring(a) : s.substring(a, b)).replace("&lt;", "<");
    }
}
