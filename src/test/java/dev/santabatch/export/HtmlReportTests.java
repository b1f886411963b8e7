package dev.santabatch.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code report.html} rendered from report maps: escaping, sections, generic figures, the trend. */
class HtmlReportTests {

    /** Every tag the renderer writes; anything else in a page came from data. */
    static final Set<String> OWN_TAGS = Set.of("html", "head", "meta", "title", "style", "body", "main", "header",
            "section", "h1", "h2", "h3", "p", "div", "span", "b", "br", "table", "tr", "th", "td", "ul", "li", "code", "pre",
            "svg", "rect", "text", "path", "line");

    private static final Pattern TAG = Pattern.compile("<\\s*/?\\s*([A-Za-z][A-Za-z0-9]*)([^>]*)>");

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "&|&amp;", "<|&lt;", ">|&gt;", "\"|&quot;", "'|&#39;",
        "`<img src=x onerror='a(1)'>`|`&lt;img src=x onerror=&#39;a(1)&#39;&gt;`",
        "plain text – ünïcode 日本|plain text – ünïcode 日本",
    })
    void escapesTheFiveCharactersAndNothingElse(String in, String out) {
        assertThat(Html.text(in)).isEqualTo(out);
    }

    @Test
    void replacesCharactersHtmlForbids() {
        assertThat(Html.text("a\u0000b\u0007c\td\ne\uD800f\uFFFF")).isEqualTo("a\uFFFDb\uFFFDc\td\ne\uFFFDf\uFFFD");
        assertThat(Html.text("emoji \uD83C\uDF85")).isEqualTo("emoji \uD83C\uDF85");
    }

    @Test
    void hostileTextInEveryStringRendersAsText() {
        String bad = HostileRun.hostile(9);
        Map<String, Object> report = cleanReport(bad);

        String html = HtmlReport.render(report, List.of());

        assertOnlyOwnMarkup(html);
        assertThat(html).contains(Html.text(bad)).contains("&lt;img src=http://127.0.0.1:9/x onerror=alert(1)&gt;")
                .contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;")
                .contains("&lt;a href=&quot;javascript:alert(1)&quot;&gt;");
        // the job name, the label, the issue, a generic key and value, the canary section: all escaped
        assertThat(countOf(html, Html.text(bad))).isGreaterThanOrEqualTo(6);
    }

    @Test
    void theTopSaysStatusCountsAndTheBound() {
        String html = HtmlReport.render(cleanReport("x"), List.of());

        assertThat(html).contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;none&#39;;"
                + " style-src &#39;unsafe-inline&#39;; img-src data:\">");
        String top = html.substring(html.indexOf("<header>"), html.indexOf("</header>"));
        assertThat(top).contains(">CLEAN<").contains("<b>1,038</b><span>shipped (catalog.csv)")
                .contains("<b>162</b><span>held for a person").contains("<b>3</b><span>unverified")
                .contains("the defect rate is below 3.30 % with 95 % confidence");
        assertThat(html).doesNotContainIgnoringCase("<script").doesNotContainIgnoringCase("<link")
                .doesNotContain("http://").doesNotContain("https://");
    }

    @Test
    void eachRoundHasItsFunnelPatternsAgreementAndCost() {
        String html = HtmlReport.render(cleanReport("x"), List.of());

        String round = html.substring(html.indexOf("<h2>Round 1"), html.indexOf("<h2>Cost against"));
        // the funnel: eligible, sampled, NICE first time, fixed, escalated, batch-fixed, as text and as bars
        assertThat(round).contains("<tr><th>eligible</th><th>sampled</th><th>NICE first time</th>"
                + "<th>fixed (NICE after a fix)</th><th>escalated</th><th>batch-fixed (catalog)</th></tr>");
        assertThat(round).contains("<td><b>1,200</b></td><td><b>144</b><br><span class=\"note\">12.0 % of eligible</span></td>"
                + "<td><b>122</b><br><span class=\"note\">84.7 % of the sample</span></td>"
                + "<td><b>3</b><br><span class=\"note\">2.1 % of the sample</span></td>"
                + "<td><b>19</b><br><span class=\"note\">13.2 % of the sample</span></td><td><b>21</b></td>");
        assertThat(round).contains("<title>Round 1 funnel</title>").contains("<title>Round 1 patterns</title>");
        // the pattern row: matched and fixed in the catalog, how matched, the rule learned from it
        assertThat(round).contains("<td class=\"n\">14</td><td class=\"n\">94</td><td class=\"n\">21</td><td class=\"n\">73</td>"
                + "<td>meaning: 120 candidates, 94 matcher requests of 1,056 eligible</td>"
                + "<td>lr-1 (forbidden-term): candidate</td>");
        assertThat(round).contains("kappa 0.5832 (cohen)");
        assertThat(round).contains("40 calls, 9,000 tokens, est. cost 0.0123, 2 errors (timeout 2)");
    }

    @Test
    void costPerRoleErrorsByKindAndEscalationsWithTheirCount() {
        String html = HtmlReport.render(cleanReport("x"), List.of());

        assertThat(html).contains("<title>Share of full verification</title>").contains("<td>model calls vs full Santa</td>"
                + "<td class=\"n\">14.0 %</td>");
        assertThat(html).contains("<title>Cost share per role</title>").contains("<td>reviewer:B</td>");
        assertThat(html).contains("<h2>Model errors by kind</h2>").contains("<td>timeout</td><td class=\"n\">2</td>")
                .contains("<td>invalid-answer</td><td class=\"n\">1</td>");
        assertThat(html).contains("<h2>Escalations: 162 held for a person</h2>").contains("The first 1 of 162");
    }

    @Test
    void keysTheRendererDoesNotKnowAreShownAsTables() {
        Map<String, Object> report = cleanReport("x");
        report.put("canaries", ordered("sensitivity", ordered("caught", 9, "of", 10, "estimate", 0.9),
                "per_kind", List.of(ordered("kind", "drift", "caught", 4), ordered("kind", "number", "caught", 5))));
        round(report).put("canary_reviews", 12);
        map(map(report.get("run")).get("bound")).put("covers", "defects the panel detects");

        String html = HtmlReport.render(report, List.of());

        assertThat(html).contains("<h3>canaries</h3>").contains("<th>sensitivity</th>")
                .contains("<th>caught</th><td>9</td>").contains("<td>drift</td><td>4</td>")
                .contains("<th>canary reviews</th><td>12</td>")
                .contains("<th>covers</th><td>defects the panel detects</td>");
    }

    @Test
    void aFailedRunSaysFailedNothingShippedAndHowToRestart() {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("status", "failed");
        report.put("job", "j");
        report.put("run_id", "r1");
        report.put("execution", ordered("id", 3, "batch_status", "FAILED", "why", "a step failed"));
        report.put("failures", List.of("model-b: 401 Unauthorized"));
        report.put("restart", "santa-batch run j.yml --run-id r1");
        report.put("input", ordered("records", 10, "items", 10, "rejects", 0));
        report.put("outputs", ordered("shipped", 0, "note", "a failed run ships nothing"));
        report.put("rounds", List.of(ordered("round", 1, "eligible", 10, "sample_size", 5, "decision", null, "nice", 2,
                "escalated", 0, "unreviewed", 3, "not_reviewed_yet", 0)));
        report.put("run", ordered("model_calls", ordered("run", ordered("calls", 4, "errors", 4,
                "errors_by_kind", ordered("auth", 4), "by_role", Map.of()))));

        String html = HtmlReport.render(report, List.of());

        assertOnlyOwnMarkup(html);
        assertThat(html).contains("<div class=\"status bad\">FAILED</div>").contains("nothing ships")
                .contains("<b>0</b><span>shipped").contains("<li>model-b: 401 Unauthorized</li>")
                .contains("<code>santa-batch run j.yml --run-id r1</code>").contains("<h2>Round 1: not decided</h2>")
                .contains("<td>auth</td><td class=\"n\">4</td>");
    }

    @Test
    void theTrendStripShowsEveryRunWithTheCurrentLast() {
        Map<String, Object> report = cleanReport("x");
        List<RunTrend.Point> trend = new ArrayList<>();
        trend.add(new RunTrend.Point("<b>old</b>", Instant.parse("2026-11-30T02:00:00Z"), "not-clean", 0.6, 0.3, 1.5, 0.05));
        trend.add(new RunTrend.Point("mid", Instant.parse("2026-12-01T02:00:00Z"), "clean", 0.8, 0.2, 1.0, null));

        String one = HtmlReport.render(report, RunTrend.withCurrent(List.of(), RunReport.of(report)));
        String html = HtmlReport.render(report, RunTrend.withCurrent(trend, RunReport.of(report)));

        assertThat(one).doesNotContain("Trend over the job");
        assertOnlyOwnMarkup(html);
        assertThat(html).contains("<h2>Trend over the job's runs</h2>")
                .contains("<td>&lt;b&gt;old&lt;/b&gt;</td><td class=\"k\">2026-11-30 02:00 UTC</td><td>not-clean</td>"
                        + "<td class=\"n\">60.0 %</td><td class=\"n\">30.0 %</td><td class=\"n\">1.5000</td>")
                .contains("<td>r1</td><td class=\"k\">this run</td><td>clean</td><td class=\"n\">91.3 %</td>")
                .contains("<b>escape rate (audited)</b>").contains("not audited");
    }

    /** Asserts the page holds only the renderer's own tags, with no event handler, link or source attribute. */
    static void assertOnlyOwnMarkup(String html) {
        Matcher m = TAG.matcher(html.substring(html.indexOf("<html")));
        Set<String> tags = new TreeSet<>();
        while (m.find()) {
            tags.add(m.group(1).toLowerCase(java.util.Locale.ROOT));
            assertThat(m.group(2)).as(m.group()).doesNotContainPattern("(?i)\\son[a-z]+\\s*=")
                    .doesNotContainIgnoringCase("href").doesNotContainIgnoringCase("src=")
                    .doesNotContainIgnoringCase("javascript:");
        }
        assertThat(OWN_TAGS).containsAll(tags);
        assertThat(html).doesNotContainIgnoringCase("<script").doesNotContainIgnoringCase("<img")
                .doesNotContainIgnoringCase("<a ");
    }

    /** A clean run's report, in report.json's shape, with {@code text} in every free-text field. */
    static Map<String, Object> cleanReport(String text) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("status", "clean");
        r.put("job", "products " + text);
        r.put("run_id", "r1");
        r.put("input", ordered("items", 1200, "rejects", 0, "records", 1200));
        r.put("outputs", ordered("shipped_file", "catalog.csv", "shipped", 1038, "unverified", 3, "held", 162,
                "fail_unresolved", 0));
        r.put("pre_pass", Map.of("rules", List.of(ordered("rule", "banned", "criterion", "compliance", "found", 87,
                "fixed", 87, "escalated", 0))));
        r.put("learned_rules", List.of(ordered("rule", "lr-1", "pattern", "r1-p1", "criterion", "compliance", "shape",
                "forbidden-term", "status", "candidate", "reason", null, "support", 5, "fixed", 20, "fragment",
                "- {id: lr-1, terms: [" + text + "]}")));
        Map<String, Object> round = ordered("round", 1, "seed", 7, "eligible", 1200, "sample_size", 144,
                "full_review", false, "strata", Map.of(), "decision", "continue", "acceptance_number", 9, "failures", 22,
                "first_pass_rate", 0.8472, "mean_reviews_to_nice", 1.024, "nice", 125, "nice_first_review", 122,
                "escalated", 19, "unreviewed", 0, "escalations_by_reason", ordered("NO_FIX", 19));
        round.put("agreement", ordered("issues", 30, "flagged_by_all", 9, "flagged_by_one", 21, "kappa_method", "cohen",
                "items", 144, "raw_agreement", 0.9167, "kappa", 0.5832, "low_agreement", false));
        round.put("patterns", List.of(ordered("id", "r1-p1", "pattern", 1, "criterion", "on-specification", "label",
                "on-specification: " + text, "sampled_items", 14, "sample_share", 0.097, "systematic", true, "matched", 94,
                "fixed", 21, "escalated", 73)));
        round.put("cost", ordered("calls", 40, "tokens", 9000, "share_of_full_santa_on_every_item",
                ordered("calls", 0.1, "tokens", 0.1)));
        r.put("rounds", new ArrayList<>(List.of(round)));
        Map<String, Object> calls = ordered("calls", 40, "retries", 1, "answer_retries", 1, "errors", 3,
                "input_tokens", 6000, "output_tokens", 3000, "tokens", 9000, "estimated_cost", 0.0123,
                "errors_by_kind", ordered("invalid-answer", 1, "timeout", 2),
                "by_role", ordered("reviewer:B", ordered("calls", 20, "retries", 0, "errors", 1, "tokens", 5000,
                        "estimated_cost", 0.007), "fixer", ordered("calls", 20, "retries", 1, "errors", 2, "tokens", 4000,
                        "estimated_cost", 0.0053)));
        Map<String, Object> roundCalls = new LinkedHashMap<>(calls);
        roundCalls.put("round", 1);
        roundCalls.put("errors", 2);
        roundCalls.put("errors_by_kind", ordered("timeout", 2));
        Map<String, Object> run = ordered("rounds", 1, "first_pass_rate", 0.9134, "mean_reviews_to_nice", 1.01,
                "sampled", 254, "escalated_in_review", 19, "escalations_by_cause", ordered("batch-fix", 143, "santa-fix", 19),
                "escalations_by_reason", ordered("NO_FIX", 162));
        run.put("agreement", ordered("issues", 30, "flagged_by_all", 9, "flagged_by_one", 21, "kappa", 0.6));
        run.put("bound", ordered("stated", true, "sample_size", 110, "sentence", "Among the 913 items eligible in the last"
                + " round, for defects these reviewers can detect, the defect rate is below 3.30 % with 95 % confidence."));
        run.put("seed_targets", List.of(ordered("metric", "first-pass-rate", "target", "> 70 %", "measured", 0.9134,
                "status", "MET")));
        run.put("model_calls", ordered("run", calls, "rounds", List.of(roundCalls), "matcher", ordered("patterns",
                List.of(ordered("id", "r1-p1", "narrowing", "meaning", "eligible", 1056, "candidates", 120, "requests", 94)))));
        run.put("cost", ordered("model", ordered("calls", 40, "share_of_every_item_reviewed_once",
                ordered("calls", 0.2, "tokens", 0.21), "share_of_full_santa_on_every_item", ordered("calls", 0.14, "tokens", 0.15))));
        r.put("run", run);
        r.put("warnings", List.of());
        r.put("escalations", ordered("total", 162, "listed", 1, "items", List.of(ordered("item_id", "P1", "round", 1,
                "cause", "batch-fix", "reason", "NO_FIX", "pattern", "r1-p1 " + text, "open_issues",
                List.of("on-specification: " + text, "no offline fix")))));
        r.put(text.length() > 1 ? "extra " + text : "extra", ordered("note", text));
        return r;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> round(Map<String, Object> report) {
        return ((List<Map<String, Object>>) report.get("rounds")).get(0);
    }

    static Map<String, Object> ordered(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private static int countOf(String s, String needle) {
        int n = 0;
        for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
