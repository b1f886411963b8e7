package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.model.ScriptedServer.Recorded;
import dev.santabatch.model.ScriptedServer.Reply;
import dev.santabatch.export.RunReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVRecord;
import org.springframework.jdbc.core.JdbcTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rules learned from the sample, whole job, against a scripted model on 127.0.0.1: a catalog whose
 * texts state a warranty that contradicts the warranty column in one item of five. The reviewers
 * fail the wrong number on criterion {@code accuracy}, the fixer writes the column's value, the
 * matcher answers like the reviewers. A second defect: "works like a miracle cure" (criterion
 * {@code claims}), which the fixer rewrites to "works like a simple cure"; "a miracle of design"
 * is fine.
 */
class LearnedRulesFunctionalTests {

    private static final Pattern WARRANTY = Pattern.compile("(\\d+)-year warranty");
    private static final Pattern NAME = Pattern.compile("^The (\\S+ \\S+) is");

    @TempDir
    Path dir;

    /** The scripted model: roles told apart by their system prompts, counted by role. */
    static final class Model {
        final Map<String, Integer> years = new LinkedHashMap<>();
        /** Texts holding this marker pass their first review although they are defective. */
        String blindOnce = "\u0000";
        /** Texts holding this marker pass every review although they are defective. */
        String blindAlways = "\u0000";
        /** Texts holding this marker fail on claims once their warranty is right (a problem seen behind another). */
        String hiddenClaim = "\u0000";
        /** Texts holding this marker fail on tone (the fixer removes it). */
        String shout = "\u0000";
        /** Reviewers that take a stated warranty two years above the column as the shop's extended one: no defect. */
        boolean extendedWarranty;
        /** Every text some review answer failed. */
        final Set<String> failedTexts = ConcurrentHashMap.newKeySet();
        final Map<String, AtomicInteger> reviewed = new ConcurrentHashMap<>();
        final AtomicInteger reviews = new AtomicInteger();
        final AtomicInteger fixes = new AtomicInteger();
        final AtomicInteger matches = new AtomicInteger();
        /** Matcher calls by the criterion of the pattern asked about. */
        final Map<String, AtomicInteger> matchesOn = new ConcurrentHashMap<>();
        /** Every call received, and the number of the first review of an unsampled item's rule fix (0: none). */
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger firstRuleFixReview = new AtomicInteger();
        final Set<String> wrong = ConcurrentHashMap.newKeySet();
        private final Set<String> seen = ConcurrentHashMap.newKeySet();
        /** Critical issues written without their criterion prefix (the seed's free-text shape), and how many. */
        boolean unprefixed;
        final AtomicInteger unprefixedIssues = new AtomicInteger();

        List<String> defects(String content) {
            List<String> out = new ArrayList<>();
            Matcher n = NAME.matcher(content);
            Matcher w = WARRANTY.matcher(content);
            if (n.find() && w.find() && Integer.parseInt(w.group(1)) != years.get(n.group(1))
                    && !(extendedWarranty && Integer.parseInt(w.group(1)) == years.get(n.group(1)) + 2)) {
                out.add("accuracy: the text states a " + w.group(1) + "-year warranty but the source says "
                        + years.get(n.group(1)) + " years");
            }
            if (content.contains("miracle cure")) {
                out.add("claims: makes a health claim: \"miracle cure\"");
            }
            if (content.contains(shout)) {
                out.add("tone: shouts \"" + shout.strip() + "\" at the reader");
            }
            if (content.contains(hiddenClaim) && out.isEmpty()) {
                out.add("claims: makes a health claim: \"" + hiddenClaim.strip() + "\"");
            }
            return out;
        }

        String fix(String content) {
            String out = content;
            Matcher n = NAME.matcher(content);
            if (n.find() && !extendedWarranty) {
                out = WARRANTY.matcher(out).replaceAll(years.get(n.group(1)) + "-year warranty");
            }
            return out.replace("miracle cure", "simple cure").replace(shout, "");
        }

