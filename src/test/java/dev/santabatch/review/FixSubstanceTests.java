package dev.santabatch.review;

import static dev.santabatch.review.ReviewFixtures.failOn;
import static dev.santabatch.review.ReviewFixtures.passAll;
import static dev.santabatch.review.ReviewFixtures.reviewed;
import static dev.santabatch.review.ReviewFixtures.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.review.ReviewFixtures.ScriptedFixer;
import dev.santabatch.review.ReviewFixtures.ScriptedPanel;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A fix has to fix: the Santa processor with fixes that change nothing the issues flag. */
class FixSubstanceTests {

    static final List<String> CRITERIA = List.of("accuracy", "originality");
    static final Set<String> ALL = set("accuracy", "originality");
    static final String BOILERPLATE = "Crafted with care for discerning buyers, it makes every day a little better.";
    static final String ORIGINAL = "A steel kettle that boils 1.7 litres. " + BOILERPLATE;
    /** The boilerplate reworded by one word: what a fixer that cannot fix it does. */
    static final String REWORDED = "A steel kettle that boils 1.7 litres. "
            + "Crafted with care for discerning buyers, it makes each day a little better.";
    static final String REMOVED = "A steel kettle that boils 1.7 litres.";

    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    @AfterEach
    void shutdown() throws InterruptedException {
        executor.shutdownNow();
        executor.awaitTermination(5, TimeUnit.SECONDS);
    }

    private SantaResult process(ScriptedPanel panel, ScriptedFixer fixer) {
        SantaSettings settings = new SantaSettings("Write a product description.",
                ReviewFixtures.criteria("accuracy", "originality"), 3);
        return new SantaProcessor(settings, panel, fixer, RevisionCheck.NONE, new Panel(executor, new ReviewValidator()),
                new Gate()).process("P001", ORIGINAL, Map.of("name", "Kettle"));
    }

    private static ReviewOutcome pass() {
        return reviewed(passAll(CRITERIA));
    }

    private static ReviewOutcome fail(String issue) {
        return reviewed(failOn(CRITERIA, "originality", issue));
    }

    @Test
    void aCosmeticFixOfAQuotedSpanIsUnchanged() {
        // given one reviewer quotes the boilerplate; the fixer rewords a word elsewhere and leaves it
        String issue = "originality: generic boilerplate \"" + BOILERPLATE + "\"";
        ScriptedPanel panel = new ScriptedPanel().reviewer("B", ALL, fail(issue), pass()).reviewer("C", ALL, pass(), pass());
        String elsewhere = "A steel kettle that heats 1.7 litres. " + BOILERPLATE;
        ScriptedFixer fixer = new ScriptedFixer(new FixOutcome.Fixed(elsewhere), new FixOutcome.Fixed(elsewhere),
                new FixOutcome.Fixed(elsewhere));

        // when
        SantaResult result = process(panel, fixer);

        // then no fix is stored, so no fresh review could pass one: each of the 3 iterations asked
        // again, and after the last the item is escalated
        assertThat(result.outcome()).isEqualTo(SantaOutcome.ESCALATED);
        assertThat(result.reason()).isEqualTo(SantaReason.FIX_UNCHANGED);
        assertThat(result.reasonDetail()).contains("no real change").contains("left in place");
        assertThat(result.fixes()).isZero();
        assertThat(result.finalText()).isEqualTo(ORIGINAL);
        assertThat(result.rejectedFix()).isEqualTo(elsewhere);
        assertThat(fixer.calls).hasValue(3);
        assertThat(fixer.retryingAt).isEmpty();
        assertThat(result.reviewsToNice()).isEqualTo(1);
    }

    @Test
    void aCosmeticFixOfAnUnquotedIssueRaisedByBothReviewersIsUnchanged() {
        // given both reviewers raise the same unquoted issue; the fixer rewords the boilerplate by a word
        String issue = "originality: the closing sentence is generic boilerplate";
        ScriptedPanel panel = new ScriptedPanel().reviewer("B", ALL, fail(issue), pass()).reviewer("C", ALL, fail(issue), pass());
        ScriptedFixer fixer = new ScriptedFixer(new FixOutcome.Fixed(REWORDED), new FixOutcome.Fixed(REWORDED),
                new FixOutcome.Fixed(REWORDED));

        // when
        SantaResult result = process(panel, fixer);

        // then
        assertThat(result.outcome()).isEqualTo(SantaOutcome.ESCALATED);
        assertThat(result.reason()).isEqualTo(SantaReason.FIX_UNCHANGED);
        assertThat(result.reasonDetail()).contains("cosmetic change");
        assertThat(result.fixes()).isZero();
        assertThat(result.openIssues()).singleElement().satisfies(i -> assertThat(i.flaggedBy()).containsExactly("B", "C"));
    }

