package dev.santabatch.batchfix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.santabatch.config.MatcherSpec;
import dev.santabatch.execution.PreparationStoppedException;
import dev.santabatch.review.semantic.Embedder;
import dev.santabatch.review.semantic.SentenceVectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The narrowing by meaning, with the real sentence model: candidates are the eligible items with a
 * sentence near a failing sampled sentence (at least the job's floor, the default here), ranked by
 * similarity; the offline checks' flags rank after them for the criteria they judge; the cap keeps
 * the best. The economics on a real catalog are measured in {@code LlmJobFunctionalTests}.
 */
class PatternNarrowingTests {

    /** The off-topic sentence the sample's issue quotes. */
    static final String OFF_TOPIC = "Grandma's famous pie needs three cups of flour and a pinch of sugar.";
    /** The same topic in other words: no word of three letters or more in common with {@link #OFF_TOPIC}. */
    static final String PARAPHRASE = "This dessert recipe was handed down by my grandmother.";
    /** Further from {@link #OFF_TOPIC} than {@link #PARAPHRASE} (cosine 0.49 against 0.59), above the floor. */
    static final String LOOSER = "Our grandmother's well-known tart recipe requires plenty of wheat meal.";

    private PatternNarrowing narrowing;

    @BeforeEach
    void store() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:narrowing-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        narrowing = new PatternNarrowing(new SentenceVectors(ds, Embedder::shared, Runnable::run),
                MatcherSpec.DEFAULT_MIN_SIMILARITY);
    }

    /** 30 cabin listings; L3 carries the paraphrase, L7 the quoted sentence itself, L12 the looser paraphrase. */
    static List<PatternNarrowing.Item> listings() {
        String[] lakes = {"Pine", "Cedar", "Birch", "Willow", "Aspen", "Maple"};
        List<PatternNarrowing.Item> out = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String text = "The cabin at " + lakes[i % lakes.length] + " Lake sleeps " + (2 + i % 5) + " guests. It is rated "
                    + (3 + i % 3) + " stars and sits " + (1 + i) + " km from the village. A wood stove heats the living room.";
            if (i == 3) {
                text += " " + PARAPHRASE;
            }
            if (i == 7) {
                text += " " + OFF_TOPIC;
            }
            if (i == 12) {
                text += " " + LOOSER;
            }
            out.add(new PatternNarrowing.Item("L" + i, 0, text));
        }
        return out;
    }

    static PatternNarrowing.Evidence offTopic(String criterion) {
        String sampled = "The cabin at Elm Lake sleeps 3 guests. " + OFF_TOPIC;
        return new PatternNarrowing.Evidence(1, criterion, List.of(new PatternNarrowing.Sampled(sampled, null,
                List.of(criterion + ": the sentence \"" + OFF_TOPIC + "\" is about baking, not the cabin"))));
    }

    @Test
    void aParaphraseSharingNoWordIsFoundRankedBySimilarityWhileUnrelatedItemsAreNotCandidates() {
        for (String paraphrase : List.of(PARAPHRASE, LOOSER)) {
            assertThat(words(paraphrase)).doesNotContainAnyElementsOf(words(OFF_TOPIC));
        }

        PatternNarrowing.Narrowed n = narrowing.narrow(1, List.of(offTopic("on-topic")), listings(), 1, 1.0,
                PatternNarrowing.Offline.NONE, () -> {}).get(1);

        // the copy first (cosine 1), then the paraphrases by similarity; no plain listing is a candidate
        assertThat(n.ids()).containsExactly("L7", "L3", "L12");
        assertThat(n.found()).isEqualTo(3);
        assertThat(n.method()).isEqualTo("meaning");
    }

    /** The words of three letters or more, lower case (what word evidence would match on). */
    private static Set<String> words(String text) {
        Set<String> out = new java.util.HashSet<>();
        for (String w : text.toLowerCase(java.util.Locale.ROOT).split("[^\\p{L}']+")) {
            if (w.length() >= 3) {
                out.add(w);
            }
        }
        return out;
    }

    @Test
    void theOfflineChecksFlagsRankAfterEveryItemNearAFailingSentence() {
        PatternNarrowing.Offline offline = new PatternNarrowing.Offline(Set.of("on-specification"),
                Map.of("on-specification", Map.of("L10", 1.0, "L20", 3.0)), Map.of("on-specification", 30L));

        PatternNarrowing.Narrowed n = narrowing.narrow(1, List.of(offTopic("on-specification")), listings(), 1, 1.0, offline,
                () -> {}).get(1);

        assertThat(n.ids()).containsExactly("L7", "L3", "L12", "L20", "L10");
        assertThat(n.method()).isEqualTo("meaning+offline-checks");
        assertThat(n.offlineChecks()).isEqualTo(30);
    }

    @Test
    void aStopRequestedAfterTheEmbeddingsEndsTheNarrowingBeforeItsSimilarityScan() {
        // given a stop requested once the 30 listings are embedded (one batch: one look at the stop)
        int[] looks = {0};
        Runnable checkStop = () -> {
            if (++looks[0] > 1) {
                throw new PreparationStoppedException("narrowing by meaning");
            }
        };

        // when the patterns are narrowed, then the similarity scan looks at the stop before its first batch
        assertThatThrownBy(() -> narrowing.narrow(1, List.of(offTopic("on-topic")), listings(), 1, 1.0,
                PatternNarrowing.Offline.NONE, checkStop))
                .isInstanceOf(PreparationStoppedException.class).hasMessageContaining("stop requested");
        assertThat(looks[0]).isEqualTo(2);
    }

    @Test
    void theCapKeepsTheBestRankedAndReportsWhatItCut() {
        // a cap of 4 % of 30 items: 1 candidate
        PatternNarrowing.Narrowed n = narrowing.narrow(1, List.of(offTopic("on-topic")), listings(), 1, 0.04,
                PatternNarrowing.Offline.NONE, () -> {}).get(1);

        assertThat(n.ids()).containsExactly("L7");
        assertThat(n.found()).isEqualTo(3);
    }

    @Test
    void theCandidatesAreAtMostWhatTheSamplePredicts() {
        // one failing item in a sample of 100, 30 eligible: the Clopper-Pearson upper limit of 1 in
        // 100 (5.45 %) x 30 x 1.5 is 2.45, so 3 candidates are kept; 1 in 1,000: 0.25, so 1 (the least)
        PatternNarrowing.Narrowed wide = narrowing.narrow(1, List.of(offTopic("on-topic")), listings(), 100, 1.0,
                PatternNarrowing.Offline.NONE, () -> {}).get(1);
        PatternNarrowing.Narrowed narrow = narrowing.narrow(1, List.of(offTopic("on-topic")), listings(), 1000, 1.0,
                PatternNarrowing.Offline.NONE, () -> {}).get(1);

        assertThat(wide.ids()).containsExactly("L7", "L3", "L12");
        assertThat(narrow.ids()).containsExactly("L7");
        assertThat(narrow.found()).isEqualTo(3);
        assertThat(PatternNarrowing.predicted(1, 100, 30)).isEqualTo(3);
        assertThat(PatternNarrowing.predicted(14, 150, 1350)).isEqualTo((int) Math.ceil(
                dev.santabatch.stats.ClopperPearson.interval(14, 150).upper() * 1350 * 1.5));
    }

    @Test
    void theFailingSentencesAreTheQuotedOnesElseWhatTheFixChangedElseTheWholeText() {
        String text = "A quiet cabin. It sleeps four. Free parking for one car.";

        assertThat(PatternNarrowing.failingSentences(new PatternNarrowing.Sampled(text, "A quiet cabin. It sleeps two.",
                List.of("accuracy: \u201Csleeps four\u201D but the source says 2")))).containsExactly("It sleeps four.");
        // no quote found in the text: the sentences the fix removed or changed
        assertThat(PatternNarrowing.failingSentences(new PatternNarrowing.Sampled(text, "A quiet cabin. It sleeps two.",
                List.of("accuracy: \"sleeps nine\" is wrong")))).containsExactly("It sleeps four.", "Free parking for one car.");
        assertThat(PatternNarrowing.failingSentences(new PatternNarrowing.Sampled(text, null, List.of("tone: too flat"))))
                .containsExactly("A quiet cabin.", "It sleeps four.", "Free parking for one car.");
    }
}
