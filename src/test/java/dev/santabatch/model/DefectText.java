package dev.santabatch.model;

import dev.santabatch.eval.PlantedDefect;

/**
 * Whether a text carries a {@link PlantedDefect}, as the realistic judges and the Pattern C
 * benchmark decide it: the evidence (or, for an absence, the appendix) is looked up ignoring case,
 * punctuation and spacing, at word boundaries; letters, digits, symbols ({@code $}, {@code €}) and
 * hyphens count. So a cosmetic reword (a full stop turned into an exclamation mark, a doubled
 * space) does not remove a defect, while "3 hours" is not found inside "23 hours", "three hours"
 * not inside "twenty-three hours" and "$45" not in "€45".
 */
public final class DefectText {

    private DefectText() {}

    /** The defect is in {@code text}: its evidence present, or (an absence) its appendix missing. */
    public static boolean carries(String text, PlantedDefect d) {
        return d.evidence().isEmpty() ? find(text, d.appendix()) == null : find(text, d.evidence()) != null;
    }

    /**
     * Where {@code phrase} stands in {@code text}, ignoring case, punctuation and spacing: the span
     * {start, end} of the original text from the phrase's first significant character to its last,
     * or null when it is not there (or has none).
     */
    public static int[] find(String text, String phrase) {
        Canonical t = Canonical.of(text);
        String p = Canonical.of(phrase).text;
        if (p.isEmpty()) {
            return null;
        }
        int at = (" " + t.text + " ").indexOf(" " + p + " ");
        if (at < 0) {
            return null;
        }
        return new int[] {t.origin[at], t.origin[at + p.length() - 1] + 1};
    }

    /**
     * Lower-cased letters and digits, symbols and hyphens kept, every other run of characters one
     * space; {@code origin[i]} is where char i came from.
     */
    private record Canonical(String text, int[] origin) {
        static Canonical of(String s) {
            StringBuilder b = new StringBuilder(s.length());
            int[] origin = new int[s.length()];
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (significant(c)) {
                    origin[b.length()] = i;
                    b.append(Character.toLowerCase(c));
                } else if (b.length() > 0 && b.charAt(b.length() - 1) != ' ') {
                    origin[b.length()] = i;
                    b.append(' ');
                }
            }
            int n = b.length();
            if (n > 0 && b.charAt(n - 1) == ' ') {
                b.setLength(n - 1);
            }
            return new Canonical(b.toString(), origin);
        }

        private static boolean significant(char c) {
            return switch (Character.getType(c)) {
                case Character.DASH_PUNCTUATION, Character.CURRENCY_SYMBOL, Character.MATH_SYMBOL, Character.OTHER_SYMBOL,
                        Character.MODIFIER_SYMBOL -> true;
                default -> Character.isLetterOrDigit(c);
            };
        }
    }
}
