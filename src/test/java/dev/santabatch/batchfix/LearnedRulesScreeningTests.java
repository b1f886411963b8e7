package dev.santabatch.batchfix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.santabatch.batchfix.induction.LearnedRule;
import dev.santabatch.batchfix.induction.PassedItem;
import dev.santabatch.batchfix.induction.Shape;
import dev.santabatch.config.RuleSpec;
import dev.santabatch.execution.PreparationStoppedException;
import dev.santabatch.prepass.rules.RuleEngine;
import dev.santabatch.persistence.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.job.JobInterruptedException;

/**
 * The learned rules' screening pass: one pass over the eligible items a page at a time for every
 * rule of the round, keeping only what a rule flags; a requested stop ends it within one page.
 */
class LearnedRulesScreeningTests {

    /** 2,500 eligible items in record order; every tenth says "miracle", every seventh "wonder". */
    private static final List<Store.EligibleItem> CATALOG = catalog(2_500);

    private static List<Store.EligibleItem> catalog(int n) {
        List<Store.EligibleItem> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            String text = "Item " + i + " is a lamp." + (i % 10 == 0 ? " A miracle cure." : "") + (i % 7 == 0 ? " A wonder." : "");
            out.add(new Store.EligibleItem(new Store.StoredItem("i" + i, i, i + 1, "", "ACTIVE", 0, text), null, false));
        }
        return out;
    }

    /** The page after a record index, {@link LearnedRules#PAGE} items at most, counting the pages asked for. */
    private static LongFunction<List<Store.EligibleItem>> pages(AtomicInteger asked) {
        return after -> {
            asked.incrementAndGet();
            return CATALOG.stream().filter(e -> e.item().recordIndex() > after).limit(LearnedRules.PAGE).toList();
        };
    }

    private static RuleEngine forbidding(String term) {
        RuleSpec spec = new RuleSpec.ForbiddenTerms("no-" + term, List.of(term), List.of(), Map.of(), RuleSpec.FixKind.NONE);
        return new LearnedRule("claims", Shape.TERM_SUBSTITUTED, spec, List.of(), 0).engine();
    }

    private static PassedItem asOf(Store.StoredItem item) {
        return new PassedItem(item.id(), item.content(), Map.of());
    }

    @Test
    void everyRuleIsScreenedInOnePassOverTheEligibleItemsOutsideTheSample() {
        // given two rules and a sample of two items
        Map<String, RuleEngine> engines = new LinkedHashMap<>();
        engines.put("miracle", forbidding("miracle"));
        engines.put("wonder", forbidding("wonder"));
        AtomicInteger asked = new AtomicInteger();

        // when
        LearnedRules.Flagged f = LearnedRules.flag(pages(asked), Set.of("i10", "i7"), engines,
                LearnedRulesScreeningTests::asOf, () -> false, "learned rules, round 1");

        // then each page was read once (and one empty page ends the pass), and each rule's flagged
        // items are those that say its term, outside the sample, in catalog order
        assertThat(asked.get()).isEqualTo(4);
        assertThat(f.eligible()).isEqualTo(2_498);
        assertThat(f.byRule().get("miracle")).hasSize(249).first().satisfies(p -> assertThat(p.itemId()).isEqualTo("i20"));
        assertThat(f.byRule().get("wonder")).hasSize(356).first().satisfies(p -> assertThat(p.itemId()).isEqualTo("i14"));
        assertThat(f.byRule().get("wonder")).allSatisfy(p -> assertThat(p.text()).contains("wonder"));
    }

    @Test
    void aStopEndsTheScreeningWithinOnePage() {
        // given a stop flag set when the first item of the second page is handed out
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger handed = new AtomicInteger();
        AtomicInteger afterStop = new AtomicInteger();
        java.util.function.Function<Store.StoredItem, PassedItem> counting = item -> {
            if (stop.get()) {
                afterStop.incrementAndGet();
            }
            if (handed.incrementAndGet() == LearnedRules.PAGE + 1) {
                stop.set(true);
            }
            return asOf(item);
        };

        // when the pass runs, then it stops (as a stop: the step ends STOPPED) within one page of the flag
        assertThatThrownBy(() -> LearnedRules.flag(pages(new AtomicInteger()), Set.of(), Map.of("miracle", forbidding("miracle")),
                counting, stop::get, "learned rules, round 1"))
                .isInstanceOf(PreparationStoppedException.class)
                .hasMessageContaining("learned rules, round 1: screened 2000 eligible items: stop requested")
                .hasCauseInstanceOf(JobInterruptedException.class);
        assertThat(afterStop.get()).isBetween(1, LearnedRules.PAGE);
        assertThat(handed.get()).isLessThan(CATALOG.size());
    }
}
