package dev.santabatch.batchfix;

import dev.santabatch.rounds.LearnedRuleStore;
import dev.santabatch.batchfix.induction.RuleFragment;
import dev.santabatch.batchfix.induction.RuleValidator;
import dev.santabatch.config.RuleSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which learned rules of the job's earlier runs a run carries in, and what its round-1 sample says
 * of each (docs/learned-rules.md, "Across nights"). Pure: the store and the sample are the caller's.
 *
 * <p>Of the earlier runs' rules, newest first, the newest row of each rule (rules compared under any
 * id, {@link RuleFragment#sameRule}) counts: the rule is carried in when that row is a
 * {@code candidate} (a rule retired or rejected on a later night is not carried further), the job
 * file does not have the rule already (pasted in), its criterion is one the panel reviews (else no
 * sample can confirm it) and the columns it reads are source columns of the job.
 */
final class RememberedRules {

    /** Re-validated on round 1's sample: it fixes tonight's items as a rule learned tonight would. */
    static final String REVALIDATED = "revalidated";
    /** Its precision on round 1's sample is below {@link LearnedRules#RETIRE_BELOW}: retired for the job. */
    static final String RETIRED = "retired";
    /** Round 1's sample has nothing it flags: it fixes nothing tonight and stays remembered. */
    static final String NO_EVIDENCE = "no-evidence";
    /** Precise on round 1's sample but on fewer than {@link #MIN_CONFIRMED} items: as {@link #NO_EVIDENCE}. */
    static final String LITTLE_EVIDENCE = "too-little-evidence";

    /**
     * Confirmed sampled items a remembered rule needs before it fixes anything: the support a rule
     * learned from tonight's sample needs ({@link RuleValidator#MIN_SUPPORT}).
     */
    static final int MIN_CONFIRMED = RuleValidator.MIN_SUPPORT;

    /** An earlier run's rule to carry in, with its rule read back from the fragment. */
    record Carried(LearnedRuleStore.EarlierRule from, RuleSpec spec) {}

    private RememberedRules() {}

    /**
     * @param newestFirst the earlier runs' rules ({@link LearnedRuleStore#earlierRules})
     * @param jobRules the job file's own rules
     * @param criteria the criteria the panel reviews
     * @param columns the job's source columns
     */
    static List<Carried> select(List<LearnedRuleStore.EarlierRule> newestFirst, Collection<RuleSpec> jobRules,
            Set<String> criteria, Collection<String> columns) {
        List<RuleSpec> seen = new ArrayList<>();
        List<Carried> out = new ArrayList<>();
        for (LearnedRuleStore.EarlierRule e : newestFirst) {
            Optional<RuleSpec> parsed = RuleFragment.parse(e.fragment());
            if (parsed.isEmpty()) {
                continue;
            }
            RuleSpec spec = parsed.get();
            if (seen.stream().anyMatch(s -> RuleFragment.sameRule(s, spec))) {
                continue; // an older row of a rule: its newest row decided
            }
            seen.add(spec);
            if (LearnedRuleStore.CANDIDATE.equals(e.status()) && criteria.contains(e.criterion())
                    && jobRules.stream().noneMatch(j -> RuleFragment.sameRule(j, spec)) && columns.containsAll(columns(spec))) {
                out.add(new Carried(e, spec));
            }
        }
        return out;
    }

    /** The source columns a rule reads. */
    static List<String> columns(RuleSpec spec) {
        if (spec instanceof RuleSpec.NumberGrounding g) {
            return g.attributes().stream().map(RuleSpec.GroundedAttribute::column).toList();
        }
        if (spec instanceof RuleSpec.RequiredPhrase p) {
            return List.of(p.column());
        }
        return List.of();
    }

    /**
     * What round 1's sample says of a remembered rule: of the sampled items it flags, those the
     * reviewers failed on its criterion are confirmed.
     */
    static String verdict(int flagged, int confirmed) {
        if (flagged == 0) {
            return NO_EVIDENCE;
        }
        if (confirmed < LearnedRules.RETIRE_BELOW * flagged) {
            return RETIRED;
        }
        return confirmed < MIN_CONFIRMED ? LITTLE_EVIDENCE : REVALIDATED;
    }

    /** Why a remembered rule does not fix tonight, for its row's reason. */
    static String reason(LearnedRuleStore.Remembered m) {
        String tested = "round 1's sample: flags " + m.flagged() + ", confirmed " + m.confirmed();
        return switch (m.verdict()) {
            case RETIRED -> String.format(java.util.Locale.ROOT, "precision %d/%d on %s, below %.2f", m.confirmed(),
                    m.flagged(), "round 1's sample", LearnedRules.RETIRE_BELOW);
            case NO_EVIDENCE -> "remembered, fixes nothing tonight: round 1's sample has no item it flags";
            case LITTLE_EVIDENCE -> "remembered, fixes nothing tonight: " + tested + " (needs " + MIN_CONFIRMED
                    + " confirmed)";
            default -> tested;
        };
    }
}