    @Test
    void anIterationWithNoRealChangeIsFollowedByAFreshAttemptWhoseRealFixIsReviewed() {
        // given the fixer first rewords elsewhere, then removes the quoted boilerplate
        String issue = "originality: generic boilerplate \"" + BOILERPLATE + "\"";
        ScriptedPanel panel = new ScriptedPanel().reviewer("B", ALL, fail(issue), pass()).reviewer("C", ALL, pass(), pass());
        ScriptedFixer fixer = new ScriptedFixer(new FixOutcome.Fixed("A steel kettle that heats 1.7 litres. " + BOILERPLATE),
                new FixOutcome.Fixed(REMOVED));

        // when
        SantaResult result = process(panel, fixer);

        // then the miss is not stored and the real fix is revision 1, reviewed as iteration 1
        assertThat(result.outcome()).isEqualTo(SantaOutcome.NICE);
        assertThat(result.revisions()).singleElement().satisfies(r -> {
            assertThat(r.iteration()).isEqualTo(1);
            assertThat(r.before()).isEqualTo(ORIGINAL);
            assertThat(r.after()).isEqualTo(REMOVED);
        });
        assertThat(result.reviews()).extracting(ReviewRecord::iteration).containsExactly(0, 0, 1, 1);
        assertThat(fixer.requests.get(1).content()).isEqualTo(ORIGINAL);
    }

    @Test
    void aRealFixIsAccepted() {
        // given both reviewers quote the boilerplate, and the fixer removes it
        String issue = "originality: generic boilerplate \"" + BOILERPLATE + "\"";
        ScriptedPanel panel = new ScriptedPanel().reviewer("B", ALL, fail(issue), pass()).reviewer("C", ALL, fail(issue), pass());
        ScriptedFixer fixer = new ScriptedFixer(new FixOutcome.Fixed(REMOVED));

        // when
        SantaResult result = process(panel, fixer);

        // then
        assertThat(result.outcome()).isEqualTo(SantaOutcome.NICE);
        assertThat(result.fixes()).isEqualTo(1);
        assertThat(result.finalText()).isEqualTo(REMOVED);
        assertThat(fixer.calls).hasValue(1);
    }

    @Test
    void aOneWordCorrectionOfAQuotedNumberIsARealFix() {
        // given the issue quotes the wrong number, and the fix changes only that word
        String issue = "accuracy: the text says \"1.7 litres\", the source says 1.5";
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, reviewed(failOn(CRITERIA, "accuracy", issue)), pass())
                .reviewer("C", ALL, reviewed(failOn(CRITERIA, "accuracy", issue)), pass());
        String corrected = ORIGINAL.replace("1.7", "1.5");
        ScriptedFixer fixer = new ScriptedFixer(new FixOutcome.Fixed(corrected));

        // when
        SantaResult result = process(panel, fixer);

        // then
        assertThat(result.outcome()).isEqualTo(SantaOutcome.NICE);
        assertThat(result.finalText()).isEqualTo(corrected);
    }

    @Test
    void aCorrectedNumberIsARealFixOfAnUnquotedIssueRaisedByBothReviewers() {
        // given both reviewers say the capacity is wrong without quoting it; the fix changes one number
        String issue = "accuracy: the capacity contradicts the source";
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, reviewed(failOn(CRITERIA, "accuracy", issue)), pass())
                .reviewer("C", ALL, reviewed(failOn(CRITERIA, "accuracy", issue)), pass());
        String corrected = ORIGINAL.replace("1.7", "1.5");
        ScriptedFixer fixer = new ScriptedFixer(new FixOutcome.Fixed(corrected));

        // when
        SantaResult result = process(panel, fixer);

        // then one word, but a fact: not cosmetic
        assertThat(result.outcome()).isEqualTo(SantaOutcome.NICE);
        assertThat(result.finalText()).isEqualTo(corrected);
    }

    @Test
    void aCosmeticAnswerToAFalseFlagOfOneReviewerIsAcceptedWhenBothFreshReviewsPass() {
        // given B flags the item without quoting it while C passes it, and the fixer can only reword
        String issue = "originality: the closing sentence is generic boilerplate";
        ScriptedPanel panel = new ScriptedPanel().reviewer("B", ALL, fail(issue), pass()).reviewer("C", ALL, pass(), pass());
        ScriptedFixer fixer = new ScriptedFixer(new FixOutcome.Fixed(REWORDED));

        // when
        SantaResult result = process(panel, fixer);

        // then the fresh panel decided, and both passed it
        assertThat(result.outcome()).isEqualTo(SantaOutcome.NICE);
        assertThat(result.fixes()).isEqualTo(1);
        assertThat(result.finalText()).isEqualTo(REWORDED);
        assertThat(result.reviews()).filteredOn(r -> r.iteration() == 1).extracting(ReviewRecord::verdict)
                .containsExactly(Verdict.PASS, Verdict.PASS);
    }

    @Test
    void aCosmeticAnswerToAFalseFlagIsStillReviewedFreshAndNotShippedWhenAFreshReviewerFailsIt() {
        // given as above, but a fresh reviewer fails the reworded text and the next fix removes the sentence
        String issue = "originality: the closing sentence is generic boilerplate";
        ScriptedPanel panel = new ScriptedPanel()
                .reviewer("B", ALL, fail(issue), pass(), pass())
                .reviewer("C", ALL, pass(), fail(issue), pass());
        ScriptedFixer fixer = new ScriptedFixer(new FixOutcome.Fixed(REWORDED), new FixOutcome.Fixed(REMOVED));

        // when
        SantaResult result = process(panel, fixer);

        // then
        assertThat(result.outcome()).isEqualTo(SantaOutcome.NICE);
        assertThat(result.fixes()).isEqualTo(2);
        assertThat(result.finalText()).isEqualTo(REMOVED);
    }
}
