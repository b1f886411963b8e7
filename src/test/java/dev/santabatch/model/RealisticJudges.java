package dev.santabatch.model;

import dev.santabatch.eval.PlantedDefect;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * Judges as imperfect as real models, driven by a catalog's {@link PlantedDefect}s: the answers a
 * {@link CatalogModelServer} in judge mode gives. A defect is visible in a text when the text
 * {@link DefectText#carries carries} it; the item a request is about is found by its source facts
 * (the catalog's row whose columns equal them).
 *
 * <ul>
 *   <li>A reviewer misses each visible defect with its model's miss rate ({@link Settings}); it
 *       FAILs the criterion of each defect it notices (kind to criterion by the map it is given)
 *       with an issue in one of the kind's wordings, some quoting the evidence and some not. A
 *       review that notices nothing FAILs with the false-fail rate on a drawn criterion, with an
 *       issue that quotes a real sentence of the text.
 *   <li>The fixer corrects each visible defect whose criterion an issue names (or whose evidence
 *       an issue quotes): evidence replaced by the correction (a number as the correction states
 *       it, in the other form of digits and number words, or in a rewritten sentence), the sentence
 *       holding it removed for an empty correction (a text left empty is written anew from the
 *       source facts), the appendix appended. When no flagged defect is visible (a false fail) it
 *       rewords slightly, as real fixers do: one word of the quoted (or a drawn) sentence swapped
 *       for a synonym outside any evidence, or its end punctuation changed.
 *   <li>The matcher says {@code shows_pattern} for a text showing a visible defect of the
 *       problem's criterion, missing such a text with the matcher-miss rate and matching a text
 *       without one with the false-match rate; its corrected text is the fixer's (a slight reword
 *       for a false match).
 * </ul>
 *
 * Every draw is deterministic from (seed, role, model, item, content digest, defect or criterion,
 * n), n being how many times this model was asked this about this exact text before: the same
 * requests in any order get the same answers, and a fresh review of an unchanged text draws again.
 */
public final class RealisticJudges {

    /** The reviewer model names the defaults give rates for (the benchmark job templates use them). */
    public static final String REVIEWER_B = "model-b";
    public static final String REVIEWER_C = "model-c";

    /**
     * The judges' error rates.
     *
     * @param seed mixed into every draw
     * @param missByModel a reviewer model's share of visible defects it misses
     * @param defaultMiss the miss rate of a reviewer model not in {@code missByModel}
     * @param falseFail a reviewer's share of reviews that notice no defect and still FAIL
     * @param matcherMiss the matcher's share of texts showing the pattern it answers false for
     * @param matcherFalseMatch the matcher's share of texts not showing it it answers true for
     */
    public record Settings(long seed, Map<String, Double> missByModel, double defaultMiss, double falseFail, double matcherMiss,
            double matcherFalseMatch) {

        /** The issue's defaults: B misses 25 %, C 30 %, 2 % false fails, the matcher misses 10 % and matches 2 % falsely. */
        public static Settings defaults(long seed) {
            return new Settings(seed, Map.of(REVIEWER_B, 0.25, REVIEWER_C, 0.30), 0.25, 0.02, 0.10, 0.02);
        }

        /** Judges that make no mistakes: every visible defect noticed and fixed, no false fail or match (the fault soak's). */
        public static Settings exact(long seed) {
            return new Settings(seed, Map.of(), 0, 0, 0, 0);
        }

        double miss(String model) {
            return missByModel.getOrDefault(model, defaultMiss);
        }
    }

    /**
     * Wordings of one problem per known defect kind ({@code %s} is the quoted evidence); any other
     * kind is worded from its criterion's failure signal (see {@link #signalWordings}).
     */
    static final Map<String, List<String>> WORDINGS = Map.of(
            "forbidden-term", List.of(
                    "uses a banned claim: \"%s\"",
                    "the term \"%s\" is a banned claim",
                    "the text makes a banned medical or absolute claim",
                    "a banned claim appears in the text"),
            "wrong-number", List.of(
                    "\"%s\" contradicts the source facts",
                    "a stated number does not match the source facts",
                    "the text states \"%s\", which the source facts contradict",
                    "a number in the text contradicts the source facts"),
            "missing-disclaimer", List.of(
                    "the required disclaimer is missing",
                    "the description lacks the required disclaimer",
                    "the mandatory disclaimer does not appear"),
            "drift-sentence", List.of(
                    "one sentence is about something other than this product: \"%s\"",
                    "a sentence is off topic and not about this product",
                    "one sentence talks about something unrelated to the product: \"%s\"",
                    "a sentence here is not about this product at all"),
            "drift-text", List.of(
                    "the whole description is about something other than this product",
                    "the entire description is not about this product at all",
                    "the description as a whole is unrelated to the product"),
            "boilerplate", List.of(
                    "the text is generic boilerplate shared with other listings: \"%s\"",
                    "generic boilerplate text that is copied from other listings",
                    "this passage is boilerplate reused in other listings"));

    /** Wordings of a defect of a kind without its own, around the criterion's failure signal. */
    static final List<String> SIGNAL_WORDINGS = List.of("%1$s: \"%2$s\"", "the text shows this: %1$s", "found %1$s");

    /** Wordings of a false fail around the failure signal and a real sentence of the text. */
    static final List<String> FALSE_FAIL_WORDINGS = List.of("possibly %1$s: \"%2$s\"",
            "this sentence may be a problem (%1$s): \"%2$s\"", "\"%2$s\" reads like %1$s");

    /** Word swaps of a slight reword (whole words, case kept for the first letter). */
    static final Map<String, String> SYNONYMS = Map.ofEntries(Map.entry("every", "each"), Map.entry("each", "every"),
            Map.entry("great", "excellent"), Map.entry("small", "compact"), Map.entry("quickly", "fast"),
            Map.entry("simple", "easy"), Map.entry("easy", "simple"), Map.entry("also", "too"), Map.entry("very", "really"),
            Map.entry("big", "large"), Map.entry("large", "big"), Map.entry("help", "assist"), Map.entry("keeps", "holds"),
            Map.entry("offers", "provides"), Map.entry("gives", "provides"), Map.entry("day", "daytime"),
            Map.entry("with", "featuring"));

    /** A sentence: up to end punctuation followed by a blank or the end of the line ("49.99" does not end one). */
    private static final Pattern SENTENCE = Pattern.compile(".+?(?:[.!?]+(?=\\s|$)|$)", Pattern.MULTILINE);
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]{8,})\"");
    private static final Pattern ISSUE_CRITERION = Pattern.compile("^(?:\\d+\\.\\s*)?([A-Za-z0-9_.-]+)\\s*:");
    private static final Pattern WORD = Pattern.compile("\\p{L}+");
    private static final String[] SMALL = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
    private static final String[] TENS = {"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"};
    private static final Pattern DIGITS = Pattern.compile("\\b\\d{1,2}\\b");
    private static final Pattern NUMBER_WORDS = Pattern.compile("(?i)\\b(?:(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
            + "(?:-(one|two|three|four|five|six|seven|eight|nine))?|(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven"
            + "|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen))\\b");

    /** The item a request is about and its planted defects. */
    record Item(String key, List<PlantedDefect> defects) {}

    private final Map<String, List<PlantedDefect>> defectsByItem = new LinkedHashMap<>();
    private final Map<String, String> criterionByKind;
    private final List<Map<String, String>> rows;
    private final String idColumn;
    private final Settings settings;
    private final Map<List<String>, Map<List<String>, List<String>>> itemIndex = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();
    private final AtomicInteger unmatched = new AtomicInteger();
    /** The rows' text column when the judges also notice text unlike the item's own (see {@link #noticingAlteredText}). */
    private volatile String contentColumn;

    /**
     * @param rows the catalog's rows (column names lower-cased), the items requests are matched to
     * @param idColumn the rows' id column (lower-cased)
     */
    RealisticJudges(List<PlantedDefect> defects, Map<String, String> criterionByKind, List<Map<String, String>> rows, String idColumn,
            Settings settings) {
        for (PlantedDefect d : defects) {
            if (!criterionByKind.containsKey(d.kind())) {
                throw new IllegalArgumentException("no criterion for defect kind " + d.kind());
            }
            defectsByItem.computeIfAbsent(d.itemId(), k -> new ArrayList<>()).add(d);
        }
        this.criterionByKind = Map.copyOf(criterionByKind);
        this.rows = List.copyOf(rows);
        this.idColumn = idColumn;
        this.settings = settings;
    }

    /** Judges of the catalog {@code catalogCsv} (id column {@code idColumn}) and its planted defects. */
    public static RealisticJudges forCatalog(Path catalogCsv, String idColumn, List<PlantedDefect> defects,
            Map<String, String> criterionByKind, Settings settings) throws IOException {
        List<Map<String, String>> rows = new ArrayList<>();
        try (Reader in = Files.newBufferedReader(catalogCsv, StandardCharsets.UTF_8);
                var parser = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
            for (CSVRecord r : parser) {
                Map<String, String> row = new LinkedHashMap<>();
                r.toMap().forEach((k, v) -> row.put(k.toLowerCase(Locale.ROOT), v.strip()));
                rows.add(row);
            }
        }
        return new RealisticJudges(defects, criterionByKind, rows, idColumn.toLowerCase(Locale.ROOT), settings);
    }

    public Settings settings() {
        return settings;
    }

    /**
     * Also notices, as a real model would, defects no ground-truth row lists, in a text that differs
     * from the item's own catalog text (the catalog's {@code contentColumn}): a sentence not in the
     * item's text that another row's text holds (one: {@code drift-sentence}; two or more:
     * {@code boilerplate}), and a number not in the item's text that equals none of its source
     * values ({@code wrong-number}). Each is missed with the model's miss rate, as a planted defect
     * is. For the canary tests: canaries are such texts.
     */
    public RealisticJudges noticingAlteredText(String contentColumn) {
        this.contentColumn = contentColumn.toLowerCase(Locale.ROOT);
        return this;
    }

    /** The altered-text defects of {@code content} against the item's own text (none when not noticing). */
    private List<PlantedDefect> altered(Item item, String content, Map<String, String> source) {
        String column = contentColumn;
        if (column == null || item.key().startsWith("source:") || item.key().contains("+")) {
            return List.of();
        }
        String own = rows.stream().filter(r -> item.key().equals(r.get(idColumn))).map(r -> r.getOrDefault(column, ""))
                .findFirst().orElse("");
        if (own.equals(content)) {
            return List.of();
        }
        List<PlantedDefect> out = new ArrayList<>();
        java.util.Set<String> ownSentences = new java.util.HashSet<>(sentences(own).stream().map(String::strip).toList());
        List<String> copied = new ArrayList<>();
        for (String sentence : sentences(content)) {
            String st = sentence.strip();
            if (!ownSentences.contains(st) && st.length() > 8 && rows.stream()
                    .anyMatch(r -> !item.key().equals(r.get(idColumn)) && r.getOrDefault(column, "").contains(st))) {
                copied.add(st);
            }
        }
        if (copied.size() == 1) {
            out.add(new PlantedDefect(item.key(), "drift-sentence", copied.get(0), "", ""));
        } else if (copied.size() > 1) {
            out.add(new PlantedDefect(item.key(), "boilerplate", String.join(" ", copied), "", ""));
        }
        Matcher m = Pattern.compile("\\b\\d+(?:\\.\\d+)?\\b").matcher(content);
        java.util.Set<String> ownNumbers = new java.util.HashSet<>();
        Matcher o = Pattern.compile("\\b\\d+(?:\\.\\d+)?\\b").matcher(own);
        while (o.find()) {
            ownNumbers.add(o.group());
        }
        while (m.find()) {
            String n = m.group();
            if (!ownNumbers.contains(n) && source.values().stream().noneMatch(v -> v != null && v.strip().equals(n))
                    && copied.stream().noneMatch(c -> c.contains(n))) {
                out.add(new PlantedDefect(item.key(), "wrong-number", n, "", ""));
                break;
            }
        }
        return out.stream().filter(d -> criterionByKind.containsKey(d.kind())).toList();
    }

    /** Requests whose source facts matched no catalog row (judged as items without defects): 0 unless the job and catalog disagree. */
    public int unmatchedRequests() {
        return unmatched.get();
    }

    /** The criterion a defect fails. */
    private String criterionOf(PlantedDefect d) {
        return criterionByKind.get(d.kind());
    }

    // ------------------------------------------------------------------ the roles

    /**
     * One review: the issues (without the {@code criterion:} prefix) per failed criterion, in the
     * order of {@code criteria}; empty for a PASS.
     *
     * @param failSignals each criterion's failure signal from the rubric (for issue wordings)
     */
    public Map<String, List<String>> review(String model, String content, Map<String, String> source, List<String> criteria,
            Map<String, String> failSignals) {
        Item item = itemOf(source);
        String key = key("review", model, item.key(), digest(content));
        int n = asked.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        Map<String, List<String>> issues = new LinkedHashMap<>();
        List<PlantedDefect> seen = new ArrayList<>(visible(item, content));
        seen.addAll(altered(item, content, source));
        for (PlantedDefect d : seen) {
            String c = criterionOf(d);
            if (criteria.contains(c) && draw(key, n, "notice", d) >= settings.miss(model)) {
                String wording = wording(d, failSignals.getOrDefault(c, ""), draw(key, n, "wording", d));
                issues.computeIfAbsent(c, k -> new ArrayList<>()).add(wording);
            }
        }
        if (issues.isEmpty() && !criteria.isEmpty() && draw(key, n, "false-fail") < settings.falseFail()) {
            List<String> sentences = sentences(content);
            String c = criteria.get(pick(draw(key, n, "false-criterion"), criteria.size()));
            String sentence = sentences.isEmpty() ? content : sentences.get(pick(draw(key, n, "false-sentence"), sentences.size()));
            String wording = FALSE_FAIL_WORDINGS.get(pick(draw(key, n, "false-wording"), FALSE_FAIL_WORDINGS.size()));
            issues.computeIfAbsent(c, k -> new ArrayList<>()).add(wording.formatted(signal(failSignals.getOrDefault(c, "")), sentence));
        }
        Map<String, List<String>> ordered = new LinkedHashMap<>();
        criteria.stream().filter(issues::containsKey).forEach(c -> ordered.put(c, issues.get(c)));
        return ordered;
    }

    /** One fix: the content with the flagged visible defects corrected, or slightly reworded when none is. */
    public String fix(String model, String content, Map<String, String> source, List<String> issues) {
        Item item = itemOf(source);
        String key = key("fix", model, item.key(), digest(content));
        int n = asked.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        Set<String> flagged = new TreeSet<>();
        for (String issue : issues) {
            Matcher m = ISSUE_CRITERION.matcher(issue.strip());
            if (m.find()) {
                flagged.add(m.group(1));
            }
        }
        List<PlantedDefect> targets = visible(item, content).stream()
                .filter(d -> flagged.contains(criterionOf(d)) || issues.stream().anyMatch(i -> quotes(i, d)))
                .toList();
        return targets.isEmpty() ? reword(content, issues, item, key, n) : correct(content, targets, source, key, n);
    }

    /** One matcher call: the corrected text when it judges the content to show a defect of {@code criterion}, else null. */
    public String match(String model, String content, Map<String, String> source, String criterion) {
        Item item = itemOf(source);
        String key = key("match", model, item.key(), digest(content), criterion);
        int n = asked.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        List<PlantedDefect> shown = visible(item, content).stream().filter(d -> criterionOf(d).equals(criterion)).toList();
        if (!shown.isEmpty()) {
            return draw(key, n, "miss") < settings.matcherMiss() ? null : correct(content, shown, source, key, n);
        }
        return draw(key, n, "false-match") < settings.matcherFalseMatch() ? reword(content, List.of(), item, key, n) : null;
    }

    private static List<PlantedDefect> visible(Item item, String content) {
        return item.defects().stream().filter(d -> DefectText.carries(content, d)).toList();
    }

    // ------------------------------------------------------------------ fixing

    private String correct(String content, List<PlantedDefect> defects, Map<String, String> source, String key, int n) {
        String out = content;
        for (PlantedDefect d : defects) {
            int[] span = d.evidence().isEmpty() ? null : DefectText.find(out, d.evidence());
            if (span == null) {
                continue;
            }
            out = d.correction().isEmpty() ? removeSentence(out, span) : substitute(out, span, d, draw(key, n, "style", d));
        }
        out = out.replaceAll("[ \\t]{2,}", " ").strip();
        if (out.isEmpty()) {
            out = aboutItem(source);
        }
        for (PlantedDefect d : defects) {
            if (d.evidence().isEmpty() && DefectText.find(out, d.appendix()) == null) {
                out = out + " " + d.appendix();
            }
        }
        return out;
    }

    /**
     * The correction in place of the span: a correction with a number as written (half the time),
     * with its numbers in the other form of digits and number words (30 %), or the whole sentence
     * rewritten around it (20 %); a correction without a number as written.
     */
    private static String substitute(String text, int[] span, PlantedDefect d, double u) {
        String correction = d.correction();
        boolean number = DIGITS.matcher(correction).find() || NUMBER_WORDS.matcher(correction).find();
        if (!number || u < 0.5) {
            return text.substring(0, span[0]) + correction + text.substring(span[1]);
        }
        if (u < 0.8) {
            return text.substring(0, span[0]) + otherNumberForm(correction) + text.substring(span[1]);
        }
        int[] s = sentenceAround(text, span);
        String sentence = text.substring(s[0], span[0]) + correction + text.substring(span[1], s[1]);
        String body = sentence.strip().replaceAll("[.!?]+$", "");
        String tail = u < 0.9 ? ", as the source facts state." : ", per the specifications.";
        return text.substring(0, s[0]) + body + tail + (s[1] < text.length() ? " " : "") + text.substring(s[1]).stripLeading();
    }

    /** The text without the sentences the span touches. */
    private static String removeSentence(String text, int[] span) {
        int[] s = sentenceAround(text, span);
        return (text.substring(0, s[0]) + text.substring(s[1]).stripLeading()).strip();
    }

    /** From the start of the sentence holding the span's start to the end (punctuation included) of the one holding its end. */
    private static int[] sentenceAround(String text, int[] span) {
        int start = span[0];
        while (start > 0) {
            char before = text.charAt(start - 1);
            if (before == '\n' || Character.isWhitespace(before) && start >= 2 && ".!?".indexOf(text.charAt(start - 2)) >= 0) {
                break;
            }
            start--;
        }
        Matcher m = SENTENCE.matcher(text);
        int end = text.length();
        if (m.find(Math.max(0, span[1] - 1))) {
            end = m.end();
        }
        return new int[] {start, end};
    }

    /**
     * A slight reword that fixes nothing: in the sentence an issue quotes (else a drawn one), a
     * word swapped for a synonym where no evidence stands, or else the sentence's end punctuation
     * changed (which leaves every defect in place: {@link DefectText} ignores punctuation). A quoted
     * sentence is always reworded by a word (a synonym, else "also" after its first word): a fixer
     * told that one sentence is wrong rewrites that sentence.
     */
    private String reword(String content, List<String> issues, Item item, String key, int n) {
        List<int[]> spans = sentenceSpans(content);
        if (spans.isEmpty()) {
            return content + ".";
        }
        int[] target = spans.get(pick(draw(key, n, "reword-sentence"), spans.size()));
        boolean quoted = false;
        for (String issue : issues) {
            Matcher q = QUOTED.matcher(issue);
            while (q.find()) {
                int[] at = DefectText.find(content, q.group(1));
                if (at != null) {
                    target = sentenceAround(content, at);
                    quoted = true;
                }
            }
        }
        if (quoted || draw(key, n, "reword-kind") < 0.5) {
            Matcher w = WORD.matcher(content).region(target[0], target[1]);
            while (w.find()) {
                String word = w.group();
                String swap = SYNONYMS.get(word.toLowerCase(Locale.ROOT));
                if (swap != null && !insideEvidence(content, w.start(), w.end(), item)) {
                    if (Character.isUpperCase(word.charAt(0))) {
                        swap = Character.toUpperCase(swap.charAt(0)) + swap.substring(1);
                    }
                    return content.substring(0, w.start()) + swap + content.substring(w.end());
                }
            }
        }
        if (quoted) {
            // a fixer told that a sentence is wrong rewrites that sentence, never only its punctuation
            Matcher first = WORD.matcher(content).region(target[0], target[1]);
            if (first.find()) {
                return content.substring(0, first.end()) + " also" + content.substring(first.end());
            }
        }
        int end = target[1];
        char last = end > 0 ? content.charAt(end - 1) : ' ';
        return switch (last) {
            case '.' -> content.substring(0, end - 1) + "!" + content.substring(end);
            case '!', '?' -> content.substring(0, end - 1) + "." + content.substring(end);
            default -> content.substring(0, end) + "." + content.substring(end);
        };
    }

    private static boolean insideEvidence(String content, int start, int end, Item item) {
        for (PlantedDefect d : item.defects()) {
            int[] at = d.evidence().isEmpty() ? null : DefectText.find(content, d.evidence());
            if (at != null && start < at[1] && end > at[0]) {
                return true;
            }
        }
        return false;
    }

    /** A sentence about the item from its source facts, for a text whose every sentence was removed. */
    private static String aboutItem(Map<String, String> source) {
        String name = source.get("name");
        if (name == null || name.isBlank()) {
            return "This listing covers " + String.join(", ", source.values()) + ".";
        }
        String brand = source.getOrDefault("brand", "");
        String category = source.getOrDefault("category", "");
        return "The " + name + (brand.isBlank() ? "" : " from " + brand) + " is built for everyday "
                + (category.isBlank() ? "" : category + " ") + "needs.";
    }

    /** Digits (0-99) as number words, or number words as digits. */
    static String otherNumberForm(String s) {
        Matcher d = DIGITS.matcher(s);
        if (d.find()) {
            return d.replaceAll(m -> words(Integer.parseInt(m.group())));
        }
        return NUMBER_WORDS.matcher(s).replaceAll(m -> {
            if (m.group(3) != null) {
                return Integer.toString(index(SMALL, m.group(3)));
            }
            int value = index(TENS, m.group(1)) * 10 + (m.group(2) == null ? 0 : index(SMALL, m.group(2)));
            return Integer.toString(value);
        });
    }

    static String words(int n) {
        return n < 20 ? SMALL[n] : TENS[n / 10] + (n % 10 == 0 ? "" : "-" + SMALL[n % 10]);
    }

    private static int index(String[] table, String word) {
        String w = word.toLowerCase(Locale.ROOT);
        for (int i = 0; i < table.length; i++) {
            if (table[i].equals(w)) {
                return i;
            }
        }
        throw new IllegalArgumentException(word);
    }

    // ------------------------------------------------------------------ wording

    private static String wording(PlantedDefect d, String failSignal, double u) {
        String quote = quote(d);
        List<String> options = WORDINGS.get(d.kind());
        if (options == null) {
            options = SIGNAL_WORDINGS;
            String w = options.get(pick(u, options.size()));
            if (quote.isEmpty() && w.contains("%2$s")) {
                w = options.get(1);
            }
            return w.formatted(signal(failSignal), quote);
        }
        String w = options.get(pick(u, options.size()));
        if (quote.isEmpty() && w.contains("%s")) {
            w = options.stream().filter(o -> !o.contains("%s")).findFirst().orElse(w.replace(": \"%s\"", ""));
        }
        return w.contains("%s") ? w.formatted(quote) : w;
    }

    /** What an issue quotes of a defect: its evidence's first sentence; nothing for an absence. */
    private static String quote(PlantedDefect d) {
        String e = d.evidence();
        int end = e.indexOf(". ");
        return end > 0 ? e.substring(0, end + 1) : e;
    }

    private static boolean quotes(String issue, PlantedDefect d) {
        String q = quote(d);
        return !q.isEmpty() && issue.contains(q);
    }

    /** A failure signal as the middle of a sentence: first letter lower-cased, end punctuation dropped. */
    private static String signal(String failSignal) {
        String s = failSignal.strip().replaceAll("[.!?]+$", "");
        if (s.isEmpty()) {
            return "a problem with this criterion";
        }
        return Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    private static List<String> sentences(String content) {
        return sentenceSpans(content).stream().map(s -> content.substring(s[0], s[1]).strip()).toList();
    }

    private static List<int[]> sentenceSpans(String content) {
        List<int[]> out = new ArrayList<>();
        Matcher m = SENTENCE.matcher(content);
        while (m.find()) {
            int start = m.start();
            while (start < m.end() && Character.isWhitespace(content.charAt(start))) {
                start++;
            }
            if (start < m.end()) {
                out.add(new int[] {start, m.end()});
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ items and draws

    /** The item with these source facts (the catalog's rows whose columns equal them). */
    private Item itemOf(Map<String, String> source) {
        List<String> columns = List.copyOf(new TreeSet<>(source.keySet()));
        Map<List<String>, List<String>> byValues = itemIndex.computeIfAbsent(columns, this::index);
        List<String> ids = byValues.getOrDefault(values(source, columns), List.of());
        if (ids.isEmpty()) {
            unmatched.incrementAndGet();
        }
        List<PlantedDefect> defects = new ArrayList<>();
        ids.forEach(id -> defects.addAll(defectsByItem.getOrDefault(id, List.of())));
        return new Item(ids.isEmpty() ? "source:" + values(source, columns) : String.join("+", ids), defects);
    }

    private Map<List<String>, List<String>> index(List<String> columns) {
        Map<List<String>, List<String>> out = new ConcurrentHashMap<>();
        for (Map<String, String> row : rows) {
            out.computeIfAbsent(values(row, columns), k -> new ArrayList<>()).add(row.get(idColumn));
        }
        return out;
    }

    private static List<String> values(Map<String, String> facts, List<String> columns) {
        return columns.stream().map(c -> facts.getOrDefault(c, "").strip()).toList();
    }

    private static String key(String... parts) {
        return String.join("\u0000", parts);
    }

    private double draw(String key, int n, String stream, PlantedDefect d) {
        return draw(key, n, stream + "\u0000" + d.kind() + "\u0000" + d.evidence() + "\u0000" + d.appendix());
    }

    /** A uniform draw in [0, 1) from the seed, the call's key, n and a stream name. */
    private double draw(String key, int n, String stream) {
        long h = settings.seed() * 0x9E3779B97F4A7C15L ^ n * 0xC2B2AE3D27D4EB4FL;
        for (byte b : (key + "\u0000" + stream).getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001B3L;
        }
        // splitmix64 finaliser
        h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
        h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
        h ^= h >>> 31;
        return (h >>> 11) * 0x1.0p-53;
    }

    private static int pick(double u, int size) {
        return Math.min(size - 1, (int) Math.floor(u * size));
    }

    private static String digest(String content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
