package dev.santabatch.review.step;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.review.MergedIssue;
import dev.santabatch.review.SantaOutcome;
import dev.santabatch.review.SantaReason;
import dev.santabatch.review.SantaResult;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EscalationIssuesTests {

    static final MergedIssue ISSUE = new MergedIssue("original: generic boilerplate \"Made with care.\"", "original", Set.of("B"));

    private static SantaResult escalated(SantaReason reason, String detail) {
        return new SantaResult("P1", SantaOutcome.ESCALATED, reason, detail, 1, 0, List.of(), List.of(), "text", "fix",
                List.of(), List.of(ISSUE), List.of(), List.of(ISSUE));
    }

    @Test
    void aFixThatChangedNothingFlaggedSaysWhyAfterTheOpenIssues() {
        String why = "fix 1 unusable twice: no real change: the quoted evidence \"made with care\" is left in place";
        assertThat(ReviewStep.escalationIssues(escalated(SantaReason.FIX_UNCHANGED, why))).containsExactly(ISSUE.text(), why);
    }

    @Test
    void aStillNaughtyItemListsItsOpenIssuesOnly() {
        assertThat(ReviewStep.escalationIssues(escalated(SantaReason.STILL_NAUGHTY, "still naughty after 3 fix(es)")))
                .containsExactly(ISSUE.text());
    }
}
