package dev.santabatch.batchfix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.review.FixExample;
import dev.santabatch.text.Words;
import java.util.List;
import org.junit.jupiter.api.Test;

class SampleFixShapeTests {

    static final String PROMO = " Shop now, limited stock!";

    /** Sample fixes that removed the shared promotional sentence. */
    static final SampleFixShape REMOVED_PROMO = SampleFixShape.of(List.of(
            new FixExample("A steel kettle." + PROMO, "A steel kettle."),
            new FixExample("A glass teapot for two." + PROMO, "A glass teapot for two.")));

    @Test
    void aRevisionThatRemovesWhatTheSampleRemovedIsLikeIt() {
        assertThat(REMOVED_PROMO.unlike("A copper pan." + PROMO, "A copper pan.")).isEmpty();
    }

    @Test
    void aRevisionThatRewordsElsewhereAndKeepsTheRemovedPassageIsUnlikeIt() {
        assertThat(REMOVED_PROMO.unlike("A copper pan." + PROMO, "A fine copper pan." + PROMO))
                .hasValueSatisfying(why -> assertThat(why).contains("shop now limited stock"));
    }

    @Test
    void aRevisionThatRemovesAnotherSentenceWhenThePassageVariesIsLikeItButACosmeticOneIsNot() {
        // the sample removed off-topic sentences worded differently in every item
        SampleFixShape offTopic = SampleFixShape.of(List.of(
                new FixExample("A steel kettle. Visit the old harbour in Porto.", "A steel kettle."),
                new FixExample("A glass teapot. Guests love the beaches of Nice.", "A glass teapot.")));

        assertThat(offTopic.unlike("A copper pan. The castle of Bled is near.", "A copper pan.")).isEmpty();
        assertThat(offTopic.unlike("A copper pan. The castle of Bled is near.", "A copper pan! The castle of Bled is close."))
                .isPresent();
    }

    @Test
    void aRevisionThatChangesNoNumberIsUnlikeSampleFixesThatAllCorrectedOne() {
        SampleFixShape wrongNumber = SampleFixShape.of(List.of(
                new FixExample("Rated 3 stars, sleeps 4.", "Rated 5 stars, sleeps 4."),
                new FixExample("Rated 2 stars, sleeps 6.", "Rated 4 stars, sleeps 6.")));

        assertThat(wrongNumber.unlike("Rated 1 stars, sleeps 2. A quiet place.", "Rated 3 stars, sleeps 2. A quiet place."))
                .isEmpty();
        assertThat(wrongNumber.unlike("Rated 1 stars, sleeps 2. A quiet place.", "Rated 1 stars, sleeps 2. A calm spot."))
                .hasValueSatisfying(why -> assertThat(why).contains("number"));
    }

    @Test
    void aPassageOnlySomeSampleFixesRemovedIsNotLookedFor() {
        // a contradiction: the sample's fixes removed either of its two sentences, both common in the catalog
        SampleFixShape contradiction = SampleFixShape.of(List.of(
                new FixExample("A walk. It is fully accessible by wheelchair. Sadly it is not accessible.", "A walk. Sadly it is not accessible."),
                new FixExample("A tour. It is fully accessible by wheelchair. Sadly it is not accessible.", "A tour. It is fully accessible by wheelchair.")));

        assertThat(contradiction.unlike("A ride. It is fully accessible by wheelchair. Sadly it is not accessible.",
                "A ride. It is fully accessible by wheelchair.")).isEmpty();
    }

    @Test
    void aShortRunIsEvidenceOnlyWhenEverySampleFixRemovedIt() {
        SampleFixShape term = SampleFixShape.of(List.of(
                new FixExample("The best kettle.", "A good kettle."),
                new FixExample("The best teapot ever.", "A fine teapot ever.")));
        // "the best" was removed by both: an item that keeps it is unlike the sample
        assertThat(term.unlike("The best pan.", "The best pot.")).isPresent();
        // one fix alone removing a short run says nothing about other items
        SampleFixShape once = SampleFixShape.of(List.of(
                new FixExample("The very best kettle.", "The best kettle."),
                new FixExample("A best teapot.", "A teapot.")));
        assertThat(once.unlike("A very best pan.", "A very best cheap pan.")).isEmpty();
    }

    @Test
    void withoutSampleFixesEveryRevisionIsAccepted() {
        assertThat(SampleFixShape.of(List.of()).unlike("A pan.", "A pan!")).isEmpty();
    }

    @Test
    void removedRunsAreTheBeforeWordsOutsideALongestCommonSubsequence() {
        assertThat(SampleFixShape.removedRuns(Words.of("a b c d e f"), Words.of("a x c f")))
                .containsExactly(List.of("b"), List.of("d", "e"));
    }
}
