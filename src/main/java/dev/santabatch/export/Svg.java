package dev.santabatch.export;

import java.util.List;
import java.util.Locale;

/**
 * The charts of {@code report.html}, as inline SVG drawn here: horizontal bars, grouped bars, a
 * stacked share bar and a small column strip. Each chart has a title for screen readers; every
 * figure it shows is also printed as text beside it, so a chart is never the only place of a
 * number. Labels and values pass through {@link Html#text}.
 */
final class Svg {

    /** Bar colours: the palette's fill per series. */
    static final String[] PALETTE = {"#2f6db5", "#e08a1e", "#3a9a5b", "#b8453a", "#7a5bb0", "#5a8f99", "#a88a2c", "#888888"};

    private static final int WIDTH = 640;
    private static final int LABEL = 230;
    private static final int ROW = 22;

    private Svg() {}

    /** One bar: its label, its length's value, and the text printed after it. */
    record Bar(String label, double value, String shown) {}

    /**
     * Horizontal bars scaled to {@code max} (the largest value when {@code max <= 0}); a value above
     * 0 is at least 2 px long so it shows; a value above {@code max} is drawn full length, broken by
     * a white gap (a broken axis), its true figure printed after it.
     */
    static String bars(String title, List<Bar> bars, double max, String colour) {
        double top = max > 0 ? max : bars.stream().mapToDouble(Bar::value).max().orElse(0);
        int area = WIDTH - LABEL - 110;
        int height = bars.size() * ROW + 6;
        StringBuilder s = open(title, height);
        int y = 4;
        for (Bar b : bars) {
            double w = top <= 0 ? 0 : Math.max(b.value() > 0 ? 2 : 0, area * Math.min(1, b.value() / top));
            s.append("<text x=\"").append(LABEL - 6).append("\" y=\"").append(y + 14)
                    .append("\" text-anchor=\"end\">").append(Html.text(shorten(b.label(), 36))).append("</text>");
            s.append("<rect x=\"").append(LABEL).append("\" y=\"").append(y + 3).append("\" width=\"").append(fmt(w))
                    .append("\" height=\"").append(ROW - 8).append("\" fill=\"").append(colour).append("\"/>");
            if (top > 0 && b.value() > top) {
                double bx = LABEL + w - 24;
                s.append("<path d=\"M").append(fmt(bx)).append(' ').append(y + ROW - 3).append(" L").append(fmt(bx + 6))
                        .append(' ').append(y + 1).append(" M").append(fmt(bx + 5)).append(' ').append(y + ROW - 3).append(" L")
                        .append(fmt(bx + 11)).append(' ').append(y + 1).append("\" stroke=\"#fff\" stroke-width=\"3\"/>");
            }
            s.append("<text x=\"").append(fmt(LABEL + w + 6)).append("\" y=\"").append(y + 14).append("\">")
                    .append(Html.text(b.shown())).append("</text>");
            y += ROW;
        }
        return s.append("</svg>").toString();
    }

    /** One group of bars per row, one bar per series, all on one scale; a legend above. */
    static String grouped(String title, List<String> rows, List<String> series, double[][] values) {
        double top = 0;
        for (double[] row : values) {
            for (double v : row) {
                top = Math.max(top, v);
            }
        }
        int area = WIDTH - LABEL - 60;
        int bar = 9;
        int groupHeight = series.size() * (bar + 2) + 8;
        int height = 22 + rows.size() * groupHeight;
        StringBuilder s = open(title, height);
        legend(s, series, LABEL);
        int y = 22;
        for (int r = 0; r < rows.size(); r++) {
            s.append("<text x=\"").append(LABEL - 6).append("\" y=\"").append(y + groupHeight / 2 + 2)
                    .append("\" text-anchor=\"end\">").append(Html.text(shorten(rows.get(r), 30))).append("</text>");
            for (int k = 0; k < series.size(); k++) {
                double v = values[r][k];
                double w = top <= 0 ? 0 : Math.max(v > 0 ? 2 : 0, area * v / top);
                int by = y + k * (bar + 2);
                s.append("<rect x=\"").append(LABEL).append("\" y=\"").append(by).append("\" width=\"").append(fmt(w))
                        .append("\" height=\"").append(bar).append("\" fill=\"").append(PALETTE[k % PALETTE.length])
                        .append("\"/>");
                s.append("<text class=\"small\" x=\"").append(fmt(LABEL + w + 4)).append("\" y=\"").append(by + bar - 1)
                        .append("\">").append(Html.text(Html.num(v))).append("</text>");
            }
            y += groupHeight;
        }
        return s.append("</svg>").toString();
    }

