package dev.santabatch.export;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code report.html}: {@code report.json} for a person, rendered from the same map the JSON is
 * written from. One self-contained file: inline styles, inline SVG charts, no script, no link, no
 * request (its Content-Security-Policy allows inline styles and {@code data:} images only), all
 * of it visible and printable. At the top the status, what shipped, what is held and what is
 * unverified, and the bound in plain words; then the trend of the job's runs when the store holds
 * earlier ones, each round (the funnel, the patterns, agreement, cost), the run's cost against full
 * verification and per role, model errors by kind, the escalations with their open issues, and any
 * other figures the report holds, as tables. Every string passes through {@link Html#text}.
 */
public final class HtmlReport {

    /** The page's Content-Security-Policy: nothing but inline styles and {@code data:} images. */
    static final String CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

    /** The most escalations listed (the count says how many there are). */
    public static final int MAX_ESCALATIONS = 100;

    /** Top-level keys rendered by their own sections; any other key is rendered as a table. */
    private static final Set<String> TOP = Set.of("status", "reason", "job", "run_id", "input", "outputs", "pre_pass",
            "learned_rules", "pattern_memory", "rounds", "unreachable_patterns", "run", "escape_rates_against_ground_truth", "warnings",
            "panel", "budget_stop", "escape_rate_audit", "execution", "failures", "restart", "escalations");
    private static final Set<String> ROUND = Set.of("round", "seed", "eligible", "sample_size", "full_review", "strata",
            "decision", "acceptance_number", "failures", "first_pass_rate", "mean_reviews_to_nice", "nice",
            "nice_first_review", "escalated", "unreviewed", "not_reviewed_yet", "escalations_by_reason",
            "issues_reattributed", "issues_derived_from_detail", "issue_taxonomy_by_criterion", "agreement", "patterns",
            "cost");
    private static final Set<String> RUN = Set.of("rounds", "first_pass_rate", "mean_reviews_to_nice", "sampled",
            "escalated_in_review", "escalations_by_cause", "escalations_by_reason", "issues_reattributed",
            "issues_derived_from_detail", "issue_taxonomy_by_criterion", "issue_taxonomy_by_pattern", "agreement", "bound",
            "seed_targets", "model_calls", "cost");
    private static final Set<String> BOUND = Set.of("stated", "sentence", "why", "warning");

    private static final String STYLE = """
            :root{color-scheme:light}
            body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1d232b;
            background:#f4f6f8;margin:0;padding:24px}
            main{max-width:1000px;margin:0 auto}
            section,header{background:#fff;border:1px solid #dde2e8;border-radius:8px;padding:16px 20px;margin:0 0 16px}
            h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:0 0 10px}h3{font-size:15px;margin:14px 0 6px}
            .sub{color:#5a6572;margin:0 0 12px}
            .status{display:inline-block;font-weight:700;font-size:20px;letter-spacing:.04em;padding:4px 12px;border-radius:6px;
            color:#fff;margin:4px 0 8px}
            .ok{background:#2e7d46}.warn{background:#b36b00}.bad{background:#b3261e}
            .cards{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0 12px}
            .card{flex:1 1 150px;border:1px solid #dde2e8;border-radius:6px;padding:8px 12px;background:#fafbfc}
            .card b{display:block;font-size:24px}.card span{color:#5a6572;font-size:13px}
            .bound{border-left:4px solid #2f6db5;padding:6px 12px;background:#f0f5fb;margin:8px 0}
            .note{color:#5a6572;font-size:13px}
            .flag{color:#b3261e;font-weight:600}
            table{border-collapse:collapse;width:100%;margin:6px 0 10px;font-size:13.5px}
            th,td{border-bottom:1px solid #e6e9ed;padding:4px 8px;text-align:left;vertical-align:top}
            th{background:#f6f8fa;font-weight:600}
            td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
            td{overflow-wrap:break-word}
            td.k{white-space:nowrap}
            table.funnel th,table.funnel td{text-align:right;font-variant-numeric:tabular-nums}
            table.esc{font-size:12.5px}
            table.kv{width:auto;min-width:50%}table.kv th{white-space:nowrap}
            pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;font:12.5px/1.4 ui-monospace,Menlo,Consolas,monospace}
            code{font:12.5px ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere}
            svg{display:block;margin:4px 0 10px;font:12px system-ui,sans-serif;fill:#1d232b}
            svg .small{font-size:10px}
            .strips{display:flex;flex-wrap:wrap;gap:18px}.strips div{font-size:13px}
            @media print{body{background:#fff;padding:0;font-size:11pt}section,header{border:none;border-radius:0;
            padding:4px 0;margin:0 0 10px;break-inside:auto}h2{break-after:avoid}table,svg{break-inside:avoid}
            *{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
            """;

    private HtmlReport() {}

    /** Renders {@code report} (as written to {@code report.json}) with the job's trend (oldest first, the current run last). */
    public static String render(Map<String, Object> report, List<RunTrend.Point> trend) {
        StringBuilder h = new StringBuilder(32 * 1024);
        String status = String.valueOf(report.get("status"));
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"").append(Html.text(CSP)).append("\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<meta name=\"referrer\" content=\"no-referrer\">\n")
                .append("<title>").append(Html.text(status.toUpperCase(Locale.ROOT) + " · " + report.get("job") + " · run "
                        + report.get("run_id"))).append("</title>\n<style>").append(STYLE).append("</style></head>\n<body><main>\n");
        top(h, report);
        if (trend.size() > 1) {
            trend(h, trend);
        }
        runFigures(h, report);
        List<Map<?, ?>> rounds = maps(report.get("rounds"));
        for (Map<?, ?> round : rounds) {
            round(h, report, round);
        }
        patternMemory(h, report);
        cost(h, report);
        errors(h, report);
        prePass(h, report);
        escalations(h, report);
        other(h, report);
        h.append("<p class=\"note\">Rendered from report.json beside this file, which holds every figure.</p>\n");
        h.append("</main></body></html>\n");
        return h.toString();
    }

    /** Writes {@code report.html} atomically (a temporary file beside it, then moved into place). */
    public static void write(Path file, ReportFile report, List<RunTrend.Point> trend) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, render(RunReport.tree(report), trend), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    // ------------------------------------------------------------------------------------- top

    private static void top(StringBuilder h, Map<String, Object> r) {
        String status = String.valueOf(r.get("status"));
        Map<?, ?> outputs = map(r.get("outputs"));
        Map<?, ?> input = map(r.get("input"));
        h.append("<header>\n<h1>").append(Html.text(r.get("job"))).append("</h1>\n<p class=\"sub\">run ")
                .append(Html.text(r.get("run_id"))).append("</p>\n");
        h.append("<div class=\"status ").append(statusClass(status)).append("\">")
                .append(Html.text(status.toUpperCase(Locale.ROOT))).append("</div>");
        if (r.get("reason") != null) {
            h.append(" <span>reason: <b>").append(Html.text(r.get("reason"))).append("</b></span>");
        }
        h.append("\n<p>").append(Html.text(statusMeaning(status, outputs))).append("</p>\n");
        Object file = outputs.get("shipped_file");
        boolean catalog = file == null || "catalog.csv".equals(file);
        h.append("<div class=\"cards\">");
        card(h, outputs.get("shipped"), (catalog ? "shipped" : "verified") + (file == null ? "" : " (" + file + ")"));
        card(h, outputs.containsKey("held") ? outputs.get("held") : 0, "held for a person (escalations.csv)");
        card(h, outputs.containsKey("unverified") ? outputs.get("unverified") : 0, "unverified (unverified.csv)");
        card(h, input.get("items"), "items read");
        card(h, input.get("rejects"), "rejected rows (rejects.csv)");
        h.append("</div>\n");
        if (outputs.get("note") != null) {
            h.append("<p class=\"note\">").append(Html.text(outputs.get("note"))).append("</p>\n");
        }
        Map<?, ?> bound = map(map(r.get("run")).get("bound"));
        h.append("<div class=\"bound\"><b>The bound:</b> ");
        if (bound.isEmpty()) {
            h.append(Html.text(RunReport.FAILED.equals(status)
                    ? "none: the run failed before it ended, so no clean sample stands behind anything"
                    : "none stated"));
        } else if (Boolean.TRUE.equals(bound.get("stated"))) {
            h.append(Html.text(bound.get("sentence")));
        } else {
            h.append(Html.text(bound.get("why")));
            if (bound.get("sentence") != null) {
                h.append(". ").append(Html.text(bound.get("sentence")));
            }
        }
        if (bound.get("warning") != null) {
            h.append("<br><span class=\"flag\">").append(Html.text(bound.get("warning"))).append("</span>");
        }
        h.append("</div>\n");
        Map<String, Object> rest = rest(bound, BOUND);
        if (!rest.isEmpty()) {
            h.append("<h3>What the bound rests on</h3>");
            table(h, rest, 0);
        }
        Map<?, ?> execution = map(r.get("execution"));
        if (!execution.isEmpty()) {
            h.append("<p><b>Ended:</b> ").append(Html.text(execution.get("batch_status") + ": " + execution.get("why")))
                    .append("</p>\n");
        }
        for (Map<?, ?> u : List.<Map<?, ?>>of(map(r.get("budget_stop")))) {
            if (!u.isEmpty()) {
                h.append("<p><b>Budget:</b> ").append(Html.text(u.get("reason"))).append("; sampled items not reviewed: ")
                        .append(Html.text(Html.num(u.get("sampled_not_reviewed")))).append("; items still eligible: ")
                        .append(Html.text(Html.num(u.get("eligible_items_left")))).append("</p>\n");
                if (u.get("resume") != null) {
                    h.append("<p>Resume: <code>").append(Html.text(u.get("resume"))).append("</code></p>\n");
                }
            }
        }
        List<?> failures = list(r.get("failures"));
        if (!failures.isEmpty() && !(r.get("failures") instanceof Number)) {
            h.append("<h3>Failures</h3><ul>");
            for (Object f : failures) {
                h.append("<li>").append(Html.text(f)).append("</li>");
            }
            h.append("</ul>\n");
        }
        if (r.get("restart") != null) {
            h.append("<p>Restart: <code>").append(Html.text(r.get("restart"))).append("</code></p>\n");
        }
        for (Object w : list(r.get("warnings"))) {
            h.append("<p class=\"flag\">Warning: ").append(Html.text(w)).append("</p>\n");
        }
        if (map(r.get("panel")).get("flag") != null) {
            h.append("<p class=\"flag\">Panel: ").append(Html.text(map(r.get("panel")).get("flag"))).append("</p>\n");
        }
        for (Map<?, ?> u : maps(r.get("unreachable_patterns"))) {
            h.append("<p class=\"flag\">Unreachable pattern ").append(Html.text(u.get("id") + " (" + u.get("criterion") + "): "
                    + u.get("label"))).append(": prevalence ").append(Html.text(Html.pct(u.get("prevalence"))))
                    .append(", about ").append(Html.text(Html.num(u.get("estimated_items")))).append(" items. To reach it: ")
                    .append(Html.text(u.get("would_reach_it"))).append("</p>\n");
        }
        h.append("</header>\n");
    }

    private static String statusClass(String status) {
        return switch (status) {
            case RunReport.CLEAN, RunReport.FULLY_REVIEWED -> "ok";
            case RunReport.FAILED -> "bad";
            default -> "warn";
        };
    }

    private static String statusMeaning(String status, Map<?, ?> outputs) {
        return switch (status) {
            case RunReport.CLEAN -> "The last sample was clean: catalog.csv holds what ships. Clean means the sample was"
                    + " clean, not that every item was read; the bound below says what it covers.";
            case RunReport.FULLY_REVIEWED -> "Every item left was reviewed: catalog.csv holds what ships.";
            case RunReport.NOT_CLEAN -> "No clean sample: nothing ships as a catalog. verified.csv holds the "
                    + Html.num(outputs.get("shipped")) + " items NICE on their current revision; publish nothing unverified.";
            case RunReport.BUDGET_STOPPED -> "A budget stopped the run: verified.csv holds the items NICE on their current"
                    + " revision; raise the budget and run again with the same run id.";
            case RunReport.FAILED -> "The run failed: nothing ships (no catalog.csv). Restart it with the command below.";
            default -> "";
        };
    }

    private static void card(StringBuilder h, @Nullable Object value, String label) {
        h.append("<div class=\"card\"><b>").append(Html.text(Html.num(value == null ? 0 : value))).append("</b><span>")
                .append(Html.text(label)).append("</span></div>");
    }

    // ----------------------------------------------------------------------------------- trend

    private static void trend(StringBuilder h, List<RunTrend.Point> trend) {
        h.append("<section>\n<h2>Trend over the job's runs</h2>\n<p class=\"note\">Oldest first; the darker column is this"
                + " run. A dash: not measured.</p>\n<div class=\"strips\">");
        List<String> ids = trend.stream().map(RunTrend.Point::runId).toList();
        strip(h, "first-pass rate", ids, trend.stream().map(RunTrend.Point::firstPassRate).toList(), 1, true);
        strip(h, "share of full verification", ids, trend.stream().map(RunTrend.Point::costShare).toList(), 0, true);
        if (trend.stream().anyMatch(p -> p.estimatedCost() != null && p.estimatedCost() > 0)) {
            strip(h, "estimated model cost", ids, trend.stream().map(RunTrend.Point::estimatedCost).toList(), 0, false);
        }
        if (trend.stream().anyMatch(p -> p.escapeRate() != null)) {
            strip(h, "escape rate (audited)", ids, trend.stream().map(RunTrend.Point::escapeRate).toList(), 0, true);
        }
        boolean cost = trend.stream().anyMatch(p -> p.estimatedCost() != null && p.estimatedCost() > 0);
        h.append("</div>\n<table><tr><th>run</th><th>started</th><th>status</th><th class=\"n\">first-pass rate</th>"
                + "<th class=\"n\">share of full verification</th>" + (cost ? "<th class=\"n\">est. cost</th>" : "")
                + "<th class=\"n\">escape rate</th></tr>");
        java.time.format.DateTimeFormatter started = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
                .withZone(java.time.ZoneOffset.UTC);
        for (RunTrend.Point p : trend) {
            h.append("<tr><td>").append(Html.text(p.runId())).append("</td><td class=\"k\">")
                    .append(Html.text(p.createdAt() == null ? "this run" : started.format(p.createdAt()))).append("</td><td>")
                    .append(Html.text(p.status())).append("</td><td class=\"n\">").append(Html.text(Html.pct(p.firstPassRate())))
                    .append("</td><td class=\"n\">").append(Html.text(Html.pct(p.costShare()))).append("</td>");
            if (cost) {
                h.append("<td class=\"n\">").append(Html.text(Html.money(p.estimatedCost()))).append("</td>");
            }
            h.append("<td class=\"n\">").append(Html.text(p.escapeRate() == null ? "not audited" : Html.pct(p.escapeRate())))
                    .append("</td></tr>");
        }
        h.append("</table>\n</section>\n");
    }

    private static void strip(StringBuilder h, String title, List<String> ids, List<@Nullable Double> values, double max,
            boolean percent) {
        Double last = values.get(values.size() - 1);
        h.append("<div><b>").append(Html.text(title)).append("</b>: ")
                .append(Html.text(last == null ? "n/a" : percent ? Html.pct(last) : Html.money(last)))
                .append(Svg.strip(title, ids, values, max, percent)).append("</div>");
    }

    // ------------------------------------------------------------------------------------- run

    private static void runFigures(StringBuilder h, Map<String, Object> r) {
        Map<?, ?> run = map(r.get("run"));
        if (run.isEmpty() || run.get("rounds") == null) {
            return;
        }
        h.append("<section>\n<h2>The run</h2>\n<table><tr><th>figure</th><th class=\"n\">measured</th><th>target</th>"
                + "<th>status</th></tr>");
        for (Map<?, ?> t : maps(run.get("seed_targets"))) {
            boolean rate = !"mean-reviews-to-nice".equals(t.get("metric"));
            h.append("<tr><td class=\"k\">").append(Html.text(t.get("metric"))).append("</td><td class=\"n\">")
                    .append(Html.text(t.get("measured") == null ? "not measured" : rate ? Html.pct(t.get("measured"))
                            : Html.num(t.get("measured"))))
                    .append(t.get("audited") != null ? Html.text(" of " + Html.num(t.get("audited")) + " audited") : "")
                    .append("</td><td class=\"k\">").append(Html.text(t.get("target"))).append("</td><td>")
                    .append(Html.text(t.get("status")));
            if (t.get("how_to_measure") != null) {
                h.append("<br><span class=\"note\">").append(Html.text(t.get("how_to_measure"))).append("</span>");
            }
            h.append("</td></tr>");
        }
        h.append("</table>\n<p>").append(Html.text(Html.num(run.get("rounds")) + " round(s); " + Html.num(run.get("sampled"))
                + " items sampled; " + Html.num(run.get("escalated_in_review")) + " escalated in review")).append("</p>\n");
        agreement(h, map(run.get("agreement")), "Reviewer agreement over the run");
        Map<?, ?> gt = map(r.get("escape_rates_against_ground_truth"));
        if (!gt.isEmpty()) {
            h.append("<h3>Against the catalog's ground truth</h3><p>")
                    .append(Html.text("escape rate " + Html.pct(gt.get("escape_rate")) + " of planted defects in shipped items, "
                            + Html.pct(gt.get("escape_rate_of_shipped")) + " of all shipped items; false holds "
                            + Html.pct(gt.get("false_hold_rate")) + " of items planted clean"))
                    .append("</p>\n");
        }
        Map<?, ?> audit = map(r.get("escape_rate_audit"));
        if (!audit.isEmpty()) {
            h.append("<h3>Human spot-check</h3><p>").append(Html.text(Html.num(audit.get("defective")) + " defective of "
                    + Html.num(audit.get("audited")) + " audited shipped items: escape rate " + Html.pct(audit.get("escape_rate"))
                    + interval(audit.get("interval_95")))).append("</p>\n");
        }
        Map<String, Object> rest = rest(run, RUN);
        if (!rest.isEmpty()) {
            h.append("<h3>More figures of the run</h3>");
            table(h, rest, 0);
        }
        h.append("</section>\n");
    }

    private static void agreement(StringBuilder h, Map<?, ?> a, String title) {
        if (a.isEmpty()) {
            return;
        }
        h.append("<h3>").append(Html.text(title)).append("</h3><p>");
        Object kappa = a.get("kappa");
        h.append(Html.text("kappa " + (kappa instanceof Number ? Html.num(kappa) : kappa)
                + (a.get("kappa_method") != null ? " (" + a.get("kappa_method") + ")" : "")
                + (a.get("kappa_why") != null ? ": " + a.get("kappa_why") : "")
                + (a.get("raw_agreement") != null ? "; raw agreement " + Html.pct(a.get("raw_agreement")) : "")
                + "; issues " + Html.num(a.get("issues")) + ": flagged by all " + Html.num(a.get("flagged_by_all"))
                + (a.get("flagged_by_some") != null ? ", by some " + Html.num(a.get("flagged_by_some")) : "")
                + ", by one " + Html.num(a.get("flagged_by_one"))));
        h.append("</p>\n");
        if (a.get("flag") != null) {
            h.append("<p class=\"flag\">").append(Html.text(a.get("flag"))).append("</p>\n");
        }
        Map<String, Object> rest = rest(a, Set.of("kappa", "kappa_method", "kappa_why", "raw_agreement", "issues",
                "flagged_by_all", "flagged_by_some", "flagged_by_one", "flag", "items", "low_agreement"));
        if (!rest.isEmpty()) {
            table(h, rest, 1);
        }
    }

    // ----------------------------------------------------------------------------------- round

    private static void round(StringBuilder h, Map<String, Object> report, Map<?, ?> round) {
        Object n = round.get("round");
        h.append("<section>\n<h2>Round ").append(Html.text(n)).append(": ").append(Html.text(round.get("decision") == null
                ? "not decided" : round.get("decision"))).append("</h2>\n");
        long sampled = Html.count(round.get("sample_size"));
        List<Map<?, ?>> patterns = maps(round.get("patterns"));
        long batchFixed = patterns.stream().mapToLong(p -> Html.count(p.get("fixed"))).sum();
        List<Svg.Bar> funnel = new ArrayList<>();
        funnel.add(new Svg.Bar("eligible", Html.number(round.get("eligible")), Html.num(round.get("eligible"))));
        funnel.add(new Svg.Bar("sampled", sampled, Html.num(sampled) + share(sampled, round.get("eligible"), "of eligible")));
        Long first = round.get("nice_first_review") instanceof Number f ? f.longValue() : null;
        if (first != null) {
            funnel.add(new Svg.Bar("NICE first time", first, Html.num(first) + share(first, sampled, "of the sample")));
            long fixed = Html.count(round.get("nice")) - first;
            funnel.add(new Svg.Bar("fixed (NICE after a fix)", fixed, Html.num(fixed) + share(fixed, sampled, "of the sample")));
        } else if (round.get("nice") != null) {
            long nice = Html.count(round.get("nice"));
            funnel.add(new Svg.Bar("NICE", nice, Html.num(nice) + share(nice, sampled, "of the sample")));
        }
        long escalated = Html.count(round.get("escalated"));
        funnel.add(new Svg.Bar("escalated", escalated, Html.num(escalated) + share(escalated, sampled, "of the sample")));
        for (String k : List.of("unreviewed", "not_reviewed_yet")) {
            if (Html.count(round.get(k)) > 0) {
                funnel.add(new Svg.Bar(k.replace('_', ' '), Html.count(round.get(k)), Html.num(round.get(k))));
            }
        }
        if (round.get("patterns") != null) {
            funnel.add(new Svg.Bar("batch-fixed (catalog)", batchFixed, Html.num(batchFixed)));
        }
        h.append("<h3>Funnel</h3>");
        h.append("<table class=\"funnel\"><tr>");
        for (Svg.Bar b : funnel) {
            h.append("<th>").append(Html.text(b.label())).append("</th>");
        }
        h.append("</tr><tr>");
        for (Svg.Bar b : funnel) {
            int open = b.shown().indexOf(" (");
            h.append("<td><b>").append(Html.text(open < 0 ? b.shown() : b.shown().substring(0, open))).append("</b>");
            if (open >= 0) {
                h.append("<br><span class=\"note\">").append(Html.text(b.shown().substring(open + 2, b.shown().length() - 1)))
                        .append("</span>");
            }
            h.append("</td>");
        }
        h.append("</tr></table>\n");
        // scaled to the sample and what followed it: the eligible items, many times more, get a broken bar
        double scale = funnel.stream().skip(1).mapToDouble(Svg.Bar::value).max().orElse(0);
        h.append(Svg.bars("Round " + n + " funnel", funnel.stream()
                .map(b -> new Svg.Bar(b.label(), b.value(), Html.num(b.value()))).toList(), scale, Svg.PALETTE[0]));
        List<String> facts = new ArrayList<>();
        if (round.get("first_pass_rate") != null) {
            facts.add("first-pass rate " + Html.pct(round.get("first_pass_rate")));
        }
        if (round.get("mean_reviews_to_nice") != null) {
            facts.add("mean reviews to NICE " + Html.num(round.get("mean_reviews_to_nice")));
        }
        if (round.get("acceptance_number") != null) {
            facts.add(Html.num(round.get("failures")) + " failure(s) against an acceptance number of "
                    + Html.num(round.get("acceptance_number")));
        }
        if (Boolean.TRUE.equals(round.get("full_review"))) {
            facts.add("every eligible item reviewed");
        }
        if (!facts.isEmpty()) {
            h.append("<p>").append(Html.text(String.join("; ", facts))).append("</p>\n");
        }
        Map<?, ?> byReason = map(round.get("escalations_by_reason"));
        if (!byReason.isEmpty()) {
            h.append("<p>").append(Html.text("escalated by reason: " + joined(byReason))).append("</p>\n");
        }
        patterns(h, report, n, patterns);
        agreement(h, map(round.get("agreement")), "Reviewer agreement");
        roundCost(h, report, n, map(round.get("cost")));
        Map<String, Object> rest = rest(round, ROUND);
        if (!rest.isEmpty()) {
            h.append("<h3>More figures of the round</h3>");
            table(h, rest, 0);
        }
        h.append("</section>\n");
    }

    private static void patterns(StringBuilder h, Map<String, Object> report, @Nullable Object round, List<Map<?, ?>> patterns) {
        if (patterns.isEmpty()) {
            return;
        }
        Map<String, String> how = new LinkedHashMap<>();
        Map<?, ?> matcher = map(map(map(report.get("run")).get("model_calls")).get("matcher"));
        for (Map<?, ?> m : maps(matcher.get("patterns"))) {
            how.put(String.valueOf(m.get("id")), m.get("narrowing") + ": " + Html.num(m.get("candidates")) + " candidates, "
                    + Html.num(m.get("requests")) + " matcher requests of " + Html.num(m.get("eligible")) + " eligible");
        }
        Map<String, List<String>> learned = new LinkedHashMap<>();
        for (Map<?, ?> l : maps(report.get("learned_rules"))) {
            learned.computeIfAbsent(String.valueOf(l.get("pattern")), k -> new ArrayList<>())
                    .add(l.get("rule") + " (" + l.get("shape") + "): " + l.get("status"));
        }
        h.append("<h3>Patterns</h3>");
        h.append(Svg.grouped("Round " + round + " patterns", patterns.stream().map(p -> p.get("id") + " " + p.get("criterion")).toList(),
                List.of("in the sample", "matched in the catalog", "fixed", "escalated"),
                patterns.stream().map(p -> new double[] {Html.number(p.get("sampled_items")), Html.number(p.get("matched")),
                        Html.number(p.get("fixed")), Html.number(p.get("escalated"))}).toArray(double[][]::new)));
        h.append("<table><tr><th>pattern</th><th>criterion</th><th>label</th><th class=\"n\">in the sample</th>"
                + "<th class=\"n\">matched</th><th class=\"n\">fixed</th><th class=\"n\">escalated</th><th>how matched</th>"
                + "<th>rules learned</th></tr>");
        for (Map<?, ?> p : patterns) {
            String id = String.valueOf(p.get("id"));
            boolean systematic = Boolean.TRUE.equals(p.get("systematic"));
            h.append("<tr><td class=\"k\">").append(Html.text(id)).append("</td><td class=\"k\">").append(Html.text(p.get("criterion")))
                    .append("</td><td>").append(Html.text(p.get("label"))).append("</td><td class=\"n\">")
                    .append(Html.text(Html.num(p.get("sampled_items")))).append("</td><td class=\"n\">")
                    .append(Html.text(Html.num(p.get("matched")))).append("</td><td class=\"n\">")
                    .append(Html.text(Html.num(p.get("fixed")))).append("</td><td class=\"n\">")
                    .append(Html.text(Html.num(p.get("escalated")))).append("</td><td>")
                    .append(Html.text(!systematic ? "isolated: not batch-fixed"
                            : how.getOrDefault(id, "full scan: the panel's checks on every eligible item")))
                    .append("</td><td>").append(Html.text(String.join("; ", learned.getOrDefault(id, List.of("none")))))
                    .append("</td></tr>");
        }
        h.append("</table>\n");
    }

    private static void roundCost(StringBuilder h, Map<String, Object> report, @Nullable Object round, Map<?, ?> cost) {
        Map<?, ?> spent = maps(map(map(report.get("run")).get("model_calls")).get("rounds")).stream()
                .filter(m -> String.valueOf(m.get("round")).equals(String.valueOf(round))).findFirst().orElse(Map.of());
        if (Html.count(spent.get("calls")) == 0 && Html.count(cost.get("calls")) == 0) {
            return;
        }
        h.append("<h3>Model calls</h3><p>").append(Html.text(Html.num(spent.get("calls")) + " calls, "
                + Html.num(spent.get("tokens")) + " tokens, est. cost " + Html.money(spent.get("estimated_cost"))
                + ", " + Html.num(spent.get("errors")) + " errors"
                + (map(spent.get("errors_by_kind")).isEmpty() ? "" : " (" + joined(map(spent.get("errors_by_kind"))) + ")")));
        Map<?, ?> full = map(cost.get("share_of_full_santa_on_every_item"));
        if (full.get("calls") != null) {
            h.append(Html.text("; " + Html.pct(full.get("calls")) + " of the calls of full Santa on every item"));
        }
        h.append("</p>\n");
    }

    // ------------------------------------------------------------------------------------ cost

    private static void cost(StringBuilder h, Map<String, Object> r) {
        Map<?, ?> run = map(r.get("run"));
        Map<?, ?> cost = map(run.get("cost"));
        Map<?, ?> total = map(map(run.get("model_calls")).get("run"));
        if (cost.isEmpty() && total.isEmpty()) {
            return;
        }
        h.append("<section>\n<h2>Cost against full verification</h2>\n");
        Map<?, ?> model = map(cost.get("model"));
        List<Svg.Bar> shares = new ArrayList<>();
        Map<?, ?> once = map(model.get("share_of_every_item_reviewed_once"));
        Map<?, ?> full = map(model.get("share_of_full_santa_on_every_item"));
        if (!full.isEmpty()) {
            shares.add(new Svg.Bar("model calls vs every item once", Html.number(once.get("calls")), Html.pct(once.get("calls"))));
            shares.add(new Svg.Bar("model calls vs full Santa", Html.number(full.get("calls")), Html.pct(full.get("calls"))));
            shares.add(new Svg.Bar("tokens vs every item once", Html.number(once.get("tokens")), Html.pct(once.get("tokens"))));
            shares.add(new Svg.Bar("tokens vs full Santa", Html.number(full.get("tokens")), Html.pct(full.get("tokens"))));
        }
        Map<?, ?> offline = map(cost.get("offline_checks"));
        if (!offline.isEmpty()) {
            shares.add(new Svg.Bar("offline checks vs every item once", Html.number(offline.get("share_of_every_item_reviewed_once")),
                    Html.pct(offline.get("share_of_every_item_reviewed_once"))));
            shares.add(new Svg.Bar("offline checks vs full Santa", Html.number(offline.get("share_of_full_santa_on_every_item")),
                    Html.pct(offline.get("share_of_full_santa_on_every_item"))));
        }
        if (!shares.isEmpty()) {
            double max = Math.max(1, shares.stream().mapToDouble(Svg.Bar::value).max().orElse(1));
            h.append("<p>Share of full verification (100 % = every item verified; the Santa Method claims 15-20 % for"
                    + " model calls):</p>");
            h.append("<table><tr><th>measure</th><th class=\"n\">share</th></tr>");
            for (Svg.Bar b : shares) {
                h.append("<tr><td>").append(Html.text(b.label())).append("</td><td class=\"n\">").append(Html.text(b.shown()))
                        .append("</td></tr>");
            }
            h.append("</table>");
            h.append(Svg.bars("Share of full verification", shares, max, Svg.PALETTE[1]));
        }
        if (model.get("why") != null) {
            h.append("<p class=\"note\">Model calls: ").append(Html.text(model.get("why"))).append("</p>\n");
        }
        if (!offline.isEmpty()) {
            h.append("<p>").append(Html.text("Offline checks: " + Html.num(offline.get("total")) + " (reviews "
                    + Html.num(offline.get("review_checks")) + ", batch-fix checks " + Html.num(offline.get("batch_fix_checks"))
                    + ", fixes " + Html.num(offline.get("fixes")) + ") against " + Html.num(offline.get("baseline_full_santa"))
                    + " for full Santa on every item")).append("</p>\n");
            if (offline.get("note") != null) {
                h.append("<p class=\"note\">").append(Html.text(offline.get("note"))).append("</p>\n");
            }
        }
        if (Html.count(total.get("calls")) > 0) {
            h.append("<h3>Model calls per role</h3><p>").append(Html.text(Html.num(total.get("calls")) + " calls ("
                    + Html.num(total.get("retries")) + " retries, " + Html.num(total.get("answer_retries")) + " answer retries), "
                    + Html.num(total.get("input_tokens")) + " input + " + Html.num(total.get("output_tokens"))
                    + " output tokens, est. cost " + Html.money(total.get("estimated_cost")))).append("</p>\n");
            Map<?, ?> roles = map(total.get("by_role"));
            boolean byCost = roles.values().stream().anyMatch(c -> Html.number(map(c).get("estimated_cost")) > 0);
            boolean byTokens = roles.values().stream().anyMatch(c -> Html.number(map(c).get("tokens")) > 0);
            String measure = byCost ? "estimated_cost" : byTokens ? "tokens" : "calls";
            List<Svg.Bar> parts = new ArrayList<>();
            h.append("<table><tr><th>role</th><th class=\"n\">calls</th><th class=\"n\">retries</th><th class=\"n\">errors</th>"
                    + "<th class=\"n\">tokens</th><th class=\"n\">est. cost</th></tr>");
            for (Map.Entry<?, ?> e : roles.entrySet()) {
                Map<?, ?> c = map(e.getValue());
                parts.add(new Svg.Bar(String.valueOf(e.getKey()), Html.number(c.get(measure)),
                        byCost ? Html.money(c.get(measure)) : Html.num(c.get(measure))));
                h.append("<tr><td>").append(Html.text(e.getKey())).append("</td><td class=\"n\">")
                        .append(Html.text(Html.num(c.get("calls")))).append("</td><td class=\"n\">")
                        .append(Html.text(Html.num(c.get("retries")))).append("</td><td class=\"n\">")
                        .append(Html.text(Html.num(c.get("errors")))).append("</td><td class=\"n\">")
                        .append(Html.text(Html.num(c.get("tokens")))).append("</td><td class=\"n\">")
                        .append(Html.text(Html.money(c.get("estimated_cost")))).append("</td></tr>");
            }
            h.append("</table>\n<p>Share of the ").append(Html.text(measure.replace('_', ' '))).append(" per role:</p>");
            h.append(Svg.shares("Cost share per role", parts));
        }
        h.append("</section>\n");
    }

    private static void errors(StringBuilder h, Map<String, Object> r) {
        Map<?, ?> total = map(map(map(r.get("run")).get("model_calls")).get("run"));
        Map<?, ?> kinds = map(total.get("errors_by_kind"));
        if (total.isEmpty()) {
            return;
        }
        h.append("<section>\n<h2>Model errors by kind</h2>\n");
        if (kinds.isEmpty()) {
            h.append("<p>").append(Html.text(Html.count(total.get("calls")) == 0 ? "No model call was made."
                    : "No model error.")).append("</p>\n</section>\n");
            return;
        }
        List<Svg.Bar> bars = new ArrayList<>();
        h.append("<table><tr><th>kind</th><th class=\"n\">errors</th></tr>");
        for (Map.Entry<?, ?> e : kinds.entrySet()) {
            bars.add(new Svg.Bar(String.valueOf(e.getKey()), Html.number(e.getValue()), Html.num(e.getValue())));
            h.append("<tr><td>").append(Html.text(e.getKey())).append("</td><td class=\"n\">")
                    .append(Html.text(Html.num(e.getValue()))).append("</td></tr>");
        }
        h.append("</table>\n").append(Svg.bars("Model errors by kind", bars, 0, Svg.PALETTE[3]));
        h.append("</section>\n");
    }

    /** The run's patterns against the job's earlier runs': seen again, new, not seen since the last run. */
    private static void patternMemory(StringBuilder h, Map<String, Object> r) {
        Map<?, ?> m = map(r.get("pattern_memory"));
        if (m.isEmpty()) {
            return;
        }
        h.append("<section>\n<h2>Patterns across runs</h2>\n<p>").append(Html.text(Html.num(m.get("seen_again"))
                + " seen again, " + Html.num(m.get("new")) + " new" + (m.get("not_seen_since_run") == null ? ""
                        : "; " + Html.num(m.get("not_seen")) + " of run " + m.get("not_seen_since_run") + " not seen in this run")
                + ", against " + Html.num(m.get("earlier_runs")) + " earlier run(s) of the job."))
                .append("</p>\n<p class=\"note\">").append(Html.text("Same pattern: the same " + m.get("matched_by") + "."))
                .append("</p>\n");
        List<Map<?, ?>> again = maps(m.get("seen_again_patterns"));
        if (!again.isEmpty()) {
            h.append("<h3>Seen again</h3><table><tr><th>pattern</th><th>criterion</th><th>label (when first seen)</th>"
                    + "<th>first seen in</th><th>last seen in</th></tr>");
            for (Map<?, ?> x : again) {
                h.append("<tr><td class=\"k\">").append(Html.text(String.join(", ", list(x.get("patterns")).stream()
                                .map(String::valueOf).toList())))
                        .append("</td><td class=\"k\">").append(Html.text(x.get("criterion"))).append("</td><td>")
                        .append(Html.text(x.get("label"))).append("</td><td class=\"k\">").append(Html.text(x.get("first_seen_in")))
                        .append("</td><td class=\"k\">").append(Html.text(x.get("last_seen_in"))).append("</td></tr>");
            }
            h.append("</table>\n");
        }
        memoryGroups(h, "New", maps(m.get("new_patterns")));
        memoryGroups(h, "Not seen since run " + m.get("not_seen_since_run"), maps(m.get("not_seen_patterns")));
        h.append("</section>\n");
    }

    private static void memoryGroups(StringBuilder h, String title, List<Map<?, ?>> groups) {
        if (groups.isEmpty()) {
            return;
        }
        h.append("<h3>").append(Html.text(title)).append("</h3><table><tr><th>pattern</th><th>criterion</th><th>label</th></tr>");
        for (Map<?, ?> x : groups) {
            h.append("<tr><td class=\"k\">").append(Html.text(String.join(", ", list(x.get("patterns")).stream()
                            .map(String::valueOf).toList())))
                    .append("</td><td class=\"k\">").append(Html.text(x.get("criterion"))).append("</td><td>")
                    .append(Html.text(x.get("label"))).append("</td></tr>");
        }
        h.append("</table>\n");
    }

    // ----------------------------------------------------------------------- rules, escalations

    private static void prePass(StringBuilder h, Map<String, Object> r) {
        List<Map<?, ?>> rules = maps(map(r.get("pre_pass")).get("rules"));
        List<Map<?, ?>> learned = maps(r.get("learned_rules"));
        if (rules.isEmpty() && learned.isEmpty()) {
            return;
        }
        h.append("<section>\n<h2>Rules</h2>\n");
        if (!rules.isEmpty()) {
            h.append("<h3>Pre-pass (every item)</h3><table><tr><th>rule</th><th>criterion</th><th class=\"n\">found</th>"
                    + "<th class=\"n\">fixed</th><th class=\"n\">escalated</th></tr>");
            for (Map<?, ?> x : rules) {
                h.append("<tr><td>").append(Html.text(x.get("rule"))).append("</td><td>").append(Html.text(x.get("criterion")))
                        .append("</td><td class=\"n\">").append(Html.text(Html.num(x.get("found")))).append("</td><td class=\"n\">")
                        .append(Html.text(Html.num(x.get("fixed")))).append("</td><td class=\"n\">")
                        .append(Html.text(Html.num(x.get("escalated")))).append("</td></tr>");
            }
            h.append("</table>\n");
        }
        if (!learned.isEmpty()) {
            h.append("<h3>Learned rules</h3><table><tr><th>rule</th><th>pattern</th><th>criterion</th><th>status</th>"
                    + "<th class=\"n\">support</th><th class=\"n\">fixed</th><th>to keep it (job-file fragment)</th></tr>");
            for (Map<?, ?> l : learned) {
                h.append("<tr><td>").append(Html.text(l.get("rule"))).append("</td><td>").append(Html.text(l.get("pattern")))
                        .append("</td><td>").append(Html.text(l.get("criterion"))).append("</td><td>")
                        .append(Html.text(l.get("status") + (l.get("reason") != null ? " (" + l.get("reason") + ")" : "")
                                + remembered(l)))
                        .append("</td><td class=\"n\">").append(Html.text(Html.num(l.get("support"))))
                        .append("</td><td class=\"n\">").append(Html.text(Html.num(l.get("fixed")))).append("</td><td><pre>")
                        .append(Html.text(l.get("fragment"))).append("</pre></td></tr>");
            }
            h.append("</table>\n");
        }
        h.append("</section>\n");
    }

    /** A remembered rule's origin and its re-validation on round 1's sample, for its status cell. */
    private static String remembered(Map<?, ?> rule) {
        Map<?, ?> m = map(rule.get("remembered"));
        if (m.isEmpty()) {
            return "";
        }
        Map<?, ?> sample = map(m.get("round_1_sample"));
        return "; remembered from run " + m.get("learned_in_run") + " (" + m.get("learned_as") + "): round 1's sample flags "
                + Html.num(sample.get("flagged")) + ", confirmed " + Html.num(sample.get("confirmed")) + ", "
                + m.get("verdict");
    }

    private static void escalations(StringBuilder h, Map<String, Object> r) {
        Map<?, ?> run = map(r.get("run"));
        Map<?, ?> e = map(r.get("escalations"));
        Map<?, ?> byCause = map(run.get("escalations_by_cause"));
        Map<?, ?> byReason = map(run.get("escalations_by_reason"));
        if (e.isEmpty() && byCause.isEmpty() && byReason.isEmpty()) {
            return;
        }
        long total = e.isEmpty() ? Html.count(map(r.get("outputs")).get("held")) : Html.count(e.get("total"));
        List<Map<?, ?>> items = maps(e.get("items"));
        h.append("<section>\n<h2>Escalations: ").append(Html.text(Html.num(total))).append(" held for a person</h2>\n");
        if (!byReason.isEmpty() || !byCause.isEmpty()) {
            h.append("<p>").append(Html.text((byCause.isEmpty() ? "" : "by cause: " + joined(byCause))
                    + (byReason.isEmpty() ? "" : (byCause.isEmpty() ? "" : "; ") + "by reason: " + joined(byReason))))
                    .append("</p>\n");
        }
        if (!items.isEmpty()) {
            h.append("<p>").append(Html.text(items.size() < total ? "The first " + items.size() + " of " + Html.num(total)
                    + " (all of them in escalations.csv):" : "All of them (also in escalations.csv):")).append("</p>\n");
            h.append("<table class=\"esc\"><tr><th>item</th><th class=\"n\">round</th><th>cause</th><th>reason</th>"
                    + "<th>pattern</th><th>open issues</th></tr>");
            for (Map<?, ?> x : items) {
                h.append("<tr><td class=\"k\">").append(Html.text(x.get("item_id"))).append("</td><td class=\"n\">")
                        .append(Html.text(x.get("round"))).append("</td><td class=\"k\">").append(Html.text(x.get("cause")))
                        .append("</td><td>").append(Html.text(x.get("reason"))).append("</td><td>")
                        .append(Html.text(patternIds(x.get("pattern")))).append("</td><td>");
                List<?> issues = list(x.get("open_issues"));
                for (int i = 0; i < issues.size(); i++) {
                    h.append(i == 0 ? "" : "<br>").append(Html.text(issues.get(i)));
                }
                h.append("</td></tr>");
            }
            h.append("</table>\n");
        }
        h.append("</section>\n");
    }

    /** Every top-level key no section above renders (canaries, panel fit, ...), as tables. */
    private static void other(StringBuilder h, Map<String, Object> r) {
        Map<String, Object> rest = rest(r, TOP);
        Map<?, ?> panel = map(r.get("panel"));
        if (rest.isEmpty() && panel.isEmpty()) {
            return;
        }
        h.append("<section>\n<h2>More figures</h2>\n");
        for (Map.Entry<String, Object> e : rest.entrySet()) {
            h.append("<h3>").append(Html.key(e.getKey())).append("</h3>");
            value(h, e.getValue(), 0);
        }
        if (!panel.isEmpty()) {
            h.append("<h3>panel</h3>");
            value(h, panel, 0);
        }
        h.append("</section>\n");
    }

    // --------------------------------------------------------------------------------- generic

    /** A map as a two-column table, values rendered by {@link #value}. */
    private static void table(StringBuilder h, Map<?, ?> m, int depth) {
        h.append("<table class=\"kv\">");
        for (Map.Entry<?, ?> e : m.entrySet()) {
            h.append("<tr><th>").append(Html.key(String.valueOf(e.getKey()))).append("</th><td>");
            value(h, e.getValue(), depth + 1);
            h.append("</td></tr>");
        }
        h.append("</table>");
    }

    /** Any report value: a scalar as text, a map as a table, a list of maps as a table with a column per key (at most 100 rows). */
    private static void value(StringBuilder h, @Nullable Object v, int depth) {
        if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                h.append("none");
            } else if (depth > 4) {
                h.append("<code>").append(Html.text(m)).append("</code>");
            } else {
                table(h, m, depth);
            }
        } else if (v instanceof List<?> l) {
            if (l.isEmpty()) {
                h.append("none");
            } else if (l.stream().allMatch(x -> x instanceof Map<?, ?>) && depth <= 4) {
                List<Object> columns = new ArrayList<>();
                l.forEach(x -> ((Map<?, ?>) x).keySet().forEach(k -> {
                    if (!columns.contains(k)) {
                        columns.add(k);
                    }
                }));
                h.append("<table><tr>");
                columns.forEach(c -> h.append("<th>").append(Html.key(String.valueOf(c))).append("</th>"));
                h.append("</tr>");
                for (Object x : l.subList(0, Math.min(l.size(), MAX_ESCALATIONS))) {
                    h.append("<tr>");
                    for (Object c : columns) {
                        h.append("<td>");
                        value(h, ((Map<?, ?>) x).get(c), depth + 1);
                        h.append("</td>");
                    }
                    h.append("</tr>");
                }
                h.append("</table>");
                if (l.size() > MAX_ESCALATIONS) {
                    h.append("<p class=\"note\">").append(Html.text("the first " + MAX_ESCALATIONS + " of " + l.size()
                            + " rows; every row is in report.json")).append("</p>");
                }
            } else {
                h.append(Html.text(String.join(", ", l.stream().map(x -> x instanceof Number ? Html.num(x)
                        : String.valueOf(x)).toList())));
            }
        } else if (v instanceof Number) {
            h.append(Html.text(Html.num(v)));
        } else {
            h.append(Html.text(v == null ? "n/a" : v));
        }
    }

    /** The pattern ids of an escalation's pattern cell ({@code r1-p1 <label> | r1-p3 <label>} → {@code r1-p1, r1-p3}). */
    private static String patternIds(@Nullable Object pattern) {
        if (pattern == null) {
            return "";
        }
        List<String> ids = new ArrayList<>();
        for (String part : String.valueOf(pattern).split(" \\| ")) {
            String first = part.strip().split(" ", 2)[0];
            if (!first.matches("r\\d+-p\\d+")) {
                return String.valueOf(pattern);
            }
            ids.add(first);
        }
        return String.join(", ", ids);
    }

    private static Map<String, Object> rest(Map<?, ?> m, Set<String> known) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> {
            if (!known.contains(String.valueOf(k))) {
                out.put(String.valueOf(k), v);
            }
        });
        return out;
    }

    private static String share(long part, @Nullable Object whole, String of) {
        double w = Html.number(whole);
        return w <= 0 ? "" : " (" + Html.pct(part / w) + " " + of + ")";
    }

    private static String interval(@Nullable Object ci) {
        List<?> l = list(ci);
        return l.size() == 2 ? " (95 % CI " + Html.pct(l.get(0)) + " to " + Html.pct(l.get(1)) + ")" : "";
    }

    private static String joined(Map<?, ?> m) {
        List<String> parts = new ArrayList<>();
        m.forEach((k, v) -> parts.add(k + " " + Html.num(v)));
        return String.join(", ", parts);
    }

    private static Map<?, ?> map(@Nullable Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }

    private static List<?> list(@Nullable Object o) {
        return o instanceof List<?> l ? l : List.of();
    }

    private static List<Map<?, ?>> maps(@Nullable Object o) {
        List<Map<?, ?>> out = new ArrayList<>();
        for (Object x : list(o)) {
            if (x instanceof Map<?, ?> m) {
                out.add(m);
            }
        }
        return out;
    }
}
