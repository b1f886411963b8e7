package dev.santabatch.eval;

/**
 * One planted defect of a generated catalog item, as a judge (a scripted model server) and a
 * benchmark see it: what text carries it, and what a correct fix does to that text. Derived from a
 * generator's ground truth (e.g. {@link SampleCatalogGenerator#plantedDefects}).
 *
 * <p>The defect is present in a text when {@code evidence} is non-empty and the text contains it,
 * or when {@code evidence} is empty (an absence) and the text lacks {@code appendix}. The
 * contract is shared by every generator; the record holds data only.
 *
 * @param itemId the item it was planted in
 * @param kind the ground truth's kind (e.g. {@code wrong-number})
 * @param evidence exact substring of the item's text whose presence is the defect ({@code ""} when
 *     the defect is an absence)
 * @param correction what replaces {@code evidence} in a correct fix ({@code ""} = the sentence
 *     holding {@code evidence} is removed)
 * @param appendix for an absence, the text a correct fix appends (else {@code ""})
 */
public record PlantedDefect(String itemId, String kind, String evidence, String correction, String appendix) {}
