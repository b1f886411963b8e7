package dev.santabatch.ingest;

/**
 * Where reading resumes in a catalog file: just after the last record returned.
 *
 * @param byteOffset offset of the first byte not yet read
 * @param nextLine 1-based physical line of that byte
 * @param nextRecordIndex 0-based index the next data record will get
 */
public record CatalogPosition(long byteOffset, long nextLine, long nextRecordIndex) {

    public CatalogPosition {
        if (byteOffset < 0 || nextLine < 1 || nextRecordIndex < 0) {
            throw new IllegalArgumentException(
                    "invalid catalog position: offset " + byteOffset + ", line " + nextLine + ", record " + nextRecordIndex);
        }
    }
}