        Reply answer(Recorded request) {
            var body = request.json();
            String system = body.get("messages").get(0).get("content").asText();
            String user = body.get("messages").get(1).get("content").asText();
            String content = ScriptedCatalogModel.between(user, "<content>\n", "\n</content>");
            int call = calls.incrementAndGet();
            try {
                if (system.startsWith("You are an independent quality reviewer")) {
                    reviews.incrementAndGet();
                    // an item first seen with its wrong warranty corrected: a learned rule's fix under review
                    Matcher name = NAME.matcher(content);
                    if (name.find() && seen.add(name.group(1)) && wrong.contains(name.group(1)) && defects(content).isEmpty()) {
                        firstRuleFixReview.compareAndSet(0, call);
                    }
                    int seen = reviewed.computeIfAbsent(content, k -> new AtomicInteger()).incrementAndGet();
                    // both reviewers of the first panel miss it
                    boolean blind = content.contains(blindOnce) && seen <= 2 || content.contains(blindAlways);
                    List<String> found = blind ? List.of() : defects(content);
                    if (!found.isEmpty()) {
                        failedTexts.add(content);
                    }
                    String list = ScriptedCatalogModel.between(user, "judge every one of ", ", with exactly one check");
                    List<Map<String, String>> checks = new ArrayList<>();
                    for (String c : list.split(", ")) {
                        boolean fail = found.stream().anyMatch(i -> i.startsWith(c + ":"));
                        checks.add(Map.of("criterion", c, "result", fail ? "FAIL" : "PASS", "detail", fail ? "defect" : "ok"));
                    }
                    List<String> issues = found;
                    if (unprefixed) {
                        issues = found.stream().map(i -> i.substring(i.indexOf(": ") + 2)).toList();
                        unprefixedIssues.addAndGet(found.size());
                    }
                    return Reply.ok(ScriptedServer.JSON.writeValueAsString(Map.of("verdict", found.isEmpty() ? "PASS" : "FAIL",
                            "checks", checks, "critical_issues", issues, "suggestions", List.of())));
                }
                if (system.startsWith("You are an editor")) {
                    fixes.incrementAndGet();
                    return Reply.ok(fix(content));
                }
                if (system.startsWith("You check one text for one known problem")) {
                    matches.incrementAndGet();
                    String criterion = ScriptedCatalogModel.between(user, "Criterion ", ",");
                    matchesOn.computeIfAbsent(criterion, k -> new AtomicInteger()).incrementAndGet();
                    boolean shows = defects(content).stream().anyMatch(i -> i.startsWith(criterion + ":"));
                    return Reply.ok(ScriptedServer.JSON.writeValueAsString(Map.of("shows_pattern", shows,
                            "corrected_text", shows ? fix(content) : "")));
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return Reply.status(400, "{\"error\":{\"message\":\"unknown role\"}}", Map.of("Content-Type", "application/json"));
        }
    }

    /**
     * 300 items; every fifth states a warranty two years longer than its column. {@code extra} adds a
     * sentence to item i when it returns one.
     */
    private LlmJobs.Catalog catalog(Model model, java.util.function.IntFunction<String> extra) throws IOException {
        return catalog(model, extra, i -> i % 5 == 0);
    }

    /** As {@link #catalog(Model, java.util.function.IntFunction)}, with the items whose warranty is wrong. */
    private LlmJobs.Catalog catalog(Model model, java.util.function.IntFunction<String> extra,
            java.util.function.IntPredicate wrong) throws IOException {
        return catalog(model, extra, wrong, "i", "Model");
    }

    /** As above, item i's id {@code <idPrefix><i>} and its product {@code <namePrefix><i> <kind>}. */
    private LlmJobs.Catalog catalog(Model model, java.util.function.IntFunction<String> extra,
            java.util.function.IntPredicate wrong, String idPrefix, String namePrefix) throws IOException {
        StringBuilder csv = new StringBuilder("id,name,category,warranty_years,description\n");
        String[] kinds = {"kettle", "lamp", "drill", "fan", "heater"};
        for (int i = 1; i <= 300; i++) {
            String name = namePrefix + i + " " + kinds[i % kinds.length];
            int years = 1 + i % 4;
            model.years.put(name, years);
            int stated = wrong.test(i) ? years + 2 : years;
            if (wrong.test(i)) {
                model.wrong.add(name);
            }
            String text = "The " + name + " is a practical " + kinds[i % kinds.length] + " for the home. It comes with a "
                    + stated + "-year warranty." + extra.apply(i);
            csv.append(String.format("%s%03d,%s,%s,%d,\"%s\"%n", idPrefix, i, name, kinds[i % kinds.length], years, text));
        }
        Path file = dir.resolve("catalog.csv");
        Files.writeString(file, csv);
        return new LlmJobs.Catalog(file, file);
    }

    private Path job(LlmJobs.Catalog catalog, String baseUrl) throws IOException {
        String yaml = "name: warranties\n"
                + "input:\n"
                + "  path: " + catalog.csv().toAbsolutePath() + "\n"
                + "  id-column: id\n"
                + "  content-column: description\n"
                + "  category-column: category\n"
                + "  source-columns: [name, category, warranty_years]\n"
                + "task-spec: Write a short product description true to the source facts.\n"
                + "rubric:\n"
                + "  - id: accuracy\n    pass: Every number matches the source.\n    fail-signal: A number contradicts the source.\n"
                + "  - id: claims\n    pass: No health claims.\n    fail-signal: A health claim.\n"
                + "sampling:\n  seed: 5\n"
                + "reviewers:\n"
                + "  - id: B\n    type: llm\n" + LlmJobs.model("model-b", baseUrl, "5s")
                + "  - id: C\n    type: llm\n" + LlmJobs.model("model-c", baseUrl, "5s")
                + "fixer:\n  type: llm\n" + LlmJobs.model("model-fix", baseUrl, "5s").replace("    ", "  ")
                + "run:\n  concurrency: 4\n";
        Path job = dir.resolve("warranties.yml");
        Files.writeString(job, yaml);
        return job;
    }

    private LlmJobs.Result run(Path job, String... flags) {
        return runAs("r1", job, flags);
    }

    private LlmJobs.Result runAs(String runId, Path job, String... flags) {
        List<String> args = new ArrayList<>(List.of("run", job.toString(), "--out", dir.resolve("out").toString(),
                "--run-id", runId));
        args.addAll(List.of(flags));
        return LlmJobs.cli(LlmJobs.props(dir), args.toArray(String[]::new));
    }

    private Path out() {
        return out("r1");
    }

    private Path out(String runId) {
        return dir.resolve("out/warranties").resolve(runId);
    }

    private List<Map<String, Object>> learned() throws IOException {
        return learned("r1");
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> learned(String runId) throws IOException {
        return (List<Map<String, Object>>) RunReport.read(out(runId).resolve("report.json")).get("learned_rules");
    }

    private List<CSVRecord> batchFixes() throws IOException {
        return batchFixes("r1");
    }

    private List<CSVRecord> batchFixes(String runId) throws IOException {
        return LlmJobs.records(out(runId).resolve("changes.csv")).stream().filter(r -> r.get("cause").equals("batch-fix"))
                .toList();
    }

    @Test
    void aWrongNumberPatternIsLearnedAsNumberGroundingAndFixedWithoutMatcherCalls() throws Exception {
        Model model = new Model();
        LlmJobs.Catalog catalog = catalog(model, i -> "");
        try (ScriptedServer server = ScriptedServer.answering(model::answer)) {
            LlmJobs.Result r = run(job(catalog, server.baseUrl()));

            assertThat(r.exit()).as(r.all()).isZero();
            assertThat(model.matches.get()).isZero();
            List<Map<String, Object>> learned = learned();
            assertThat(learned).singleElement().satisfies(l -> {
                assertThat(l.get("status")).isEqualTo("candidate");
                assertThat(l.get("shape")).isEqualTo("number-corrected");
                assertThat(((Number) l.get("support")).intValue()).isGreaterThanOrEqualTo(3);
                assertThat(((Map<?, ?>) l.get("review_check")).get("reviewed")).isEqualTo(10);
                assertThat((String) l.get("fragment")).contains("type: number-grounding", "column: warranty_years",
                        "unit: year", "fix: correct");
            });
            // every batch-fix revision is the rule's, and the shipped catalog states no wrong warranty
            List<CSVRecord> fixes = batchFixes();
            assertThat(fixes).isNotEmpty().allSatisfy(c -> assertThat(c.get("pattern")).endsWith(
                    "(learned rule " + learned.get(0).get("rule") + ")"));
            assertThat(((Number) learned.get(0).get("fixed")).longValue()).isEqualTo(fixes.size());
            for (String text : LlmJobs.contents(out().resolve("catalog.csv"), "id", "description").values()) {
                assertThat(model.defects(text)).as(text).isEmpty();
            }
            assertThat(r.out()).contains("learned:  " + learned.get(0).get("rule"), "type: number-grounding");
        }
    }

    @Test
    void aBudgetReachedWhileALearnedRuleIsValidatedStopsTheRunAndARaisedBudgetResumesIt() throws Exception {
        Model model = new Model();
        LlmJobs.Catalog catalog = catalog(model, i -> "");
        try (ScriptedServer server = ScriptedServer.answering(model::answer)) {
            // given a budget that round 1's review step leaves room in, and the rule's review check does not
            Path job = job(catalog, server.baseUrl());
            Files.writeString(job, Files.readString(job) + "budget:\n  max-calls: 100\n");

            // when
            LlmJobs.Result stopped = run(job);

            // then the budget was reached in the review check, and the run stopped there: not failed
            assertThat(model.firstRuleFixReview.get()).as(stopped.all()).isBetween(1, 99);
            assertThat(model.calls.get()).isEqualTo(100);
            assertThat(stopped.exit()).as(stopped.all()).isEqualTo(3);
            assertThat(RunReport.read(out().resolve("report.json")).get("status")).isEqualTo(RunReport.BUDGET_STOPPED);
            assertThat(out().resolve("catalog.csv")).doesNotExist();
            assertThat(out().resolve("verified.csv")).exists();
            assertThat(out().resolve("unverified.csv")).exists();
            assertThat(stopped.all()).contains("budget reached").doesNotContain("Encountered an error executing step");

            // and a raised budget resumes it: the rule is validated and fixes the pattern
            Files.writeString(job, Files.readString(job).replace("max-calls: 100", "max-calls: 100000"));
            LlmJobs.Result resumed = run(job);
            assertThat(resumed.exit()).as(resumed.all()).isZero();
            assertThat(learned()).singleElement().satisfies(l -> assertThat(l.get("status")).isEqualTo("candidate"));
            for (String text : LlmJobs.contents(out().resolve("catalog.csv"), "id", "description").values()) {
                assertThat(model.defects(text)).as(text).isEmpty();
            }
        }
    }

    @Test
    void withNoLearnedRulesTheMatcherHandlesThePatternAsBefore() throws Exception {
        Model model = new Model();
        LlmJobs.Catalog catalog = catalog(model, i -> "");
        try (ScriptedServer server = ScriptedServer.answering(model::answer)) {
            LlmJobs.Result r = run(job(catalog, server.baseUrl()), "--no-learned-rules");

            assertThat(r.exit()).as(r.all()).isIn(0, 3);
            assertThat(model.matches.get()).isPositive();
            assertThat(learned()).isEmpty();
            assertThat(batchFixes()).isNotEmpty().noneSatisfy(c -> assertThat(c.get("pattern")).contains("learned rule"));
        }
    }

    @Test
    void aPassedItemFlaggedWithCheckableEvidenceIsReviewedAgainAndFixed() throws Exception {
        Model model = new Model();
        model.blindOnce = "Sold in pairs.";
        // a quarter of the wrong-number items are missed by both reviewers on their first review
        LlmJobs.Catalog catalog = catalog(model, i -> i % 20 == 0 ? " Sold in pairs." : "");
        try (ScriptedServer server = ScriptedServer.answering(model::answer)) {
            LlmJobs.Result r = run(job(catalog, server.baseUrl()));

            assertThat(r.exit()).as(r.all()).isZero();
            Map<String, Object> rule = learned().get(0);
            assertThat(rule.get("status")).isEqualTo("candidate");
            assertThat(((Number) rule.get("fresh_reviews")).intValue()).isPositive();
            // the sampled item the first reviews passed carries the fix now
            Map<String, String> shipped = LlmJobs.contents(out().resolve("catalog.csv"), "id", "description");
            for (String text : shipped.values()) {
                assertThat(model.defects(text)).as(text).isEmpty();
            }
            // but no review passed its fixed revision: a clean sample covers only items it never drew,
            // so it is unverified, not shipped
            List<CSVRecord> unverified = LlmJobs.records(out().resolve("unverified.csv"));
            assertThat(unverified).as(r.all()).isNotEmpty().allSatisfy(u -> {
                assertThat(u.get("unverified_reason"))
                        .matches("sampled in round \\d+ and passed at revision \\d+; its current revision \\d+ was not reviewed");
                assertThat(u.get("description")).contains("Sold in pairs.");
                assertThat(model.defects(u.get("description"))).isEmpty();
                assertThat(shipped).doesNotContainKey(u.get("id"));
            });
            assertThat(batchFixes().stream().map(c -> c.get("item_id")).toList())
                    .containsAll(unverified.stream().map(u -> u.get("id")).toList());
            int held = LlmJobs.records(out().resolve("escalations.csv")).size();
            assertThat(shipped.size() + unverified.size() + held).isEqualTo(300);
        }
    }

    @Test
    void theIssuesAttributedInTheRulesValidationReviewsAreCounted() throws Exception {
        // given the fresh-review scenario, with reviewers that write their issues without a prefix
        Model model = new Model();
        model.blindOnce = "Sold in pairs.";
        model.unprefixed = true;
        LlmJobs.Catalog catalog = catalog(model, i -> i % 20 == 0 ? " Sold in pairs." : "");
        try (ScriptedServer server = ScriptedServer.answering(model::answer)) {
            LlmJobs.Result r = run(job(catalog, server.baseUrl()));

            // then every unprefixed issue the server sent is counted once, the fresh reviews' too
            assertThat(r.exit()).as(r.all()).isZero();
            assertThat(((Number) learned().get(0).get("fresh_reviews")).intValue()).isPositive();
            @SuppressWarnings("unchecked")
            Map<String, Object> run = (Map<String, Object>) RunReport.read(out().resolve("report.json")).get("run");
            assertThat(((Number) run.get("issues_reattributed")).intValue()).isEqualTo(model.unprefixedIssues.get());
        }
    }

    @Test
    void aPassedItemTheFreshReviewFailsAndTheRuleCannotFixWithinTheRulesIsEscalatedForThatReason() throws Exception {
        Model model = new Model();
        model.blindOnce = "Sold in pairs.";
        // as above; and a job rule the rule's fix of those items breaks (their corrected text, only)
        LlmJobs.Catalog catalog = catalog(model, i -> i % 20 == 0 ? " Sold in pairs." : "");
        try (ScriptedServer server = ScriptedServer.answering(model::answer)) {
            Path job = job(catalog, server.baseUrl());
            Files.writeString(job, Files.readString(job).replace("fail-signal: A health claim.\n",
                    "fail-signal: A health claim.\n    rules:\n      - id: no-paired-one-year\n        type: forbidden-terms\n"
                            + "        patterns: ['1-year warranty\\. Sold in pairs']\n"));

            LlmJobs.Result r = run(job);

            // then the sampled item the fresh review failed is held, for what happened: not FIX_BREAKS_RULES
            assertThat(r.exit()).as(r.all()).isIn(0, 3);
            Map<String, Object> rule = learned().get(0);
            assertThat(((Number) rule.get("fresh_reviews")).intValue()).as(r.all()).isPositive();
            List<CSVRecord> freshlyFailed = LlmJobs.records(out().resolve("escalations.csv")).stream()
                    .filter(h -> h.get("open_issues").contains("the fresh review failed it")).toList();
            assertThat(freshlyFailed).isNotEmpty()
                    .allSatisfy(h -> assertThat(h.get("reason")).isEqualTo("LEARNED_RULE_CANNOT_FIX"));
        }
    }

    @Test
    void aRuleThatFlagsAPassedItemIsRejectedAndItsPatternGoesToTheMatcher() throws Exception {
        Model model = new Model();
        // the warranty is right everywhere: only the claims pattern; "miracle" is fine in a third of the items
        LlmJobs.Catalog catalog = catalog(model, i -> i % 4 == 0 ? " It works like a miracle cure."
                : i % 3 == 0 ? " A miracle of design." : "", i -> false);
        try (ScriptedServer server = ScriptedServer.answering(model::answer)) {
            LlmJobs.Result r = run(job(catalog, server.baseUrl()));

            List<Map<String, Object>> learned = learned();
            assertThat(learned).anySatisfy(l -> {
                assertThat(l.get("criterion")).isEqualTo("claims");
                assertThat(l.get("status")).isEqualTo("rejected");
                assertThat((String) l.get("reason")).contains("which both reviewers passed");
            });
            assertThat(model.matches.get()).as(r.all()).isPositive();
        }
    }

    @Test
    void theCatalogShareCapRejectsARuleThatFlagsFarMoreThanThePatternsPrevalence() throws Exception {
        Model model = new Model();
        // a quarter of the items make the claim; every other one says "a miracle of design" and, the
        // only reason none of them passed, states a wrong warranty: the rule learned from the claims'
        // fixes ("miracle" -> "simple") flags every eligible item
        LlmJobs.Catalog catalog = catalog(model, i -> i % 4 == 0 ? " It works like a miracle cure." : " A miracle of design.",
                i -> i % 4 != 0);
        try (ScriptedServer server = ScriptedServer.answering(model::answer)) {
            LlmJobs.Result r = run(job(catalog, server.baseUrl()));

            assertThat(learned()).as(r.all()).anySatisfy(l -> {
                assertThat(l.get("criterion")).isEqualTo("claims");
                assertThat(l.get("status")).isEqualTo("rejected");
                assertThat((String) l.get("reason")).contains("more than the cap");
                assertThat(((Number) l.get("flagged")).doubleValue()).isGreaterThan(((Number) l.get("cap")).doubleValue());
            });
        }
    }

    @Test
    void anItemTheFreshReviewFailedIsHeldEvenWhenTheRuleIsRejected() throws Exception {
        // given wrong-number items the first panel misses ("Sold in pairs.": the fresh review fails them),
        // and others no review ever fails ("Gift boxed."): the rule flags those too, their fresh review
        // passes them again, so the rule is rejected
        Model model = new Model();
        model.blindOnce = "Sold in pairs.";
        model.blindAlways = "Gift boxed.";
        LlmJobs.Catalog catalog = catalog(model, i -> i % 20 == 0 ? " Sold in pairs." : i % 20 == 10 ? " Gift boxed." : "");
        try (ScriptedServer server = ScriptedServer.answering(model::answer)) {
            LlmJobs.Result r = run(job(catalog, server.baseUrl()));

            // then no item a fresh review failed on its current text ships (catalog.csv or verified.csv):
            // each is held, FAIL_UNRESOLVED, with the fresh review's issues
            Path shippedFile = Files.exists(out().resolve("catalog.csv")) ? out().resolve("catalog.csv") : out().resolve("verified.csv");
            Map<String, String> shipped = LlmJobs.contents(shippedFile, "id", "description");
            List<String> freshlyFailedShipped = shipped.entrySet().stream()
                    .filter(e -> e.getValue().contains("Sold in pairs.") && !model.defects(e.getValue()).isEmpty()
                            && model.reviewed.getOrDefault(e.getValue(), new AtomicInteger()).get() > 2)
                    .map(Map.Entry::getKey).toList();
            assertThat(freshlyFailedShipped).as(r.all()).isEmpty();
            List<org.apache.commons.csv.CSVRecord> held = LlmJobs.records(out().resolve("escalations.csv")).stream()
                    .filter(h -> h.get("reason").equals("FAIL_UNRESOLVED")).toList();
            assertThat(held).as("items a fresh review failed, held: %s", r.all()).isNotEmpty();
            assertThat(learned()).as("the rule was rejected").noneMatch(l -> "candidate".equals(l.get("status")));
        }
    }

    @Test
    void anItemWhoseRuleFixTheReviewCheckFailedOnAnotherCriterionIsHeldNotShipped() throws Exception {
        // given wrong-warranty items, some of which make a health claim the reviewers see only once the
        // warranty is right: the rule's review check reviews their fixed text and fails it on claims
        Model model = new Model();
        model.hiddenClaim = " Cures every cold.";
        LlmJobs.Catalog catalog = catalog(model, i -> i % 5 == 0 && i <= 15 ? " Cures every cold." : "");
        try (ScriptedServer server = ScriptedServer.answering(model::answer)) {
            // when
            LlmJobs.Result r = run(job(catalog, server.baseUrl()));

            // then no text a reviewer failed ships (catalog.csv or verified.csv)
            Path shippedFile = Files.exists(out().resolve("catalog.csv")) ? out().resolve("catalog.csv") : out().resolve("verified.csv");
            Map<String, String> shipped = LlmJobs.contents(shippedFile, "id", "description");
            List<String> failedShipped = shipped.entrySet().stream().filter(e -> model.failedTexts.contains(e.getValue()))
                    .map(e -> e.getKey() + " " + e.getValue()).toList();
            assertThat(failedShipped).as(r.all()).isEmpty();
            // the rule (whose fixes are right on its criterion) stays, and an item whose fix the review check
            // failed on claims is held FAIL_UNRESOLVED with that FAIL on the rule's fix (its current text)
            assertThat(learned()).singleElement().satisfies(l -> assertThat(l.get("status")).isEqualTo("candidate"));
            List<CSVRecord> held = LlmJobs.records(out().resolve("escalations.csv")).stream()
                    .filter(h -> h.get("reason").equals("FAIL_UNRESOLVED") && h.get("open_issues").contains("Cures every cold."))
                    .toList();
            assertThat(held).as(r.all()).isNotEmpty().allSatisfy(h -> {
                assertThat(h.get("last_passing")).isNotEqualTo(h.get("original"));
                assertThat(model.failedTexts).contains(h.get("last_passing"));
            });
        }
    }

    // ---------------------------------------------------------------- across nights

    /** The job with a third criterion, tone, which the reviewers fail on a shouted marker. */
    private Path toneJob(LlmJobs.Catalog catalog, String baseUrl) throws IOException {
        Path job = job(catalog, baseUrl);
        Files.writeString(job, Files.readString(job).replace("sampling:\n",
                "  - id: tone\n    pass: Calm wording.\n    fail-signal: Shouts at the reader.\n    canaries: []\nsampling:\n"));
        return job;
    }

    /** The scripted model of the night in progress, behind one server for every night. */
    private final java.util.concurrent.atomic.AtomicReference<Model> night = new java.util.concurrent.atomic.AtomicReference<>();

    @Test
    void anEarlierNightsRuleIsRevalidatedOnTheNextNightsSampleThenFixesItsNewItemsWithoutMatcherCalls() throws Exception {
        try (ScriptedServer server = ScriptedServer.answering(r -> night.get().answer(r))) {
            // given a first night that learned the wrong-warranty rule (and saw miracle-cure claims)
            Model first = new Model();
            night.set(first);
            Path job = toneJob(catalog(first, i -> i % 7 == 0 ? " It works like a miracle cure." : ""), server.baseUrl());
            LlmJobs.Result r1 = runAs("r1", job);
            assertThat(r1.exit()).as(r1.all()).isZero();
            assertThat(learned("r1")).anySatisfy(l -> {
                assertThat(l.get("rule")).isEqualTo("learned-r1-p1");
                assertThat(l.get("criterion")).isEqualTo("accuracy");
                assertThat(l.get("status")).isEqualTo("candidate");
            });

            // when a second night reads a catalog of new items: the warranty defect again, no claims,
            // and a new defect (a shouted sentence)
            Model second = new Model();
            second.shout = " BUY NOW!";
            night.set(second);
            toneJob(catalog(second, i -> i % 7 == 0 ? " BUY NOW!" : "", i -> i % 5 == 0, "n", "Unit"), server.baseUrl());
            LlmJobs.Result r2 = runAs("r2", job);

            // then the first night's rule was carried in, re-validated on round 1's sample and fixed the
            // new items it flags: no matcher call about the pattern, and no rule learned afresh for it
            assertThat(r2.exit()).as(r2.all()).isZero();
            assertThat(second.matchesOn).as(r2.all()).doesNotContainKey("accuracy");
            List<Map<String, Object>> learned = learned("r2");
            List<Map<String, Object>> accuracy = learned.stream().filter(l -> "accuracy".equals(l.get("criterion"))).toList();
            assertThat(accuracy).as("one accuracy rule: the remembered one").hasSize(1);
            Map<String, Object> warranty = accuracy.get(0);
            assertThat(warranty.get("status")).isEqualTo("candidate");
            Map<?, ?> remembered = (Map<?, ?>) warranty.get("remembered");
            assertThat(remembered.get("learned_in_run")).isEqualTo("r1");
            assertThat(remembered.get("learned_as")).isEqualTo("learned-r1-p1");
            assertThat(remembered.get("verdict")).isEqualTo("revalidated");
            Map<?, ?> sample = (Map<?, ?>) remembered.get("round_1_sample");
            assertThat(((Number) sample.get("confirmed")).intValue()).isGreaterThanOrEqualTo(3)
                    .isEqualTo(((Number) sample.get("flagged")).intValue());
            assertThat(((Map<?, ?>) warranty.get("review_check")).get("reviewed")).isEqualTo(10);
            String id = String.valueOf(warranty.get("rule"));
            assertThat(id).isEqualTo("learned-r1-m1");
            assertThat((String) warranty.get("fragment")).contains("id: " + id, "type: number-grounding",
                    "column: warranty_years");
            List<CSVRecord> ruleFixes = batchFixes("r2").stream()
                    .filter(c -> c.get("pattern").endsWith("(learned rule " + id + ")")).toList();
            assertThat(ruleFixes).isNotEmpty().allSatisfy(c -> {
                assertThat(c.get("item_id")).startsWith("n");
                assertThat(second.defects(c.get("before"))).anyMatch(d -> d.startsWith("accuracy:"));
                assertThat(second.defects(c.get("after"))).noneMatch(d -> d.startsWith("accuracy:"));
            });
            assertThat(((Number) warranty.get("fixed")).longValue()).isEqualTo(ruleFixes.size());
            for (String text : LlmJobs.contents(out("r2").resolve("catalog.csv"), "id", "description").values()) {
                assertThat(second.defects(text)).as(text).isEmpty();
            }
            // the claims rule, if the first night learned one, has nothing to flag tonight: remembered, fixes nothing
            assertThat(learned).filteredOn(l -> "claims".equals(l.get("criterion"))).allSatisfy(l -> {
                assertThat(l.get("status")).isEqualTo("candidate");
                assertThat(((Map<?, ?>) l.get("remembered")).get("verdict")).isEqualTo("no-evidence");
                assertThat(((Number) l.get("fixed")).longValue()).isZero();
            });
            assertThat(r2.out()).contains("remembered: learned in run 'r1' as learned-r1-p1");

            // and the patterns: the warranty one seen again (known by its first night's label), the
            // shouting one new, the claims one not seen since the first night; history counts the same
            Map<String, Object> report = RunReport.read(out("r2").resolve("report.json"));
            Map<?, ?> memory = (Map<?, ?>) report.get("pattern_memory");
            assertThat(memory.get("earlier_runs")).isEqualTo(1);
            assertThat((List<?>) memory.get("seen_again_patterns")).singleElement().satisfies(o -> {
                Map<?, ?> p = (Map<?, ?>) o;
                assertThat(p.get("criterion")).isEqualTo("accuracy");
                assertThat(p.get("first_seen_in")).isEqualTo("r1");
                assertThat(String.valueOf(p.get("label"))).startsWith("accuracy: the text states a");
            });
            assertThat((List<?>) memory.get("new_patterns")).singleElement()
                    .satisfies(o -> assertThat(((Map<?, ?>) o).get("criterion")).isEqualTo("tone"));
            assertThat(memory.get("not_seen_since_run")).isEqualTo("r1");
            assertThat((List<?>) memory.get("not_seen_patterns")).singleElement()
                    .satisfies(o -> assertThat(((Map<?, ?>) o).get("criterion")).isEqualTo("claims"));
            assertThat(r2.out()).contains("patterns: 1 seen again (r1-p", "first seen in 'r1'", "1 new",
                    "1 of run 'r1' not seen tonight");
            LlmJobs.Result history = LlmJobs.cli(LlmJobs.props(dir), "history", job.toString(), "--json");
            assertThat(history.exit()).as(history.all()).isZero();
            Map<?, ?> listed = (Map<?, ?>) ((List<?>) new com.fasterxml.jackson.databind.ObjectMapper()
                    .readValue(history.out(), Map.class).get("runs")).get(1);
            assertThat(listed.get("run_id")).isEqualTo("r2");
            assertThat(listed.get("patterns_seen_again")).isEqualTo(memory.get("seen_again")).isEqualTo(1);
            assertThat(listed.get("patterns_new")).isEqualTo(memory.get("new")).isEqualTo(1);
            assertThat(Files.readString(out("r2").resolve("report.html"))).contains("Patterns across runs",
                    "Not seen since run r1", "remembered from run r1");
        }
    }

    @Test
    void anEarlierNightsRuleTheNextNightsSampleContradictsIsRetiredFixesNothingAndIsNotCarriedFurther() throws Exception {
        try (ScriptedServer server = ScriptedServer.answering(r -> night.get().answer(r))) {
            // given a first night that learned the wrong-warranty rule
            Model first = new Model();
            night.set(first);
            Path job = job(catalog(first, i -> ""), server.baseUrl());
            LlmJobs.Result r1 = runAs("r1", job);
            assertThat(r1.exit()).as(r1.all()).isZero();
            assertThat(learned("r1")).singleElement().satisfies(l -> assertThat(l.get("status")).isEqualTo("candidate"));

            // when on the second night the stated warranty is the shop's extended one (two years above the
            // column), which the reviewers pass: the rule flags sampled items they passed
            Model second = new Model();
            second.extendedWarranty = true;
            night.set(second);
            job(catalog(second, i -> "", i -> i % 5 == 0, "n", "Unit"), server.baseUrl());
            LlmJobs.Result r2 = runAs("r2", job);

            // then it is retired on round 1's sample and fixes nothing: the extended warranties ship as written
            assertThat(r2.exit()).as(r2.all()).isZero();
            assertThat(learned("r2")).singleElement().satisfies(l -> {
                assertThat(l.get("status")).isEqualTo("retired");
                assertThat((String) l.get("reason")).contains("below 0.80");
                assertThat(((Number) l.get("fixed")).longValue()).isZero();
                Map<?, ?> remembered = (Map<?, ?>) l.get("remembered");
                assertThat(remembered.get("verdict")).isEqualTo("retired");
                Map<?, ?> sample = (Map<?, ?>) remembered.get("round_1_sample");
                assertThat(((Number) sample.get("flagged")).intValue()).isPositive();
                assertThat(((Number) sample.get("confirmed")).intValue()).isZero();
            });
            assertThat(batchFixes("r2")).isEmpty();
            Map<String, String> shipped = LlmJobs.contents(out("r2").resolve("catalog.csv"), "id", "description");
            assertThat(shipped.values()).filteredOn(t -> WARRANTY.matcher(t).find() && t.contains("-year warranty"))
                    .anySatisfy(t -> assertThat(second.wrong.stream().anyMatch(n -> t.contains("The " + n + " is"))).isTrue());

            // and a third night carries neither it nor the first night's row of the same rule
            Model third = new Model();
            third.extendedWarranty = true;
            night.set(third);
            job(catalog(third, i -> "", i -> i % 5 == 0, "t", "Item"), server.baseUrl());
            LlmJobs.Result r3 = runAs("r3", job);
            assertThat(r3.exit()).as(r3.all()).isZero();
            assertThat(learned("r3")).isEmpty();
            assertThat(batchFixes("r3")).isEmpty();
        }
    }

    @Test
    void aBudgetReachedInARememberedRulesReviewCheckResumesWithoutPayingTwiceOrFixingTwice() throws Exception {
        try (ScriptedServer server = ScriptedServer.answering(r -> night.get().answer(r))) {
            // given a first night that learned the wrong-warranty rule
            Model first = new Model();
            night.set(first);
            Path job = job(catalog(first, i -> ""), server.baseUrl());
            assertThat(runAs("r1", job).exit()).isZero();

            // when the second night's budget is reached in the remembered rule's review check
            Model second = new Model();
            night.set(second);
            job(catalog(second, i -> "", i -> i % 5 == 0, "n", "Unit"), server.baseUrl());
            Files.writeString(job, Files.readString(job) + "budget:\n  max-calls: 100\n");
            LlmJobs.Result stopped = runAs("r2", job);
            assertThat(second.firstRuleFixReview.get()).as(stopped.all()).isBetween(1, 99);
            assertThat(stopped.exit()).as(stopped.all()).isEqualTo(3);

            // and the raised budget resumes it
            Files.writeString(job, Files.readString(job).replace("max-calls: 100", "max-calls: 100000"));
            LlmJobs.Result resumed = runAs("r2", job);

            // then the rule was carried in once and fixed each item once; no fixed text was reviewed by
            // more than one panel, but for the one whose review the budget cut
            assertThat(resumed.exit()).as(resumed.all()).isZero();
            assertThat(learned("r2")).singleElement().satisfies(l -> {
                assertThat(l.get("rule")).isEqualTo("learned-r1-m1");
                assertThat(l.get("status")).isEqualTo("candidate");
                assertThat(((Map<?, ?>) l.get("remembered")).get("verdict")).isEqualTo("revalidated");
                assertThat(((Map<?, ?>) l.get("review_check")).get("reviewed")).isEqualTo(10);
            });
            List<CSVRecord> fixes = batchFixes("r2");
            assertThat(fixes).isNotEmpty();
            assertThat(fixes.stream().map(c -> c.get("item_id")).distinct().count()).isEqualTo(fixes.size());
            JdbcTemplate store = LlmJobs.store(dir);
            List<String> checked;
            List<String> sampledLater;
            try {
                assertThat(store.queryForObject("SELECT COUNT(*) FROM sb_memory_rule m JOIN sb_run r ON r.run_pk = m.run_pk"
                        + " WHERE r.run_id = 'r2'", Integer.class)).isEqualTo(1);
                checked = store.queryForList("SELECT v.item_id FROM sb_learned_review v JOIN sb_run r ON r.run_pk = v.run_pk"
                        + " WHERE r.run_id = 'r2' AND v.rule_id = 'learned-r1-m1' AND v.kind = 'CHECK'", String.class);
                sampledLater = store.queryForList("SELECT s.item_id FROM sb_sample s JOIN sb_run r ON r.run_pk = s.run_pk"
                        + " WHERE r.run_id = 'r2' AND s.round_no > 1", String.class);
            } finally {
                LlmJobs.close(store);
            }
            // the review check's fixed texts (those a later round's sample reviews again aside)
            assertThat(checked).hasSize(10);
            List<CSVRecord> checkedFixes = fixes.stream()
                    .filter(c -> checked.contains(c.get("item_id")) && !sampledLater.contains(c.get("item_id"))).toList();
            assertThat(checkedFixes).isNotEmpty();
            assertThat(checkedFixes).filteredOn(c -> second.reviewed.getOrDefault(c.get("after"), new AtomicInteger()).get() > 2)
                    .hasSizeLessThanOrEqualTo(1);
            for (String text : LlmJobs.contents(out("r2").resolve("catalog.csv"), "id", "description").values()) {
                assertThat(second.defects(text)).as(text).isEmpty();
            }
        }
    }
}
