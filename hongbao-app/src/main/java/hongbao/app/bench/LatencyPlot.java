package hongbao.app.bench;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * A hand-written SVG of one run: above, the latency percentile curve (x: percentile on the usual
 * log scale of 1/(1-p), so that 99.9% gets as much room as 90%); below, completions per second over
 * the run.
 */
final class LatencyPlot {

  private static final int WIDTH = 900;
  private static final int LEFT = 70;
  private static final int PLOT_WIDTH = WIDTH - LEFT - 30;
  private static final int CURVE_TOP = 50;
  private static final int CURVE_HEIGHT = 280;
  private static final int RATE_TOP = 400;
  private static final int RATE_HEIGHT = 180;
  private static final int HEIGHT = RATE_TOP + RATE_HEIGHT + 50;

  /** The curve goes out to 99.999% (five nines): log10(1/(1-p)) = 5. */
  private static final double MAX_NINES = 5;

  private LatencyPlot() {}

  static String svg(String title, Histogram latencyMicros, long[] perSecond) {
    var svg = new StringBuilder(16_384);
    svg.append(
            f(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0"
                    + " 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                WIDTH, HEIGHT, WIDTH, HEIGHT))
        .append(f("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT))
        .append(
            f(
                "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">%s</text>%n",
                LEFT, escape(title)));
    curve(svg, latencyMicros);
    rate(svg, perSecond);
    return svg.append("</svg>\n").toString();
  }

  private static void curve(StringBuilder svg, Histogram h) {
    double maxMillis = niceCeiling(Math.max(0.001, h.getMaxValue() / 1000.0));
    frame(svg, CURVE_TOP, CURVE_HEIGHT, maxMillis, "latency (ms) by percentile");
    String[] labels = {"0%", "90%", "99%", "99.9%", "99.99%", "99.999%"};
    for (int i = 0; i < labels.length; i++) {
      double x = LEFT + PLOT_WIDTH * i / MAX_NINES;
      svg.append(
          f(
              "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
              x, CURVE_TOP + CURVE_HEIGHT + 16, labels[i]));
    }
    var points = new StringBuilder();
    int steps = 200;
    for (int i = 0; i <= steps; i++) {
      double nines = MAX_NINES * i / steps;
      double percentile = 100 * (1 - Math.pow(10, -nines));
      double millis = h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1000.0;
      double x = LEFT + PLOT_WIDTH * nines / MAX_NINES;
      double y = CURVE_TOP + CURVE_HEIGHT - CURVE_HEIGHT * millis / maxMillis;
      points.append(f("%.1f,%.1f ", x, y));
    }
    svg.append(
        f(
            "<polyline fill=\"none\" stroke=\"#c0392b\" stroke-width=\"2\" points=\"%s\"/>%n",
            points.toString().trim()));
  }

  private static void rate(StringBuilder svg, long[] perSecond) {
    long max = 1;
    for (long c : perSecond) {
      max = Math.max(max, c);
    }
    double top = niceCeiling(max);
    frame(svg, RATE_TOP, RATE_HEIGHT, top, "completions per second over the run (s)");
    double slot = (double) PLOT_WIDTH / perSecond.length;
    for (int i = 0; i < perSecond.length; i++) {
      double height = RATE_HEIGHT * perSecond[i] / top;
      svg.append(
          f(
              "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#2980b9\"/>%n",
              LEFT + i * slot + slot * 0.1, RATE_TOP + RATE_HEIGHT - height, slot * 0.8, height));
    }
    int labelEvery = Math.max(1, perSecond.length / 10);
    for (int i = 0; i <= perSecond.length; i += labelEvery) {
      svg.append(
          f(
              "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>%n",
              LEFT + i * slot, RATE_TOP + RATE_HEIGHT + 16, i));
    }
  }

  private static void frame(StringBuilder svg, int top, int height, double max, String label) {
    svg.append(f("<text x=\"%d\" y=\"%d\">%s</text>%n", LEFT, top - 8, escape(label)));
    for (int i = 0; i <= 4; i++) {
      double y = top + height - height * i / 4.0;
      svg.append(
              f(
                  "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
                  LEFT, y, LEFT + PLOT_WIDTH, y))
          .append(
              f(
                  "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                  LEFT - 6, y + 4, number(max * i / 4.0)));
    }
    svg.append(
        f(
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>%n",
            LEFT, top, PLOT_WIDTH, height));
  }

  private static String number(double value) {
    return value >= 100 ? f("%.0f", value) : f("%.2f", value);
  }

  /** 1, 2 or 5 times a power of ten, at least {@code value}. */
  static double niceCeiling(double value) {
    double power = Math.pow(10, Math.floor(Math.log10(value)));
    for (double step : new double[] {1, 2, 5, 10}) {
      if (step * power >= value) {
        return step * power;
      }
    }
    return 10 * power;
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
