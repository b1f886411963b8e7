package dev.santabatch.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.santabatch.execution.StopSignal;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code report.html} of a real run in a real browser: headless Chromium, every request it makes
 * sent to a listener this test owns (as its proxy, loopback included, and as the address of the
 * hostile item's image). The page's text is read as rendered ({@code innerText}: what CSS leaves
 * visible), not from the DOM's source. Without Chromium the test is skipped, except under
 * {@code CI=true}, where it fails.
 */
class HtmlReportBrowserTests {

    @TempDir
    Path dir;

    @BeforeEach
    void reset() {
        StopSignal.reset();
    }

    @Test
    void theReportOpensInChromiumWithNoRequestAndShowsStatusCountsAndPatternLabels() throws Exception {
        Path chromium = HeadlessChromium.binary().orElse(null);
        if (chromium == null) {
            if ("true".equals(System.getenv("CI"))) {
                fail("Chromium is not installed (apt-get install chromium; .ci/run installs it): the browser test must run in CI");
            }
            Assumptions.abort("Chromium is not installed (apt-get install chromium)");
        }
        try (Listener listener = Listener.start()) {
            // given a real run whose catalog holds an item with a script, an image at the listener and a javascript: link
            HostileRun.Result run = HostileRun.run(dir, listener.port(), "r1");
            assertThat(run.exit()).as(run.out()).isZero();
            Map<String, Object> report = RunReport.read(run.runDir().resolve("report.json"));
            Path page = run.runDir().resolve("report.html");
            Path shot = dir.resolve("report.png");

            // when Chromium opens its report.html
            String text;
            List<String> requests;
            List<String> dialogs;
            try (HeadlessChromium browser = HeadlessChromium.start(chromium, dir.resolve("profile"), listener.port())) {
                browser.open(page.toUri().toString());
                text = browser.visibleText();
                browser.screenshot(shot);
                requests = browser.requests();
                dialogs = browser.dialogs();
            }

            // then no request left the page: the listener heard nothing, the browser sent nothing but the file
            assertThat(listener.received()).as("requests at the listener").isEmpty();
            assertThat(requests).as("requests the page sent").containsExactly(page.toUri().toString());
            assertThat(dialogs).as("script ran").isEmpty();
            // the visible text shows the status, the counts and each pattern's label, the hostile text as text
            Map<?, ?> outputs = (Map<?, ?>) report.get("outputs");
            assertThat(text).contains("CLEAN")
                    .contains(outputs.get("shipped") + "\nshipped (catalog.csv)")
                    .contains(outputs.get("held") + "\nheld for a person (escalations.csv)")
                    .contains(outputs.get("unverified") + "\nunverified (unverified.csv)")
                    .contains("The bound: Among the");
            List<?> patterns = (List<?>) ((Map<?, ?>) ((List<?>) report.get("rounds")).get(0)).get("patterns");
            assertThat(patterns).isNotEmpty();
            for (Object p : patterns) {
                assertThat(text).contains(String.valueOf(((Map<?, ?>) p).get("label")));
            }
            assertThat(text).contains("<img src=http://127.0.0.1:" + listener.port() + "/x onerror=alert(1)>")
                    .contains("</script><script>alert(1)</script>").contains("<a href=\"javascript:alert(1)\">");
            // and a screenshot was produced
            byte[] png = Files.readAllBytes(shot);
            assertThat(png.length).isGreaterThan(10_000);
            assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        }
    }

    /** A TCP listener on 127.0.0.1 that records the first line of every connection it accepts. */
    record Listener(ServerSocket server, List<String> received, Thread thread) implements AutoCloseable {

        static Listener start() throws IOException {
            ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            List<String> received = new CopyOnWriteArrayList<>();
            Thread t = new Thread(() -> {
                while (!server.isClosed()) {
                    try (Socket s = server.accept()) {
                        s.setSoTimeout(2000);
                        received.add(firstLine(s.getInputStream()));
                    } catch (IOException e) {
                        // closed: the test is over
                    }
                }
            }, "report-listener");
            t.setDaemon(true);
            t.start();
            return new Listener(server, received, t);
        }

        int port() {
            return server.getLocalPort();
        }

        private static String firstLine(InputStream in) {
            StringBuilder b = new StringBuilder("connection: ");
            try {
                for (int c = in.read(); c >= 0 && c != '\n' && b.length() < 300; c = in.read()) {
                    b.append((char) c);
                }
            } catch (IOException e) {
                // the connection itself is what counts
            }
            return b.toString();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
