package dev.santabatch.sampledata;

/** evidence: exact substring of the item's text whose presence is the defect ("" when the defect is an absence);
 *  correction: what replaces evidence in a correct fix ("" = the sentence holding evidence is removed);
 *  appendix: for an absence, the text a correct fix appends (else ""). */
public record PlantedDefect(String itemId, String kind, String evidence, String correction, String appendix) {}