    /** One bar split into shares; a legend of the parts with their shown values below it. */
    static String shares(String title, List<Bar> parts) {
        double total = parts.stream().mapToDouble(Bar::value).sum();
        int height = 34 + ((parts.size() + 1) / 2) * 18;
        StringBuilder s = open(title, height);
        double x = 0;
        int area = WIDTH - 2;
        for (int i = 0; i < parts.size(); i++) {
            double w = total <= 0 ? 0 : area * parts.get(i).value() / total;
            s.append("<rect x=\"").append(fmt(1 + x)).append("\" y=\"2\" width=\"").append(fmt(w))
                    .append("\" height=\"22\" fill=\"").append(PALETTE[i % PALETTE.length]).append("\"/>");
            x += w;
        }
        for (int i = 0; i < parts.size(); i++) {
            int lx = 2 + (i % 2) * (WIDTH / 2);
            int ly = 42 + (i / 2) * 18;
            Bar p = parts.get(i);
            s.append("<rect x=\"").append(lx).append("\" y=\"").append(ly - 10).append("\" width=\"10\" height=\"10\" fill=\"")
                    .append(PALETTE[i % PALETTE.length]).append("\"/>");
            s.append("<text x=\"").append(lx + 14).append("\" y=\"").append(ly).append("\">")
                    .append(Html.text(shorten(p.label(), 22) + ": " + p.shown()
                            + (total > 0 ? String.format(Locale.ROOT, " (%.0f %%)", 100 * p.value() / total) : "")))
                    .append("</text>");
        }
        return s.append("</svg>").toString();
    }

    /**
     * A strip of columns, one per run, oldest first, scaled to {@code max} (the largest value when
     * {@code max <= 0}); a run without a value gets a dash; the last column is the current run.
     */
    static String strip(String title, List<String> runs, List<Double> values, double max, boolean percent) {
        double top = max > 0 ? max : values.stream().filter(v -> v != null).mapToDouble(Double::doubleValue).max().orElse(0);
        int col = Math.max(14, Math.min(40, (300 - 4) / Math.max(1, runs.size())));
        int width = col * runs.size() + 4;
        int plot = 60;
        StringBuilder s = new StringBuilder("<svg class=\"strip\" role=\"img\" viewBox=\"0 0 ").append(width).append(' ')
                .append(plot + 6).append("\" width=\"").append(width).append("\" height=\"").append(plot + 6)
                .append("\"><title>").append(Html.text(title)).append("</title>");
        s.append("<line x1=\"0\" y1=\"").append(plot + 1).append("\" x2=\"").append(width).append("\" y2=\"").append(plot + 1)
                .append("\" stroke=\"#999\"/>");
        for (int i = 0; i < runs.size(); i++) {
            Double v = values.get(i);
            int x = 2 + i * col;
            String fill = i == runs.size() - 1 ? PALETTE[0] : "#9bb7d9";
            if (v == null) {
                s.append("<rect x=\"").append(x + 2).append("\" y=\"").append(plot - 1).append("\" width=\"").append(col - 4)
                        .append("\" height=\"1\" fill=\"#bbb\"><title>").append(Html.text(runs.get(i)))
                        .append(": not measured</title></rect>");
                continue;
            }
            double h = top <= 0 ? 0 : Math.max(v > 0 ? 1 : 0, plot * Math.min(1, v / top));
            s.append("<rect x=\"").append(x + 2).append("\" y=\"").append(fmt(plot + 1 - h)).append("\" width=\"")
                    .append(col - 4).append("\" height=\"").append(fmt(h)).append("\" fill=\"").append(fill)
                    .append("\"><title>").append(Html.text(runs.get(i) + ": " + (percent ? Html.pct(v) : Html.num(v))))
                    .append("</title></rect>");
        }
        return s.append("</svg>").toString();
    }

    private static StringBuilder open(String title, int height) {
        return new StringBuilder("<svg role=\"img\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" width=\"100%\" style=\"max-width:").append(WIDTH).append("px\"><title>")
                .append(Html.text(title)).append("</title>");
    }

    private static void legend(StringBuilder s, List<String> series, int x0) {
        int x = x0;
        for (int k = 0; k < series.size(); k++) {
            s.append("<rect x=\"").append(x).append("\" y=\"4\" width=\"10\" height=\"10\" fill=\"")
                    .append(PALETTE[k % PALETTE.length]).append("\"/>");
            s.append("<text x=\"").append(x + 14).append("\" y=\"13\">").append(Html.text(series.get(k))).append("</text>");
            x += 18 + 7 * series.get(k).length();
        }
    }

    /** At most {@code max} characters, an ellipsis replacing the rest (escaped by the caller). */
    static String shorten(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.1f", d);
    }
}
