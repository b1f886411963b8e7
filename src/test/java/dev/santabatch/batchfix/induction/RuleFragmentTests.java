package dev.santabatch.batchfix.induction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.Criterion;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.config.RuleSpec;
import dev.santabatch.prepass.rules.RuleEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The printed fragment, pasted into a job file's criterion, loads and behaves as the learned rule. */
class RuleFragmentTests {

    @TempDir
    Path dir;

    private RuleSpec pasteAndLoad(LearnedRule rule) throws Exception {
        Files.writeString(dir.resolve("data.csv"), "id,text,region,warranty_years\n1,hello,North,2\n");
        String fragment = RuleFragment.yaml(rule.spec()).indent(6);
        Path job = dir.resolve("job.yml");
        Files.writeString(job, """
                name: t
                input:
                  path: data.csv
                  id-column: id
                  content-column: text
                task-spec: Write things.
                rubric:
                  - id: accuracy
                    pass: True to the source.
                    fail-signal: Contradicts the source.
                    checked-by: both
                    rules:
                """ + fragment);
        JobDefinition loaded = JobFileLoader.load(job);
        Criterion c = loaded.rubric().get(0);
        assertThat(c.rules()).hasSize(1);
        return c.rules().get(0);
    }

    private void assertBehavesAlike(LearnedRule rule, RuleSpec loaded, List<String> texts, Map<String, String> facts) {
        RuleEngine pasted = new RuleEngine(List.of(new Criterion("accuracy", "accuracy", "", "",
                Criterion.CheckedBy.BOTH, List.of(loaded))));
        for (String t : texts) {
            assertThat(pasted.check(t, facts)).as(t).isEqualTo(rule.engine().check(t, facts));
            assertThat(pasted.apply(t, facts).text()).as(t).isEqualTo(rule.fix(t, facts).text());
        }
    }

    @Test
    void numberGroundingFragmentLoadsUnchanged() throws Exception {
        LearnedRule rule = RuleInducer.induce("learned-r1-p1",
                RuleInducerTests.pattern(RuleInducerTests.warrantyFixes(), List.of()), 2).orElseThrow();

        RuleSpec loaded = pasteAndLoad(rule);

        assertThat(loaded).isEqualTo(rule.spec());
        assertBehavesAlike(rule, loaded, List.of("A kettle with a 5-year warranty.", "A kettle with a 2-year warranty.",
                "Warranty: four years. Weighs 2 kg."), Map.of("warranty_years", "2"));
    }

    @Test
    void everyRuleTypeLoadsUnchanged() throws Exception {
        List<RuleSpec> specs = List.of(
                new RuleSpec.ForbiddenTerms("l1", List.of("stocks are limited"), List.of(), Map.of(),
                        RuleSpec.FixKind.REMOVE_SENTENCE),
                new RuleSpec.ForbiddenTerms("l2", List.of("miracle", "all-natural"), List.of(),
                        Map.of("miracle", "help", "all-natural", "made with: care"), RuleSpec.FixKind.SUBSTITUTE),
                new RuleSpec.RequiredPhrase("l3", "region", List.of("North"), "Tourist tax: paid on arrival.",
                        RuleSpec.FixKind.APPEND));
        for (RuleSpec spec : specs) {
            LearnedRule rule = new LearnedRule("accuracy", Shape.TERM_SUBSTITUTED, spec, List.of(), 0);
            RuleSpec loaded = pasteAndLoad(rule);
            assertThat(loaded).isEqualTo(spec);
            assertBehavesAlike(rule, loaded, List.of("A miracle, stocks are limited.", "All-natural soap.", "Plain."),
                    Map.of("region", "North"));
        }
    }

    @Test
    void aFragmentReadsBackAsItsRuleAndIsTheSameRuleUnderAnotherId() {
        RuleSpec warranty = RuleInducer.induce("learned-r1-p1",
                RuleInducerTests.pattern(RuleInducerTests.warrantyFixes(), List.of()), 2).orElseThrow().spec();
        List<RuleSpec> specs = List.of(warranty,
                new RuleSpec.ForbiddenTerms("l1", List.of("stocks are limited"), List.of("\\bno\\. ?1\\b"), Map.of(),
                        RuleSpec.FixKind.REMOVE_SENTENCE),
                new RuleSpec.ForbiddenTerms("l2", List.of("miracle", "2"), List.of(),
                        Map.of("miracle", "help", "2", "made with: care"), RuleSpec.FixKind.SUBSTITUTE),
                new RuleSpec.RequiredPhrase("l3", "region", List.of("North", "yes"), "Tourist tax: paid on arrival.",
                        RuleSpec.FixKind.APPEND),
                new RuleSpec.Length("l4", 10, null, RuleSpec.FixKind.NONE));
        for (RuleSpec spec : specs) {
            assertThat(RuleFragment.parse(RuleFragment.yaml(spec))).as(spec.id()).contains(spec);
            RuleSpec renamed = RuleFragment.withId(spec, "learned-r1-m1");
            assertThat(renamed.id()).isEqualTo("learned-r1-m1");
            assertThat(RuleFragment.sameRule(renamed, spec)).isTrue();
        }
        assertThat(RuleFragment.sameRule(specs.get(1), specs.get(2))).isFalse();
        assertThat(RuleFragment.sameRule(warranty, RuleFragment.parse(RuleFragment.yaml(warranty).replace("unit: year",
                "unit: month")).orElseThrow())).isFalse();
        assertThat(RuleFragment.parse("not: a rule")).isEmpty();
        assertThat(RuleFragment.parse("- id: x\n  type: unknown\n  fix: none\n")).isEmpty();
    }
}
