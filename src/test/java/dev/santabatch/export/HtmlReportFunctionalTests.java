package dev.santabatch.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.execution.StopSignal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code report.html} of real runs whose catalog holds hostile text ({@link HostileRun}). */
class HtmlReportFunctionalTests {

    @TempDir
    Path dir;

    @BeforeEach
    void reset() {
        StopSignal.reset();
    }

    @Test
    void aRunWritesReportHtmlBesideReportJsonWithTheHostileTextAsText() throws Exception {
        // given a catalog a fifth of whose items carry a script, an image with an error handler and a javascript: link
        HostileRun.Result r = HostileRun.run(dir, 9, "r1");

        // then the run ends clean, the hostile items held, and report.html is beside report.json
        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(r.out()).contains("report.json, report.html");
        Path page = r.runDir().resolve("report.html");
        assertThat(page).isRegularFile();
        String html = Files.readString(page, StandardCharsets.UTF_8);
        Map<String, Object> report = RunReport.read(r.runDir().resolve("report.json"));
        HtmlReportTests.assertOnlyOwnMarkup(html);
        // the pattern's label and the open issues quote the hostile text: it is there, escaped
        assertThat(html).contains("<td>" + Html.text(HostileRun.label(9)) + "</td>")
                .contains("&lt;img src=http://127.0.0.1:9/x onerror=alert(1)&gt;");
        // the escalations with their open issues, and their count, from report.json's excerpt
        Map<?, ?> escalations = (Map<?, ?>) report.get("escalations");
        assertThat(((Number) escalations.get("total")).longValue()).isEqualTo(40);
        assertThat((List<?>) escalations.get("items")).hasSize(40);
        assertThat(html).contains("<h2>Escalations: 40 held for a person</h2>")
                .contains("<br>" + Html.text("no fix for " + HostileRun.hostile(9)));
        assertThat(html).contains(">CLEAN<").contains("<b>160</b><span>shipped (catalog.csv)")
                .contains("<b>40</b><span>held for a person");
        assertThat(html).doesNotContain("Trend over the job");

        // when the job runs again: the second run's page has the trend of both
        HostileRun.Result again = HostileRun.run(dir, 9, "r2");
        assertThat(again.exit()).as(again.out()).isZero();
        String second = Files.readString(again.runDir().resolve("report.html"), StandardCharsets.UTF_8);
        assertThat(second).contains("Trend over the job").contains("<tr><td>r1</td>").contains("<tr><td>r2</td><td class=\"k\">this run</td>");
        assertThat(html).isEqualTo(Files.readString(page, StandardCharsets.UTF_8));
    }
}
