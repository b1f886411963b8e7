package dev.santabatch.export;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a full-page PNG of a {@code report.html} with {@link HeadlessChromium}, as the README's
 * {@code docs/report-example.png} was made (a window 1100 CSS pixels wide). Arguments: the page,
 * the PNG, optionally the top and the height of the part to take in CSS pixels (default: all).
 */
public final class ReportScreenshot {

    private ReportScreenshot() {}

    public static void main(String[] args) throws Exception {
        Path page = Path.of(args[0]).toAbsolutePath();
        Path png = Path.of(args[1]).toAbsolutePath();
        Path chromium = HeadlessChromium.binary()
                .orElseThrow(() -> new IllegalStateException("Chromium is not installed (apt-get install chromium)"));
        Path profile = Files.createTempDirectory("report-screenshot");
        try (HtmlReportBrowserTests.Listener listener = HtmlReportBrowserTests.Listener.start();
                HeadlessChromium browser = HeadlessChromium.start(chromium, profile, listener.port())) {
            browser.open(page.toUri().toString());
            browser.screenshot(png, args.length > 2 ? Double.parseDouble(args[2]) : 0,
                    args.length > 3 ? Double.parseDouble(args[3]) : Double.MAX_VALUE);
            if (!listener.received().isEmpty()) {
                throw new IllegalStateException("the page made requests: " + listener.received());
            }
        }
        System.out.println("wrote " + png + " (" + Files.size(png) + " bytes)");
    }
}
