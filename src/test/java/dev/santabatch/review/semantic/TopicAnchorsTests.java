package dev.santabatch.review.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The topic anchors on the real quantized model: banks load from the resources, the margin's sign. */
class TopicAnchorsTests {

    @Test
    void banksAreShippedAndEmbeddedOncePerEmbedder() {
        assertThat(TopicAnchors.lines(TopicAnchors.PRODUCT)).hasSizeGreaterThanOrEqualTo(90).noneMatch(l -> l.startsWith("#"));
        assertThat(TopicAnchors.lines(TopicAnchors.OFF_TOPIC)).hasSizeGreaterThanOrEqualTo(90).noneMatch(l -> l.startsWith("#"));
        assertThat(TopicAnchors.of(Embedder.shared())).isSameAs(TopicAnchors.of(Embedder.shared()));
    }

    @Test
    void aSentenceAboutAnotherSubjectIsNearerTheOffTopicBank() {
        // sentences written for this test, in none of the banks or fixtures
        TopicAnchors anchors = TopicAnchors.of(Embedder.shared());
        Embedder e = Embedder.shared();
        assertThat(anchors.margin(e.embed("The orchestra's winter season opens with a programme of Sibelius symphonies.")))
                .isPositive();
        assertThat(anchors.margin(e.embed("The hinged lid clicks shut, and the silicone seal keeps crumbs out of your bag.")))
                .isNegative();
    }
}
