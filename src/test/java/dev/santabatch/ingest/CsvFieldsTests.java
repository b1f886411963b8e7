package dev.santabatch.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.santabatch.ingest.CsvRecordSplitter.RawRecord;
import org.junit.jupiter.api.Test;

class CsvFieldsTests {

    private static RawRecord record(int textAfterQuote) {
        return new RawRecord(new byte[0], 1, 1, 0, 0, false, false, textAfterQuote);
    }

    @Test
    void aQuoteLeftOpenIsRefusedAndTheNextRecordStillParses() {
        // given
        CsvFields fields = new CsvFields();
        assertThat(fields.parse(record(0), "a,\"b\"\"c\"")).containsExactly("a", "b\"c");
        // when a text the splitter would have marked unterminated is parsed anyway
        assertThatThrownBy(() -> fields.parse(record(0), "a,\"b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("EOF reached before encapsulated token finished");
        // then the parser reads on
        assertThat(fields.parse(record(0), "x,,\"y\nz\"")).containsExactly("x", "", "y\nz");
        assertThat(fields.parse(record(0), "")).containsExactly("");
    }

    @Test
    void textAfterAClosingQuoteIsRefusedWithItsFieldNumber() {
        assertThatThrownBy(() -> new CsvFields().parse(record(3), "a,b,\"c\" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unexpected character after the closing quote of field 3");
    }
}
