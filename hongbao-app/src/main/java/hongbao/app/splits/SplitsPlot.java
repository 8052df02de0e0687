package hongbao.app.splits;

import hongbao.core.split.SplitStatistics.Position;
import hongbao.core.split.SplitStatistics.Summary;
import java.util.List;
import java.util.Locale;

/**
 * Draws a summary as a hand-written SVG: above, each position's share (min-max whisker, mean ± one
 * standard deviation box, mean dot; for many positions, lines instead); below, how often each
 * position had the best luck, against the {@code 1/N} line every position would sit on if grab
 * order did not matter.
 */
final class SplitsPlot {

  private static final int WIDTH = 900;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int PLOT_WIDTH = WIDTH - LEFT - RIGHT;
  private static final int SHARE_TOP = 50;
  private static final int SHARE_HEIGHT = 300;
  private static final int LUCK_TOP = 420;
  private static final int LUCK_HEIGHT = 180;
  private static final int HEIGHT = LUCK_TOP + LUCK_HEIGHT + 50;

  /** Above this many positions boxes would be thinner than a pixel: draw lines. */
  private static final int MAX_BOXES = 100;

  private SplitsPlot() {}

  static String svg(Summary summary, long seed) {
    List<Position> positions = summary.positions();
    int n = positions.size();
    long maxShare = positions.stream().mapToLong(Position::max).max().orElse(1);
    double maxLuck =
        Math.max(1.0 / n, positions.stream().mapToDouble(Position::bestLuckShare).max().orElse(0));
    double shareTop = niceCeiling(Math.max(1, maxShare));
    double luckTop = niceCeiling(maxLuck);
    StringBuilder svg = new StringBuilder(4096 + 400 * Math.min(n, MAX_BOXES));
    svg.append(
            f(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                    + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                WIDTH, HEIGHT, WIDTH, HEIGHT))
        .append(f("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT))
        .append(
            f(
                "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">%s: %s fen in %d"
                    + " shares, %d packets (seed %d)</text>%n",
                LEFT, escape(summary.policy()), summary.amountFen(), n, summary.runs(), seed));
    axis(svg, SHARE_TOP, SHARE_HEIGHT, shareTop, false, "share (fen): min-max, mean ± sd");
    axis(svg, LUCK_TOP, LUCK_HEIGHT, luckTop, true, "best luck (share of packets)");
    double slot = (double) PLOT_WIDTH / n;
    if (n <= MAX_BOXES) {
      for (Position p : positions) {
        box(svg, p, slot, shareTop);
        luckBar(svg, p, slot, luckTop);
      }
    } else {
      lines(svg, positions, slot, shareTop, luckTop);
    }
    double fairY = LUCK_TOP + LUCK_HEIGHT * (1 - (1.0 / n) / luckTop);
    // The label sits above the panel, where no bar can hide it.
    svg.append(
        f(
            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#c00\""
                + " stroke-dasharray=\"6 4\"/>%n<text x=\"%d\" y=\"%d\" fill=\"#c00\""
                + " text-anchor=\"end\">dashed: 1/N = %s (grab order does not matter)</text>%n",
            LEFT,
            fairY,
            LEFT + PLOT_WIDTH,
            fairY,
            LEFT + PLOT_WIDTH,
            LUCK_TOP - 10,
            SplitsJson.decimal(1.0 / n, 4)));
    positionLabels(svg, n, slot);
    return svg.append("</svg>\n").toString();
  }

  private static void box(StringBuilder svg, Position p, double slot, double top) {
    double x = LEFT + slot * (p.position() - 0.5);
    double half = Math.min(18, slot * 0.3);
    svg.append(
            f(
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>%n",
                x, shareY(p.min(), top), x, shareY(p.max(), top)))
        .append(
            f(
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#8ab4f8\""
                    + " stroke=\"#1a5fb4\"/>%n",
                x - half,
                shareY(p.mean() + p.stddev(), top),
                2 * half,
                shareY(Math.max(0, p.mean() - p.stddev()), top)
                    - shareY(p.mean() + p.stddev(), top)))
        .append(
            f(
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#1a5fb4\"/>%n",
                x, shareY(p.mean(), top)));
  }

  private static void luckBar(StringBuilder svg, Position p, double slot, double top) {
    double x = LEFT + slot * (p.position() - 1) + slot * 0.15;
    double y = LUCK_TOP + LUCK_HEIGHT * (1 - p.bestLuckShare() / top);
    svg.append(
        f(
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f6c177\""
                + " stroke=\"#b5651d\"/>%n",
            x, y, slot * 0.7, LUCK_TOP + LUCK_HEIGHT - y));
  }

  private static void lines(
      StringBuilder svg, List<Position> positions, double slot, double shareTop, double luckTop) {
    StringBuilder max = new StringBuilder();
    StringBuilder upper = new StringBuilder();
    StringBuilder mean = new StringBuilder();
    StringBuilder lower = new StringBuilder();
    StringBuilder luck = new StringBuilder();
    for (Position p : positions) {
      double x = LEFT + slot * (p.position() - 0.5);
      max.append(f("%.1f,%.1f ", x, shareY(p.max(), shareTop)));
      upper.append(f("%.1f,%.1f ", x, shareY(p.mean() + p.stddev(), shareTop)));
      mean.append(f("%.1f,%.1f ", x, shareY(p.mean(), shareTop)));
      lower.append(f("%.1f,%.1f ", x, shareY(Math.max(0, p.mean() - p.stddev()), shareTop)));
      luck.append(f("%.1f,%.1f ", x, LUCK_TOP + LUCK_HEIGHT * (1 - p.bestLuckShare() / luckTop)));
    }
    polyline(svg, max, "#888");
    polyline(svg, upper, "#8ab4f8");
    polyline(svg, mean, "#1a5fb4");
    polyline(svg, lower, "#8ab4f8");
    polyline(svg, luck, "#b5651d");
  }

  private static void polyline(StringBuilder svg, StringBuilder points, String colour) {
    svg.append(
        f(
            "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1\" points=\"%s\"/>%n",
            colour, points.toString().trim()));
  }

  private static void axis(
      StringBuilder svg, int top, int height, double max, boolean fraction, String label) {
    svg.append(
        f(
            "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n",
            LEFT, top - 10, escape(label)));
    for (int i = 0; i <= 4; i++) {
      double value = max * i / 4;
      double y = top + height * (1 - i / 4.0);
      svg.append(
          f(
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n"
                  + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
              LEFT,
              y,
              LEFT + PLOT_WIDTH,
              y,
              LEFT - 6,
              y + 4,
              fraction ? SplitsJson.decimal(value, 3) : SplitsJson.decimal(value, 0)));
    }
  }

  private static void positionLabels(StringBuilder svg, int n, double slot) {
    int every = Math.max(1, (int) Math.ceil(n / 20.0));
    for (int position = 1; position <= n; position++) {
      if (position == 1 || position % every == 0) {
        double x = LEFT + slot * (position - 0.5);
        svg.append(
                f(
                    "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>%n",
                    x, SHARE_TOP + SHARE_HEIGHT + 16, position))
            .append(
                f(
                    "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>%n",
                    x, LUCK_TOP + LUCK_HEIGHT + 16, position));
      }
    }
    svg.append(
        f(
            "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">grab order (position)</text>%n",
            LEFT + PLOT_WIDTH / 2, LUCK_TOP + LUCK_HEIGHT + 38));
  }

  private static double shareY(double fen, double top) {
    return SHARE_TOP + SHARE_HEIGHT * (1 - fen / top);
  }

  /** 1, 2 or 5 times a power of ten, at least {@code value}: round axis ends. */
  static double niceCeiling(double value) {
    double power = Math.pow(10, Math.floor(Math.log10(value)));
    for (double step : new double[] {1, 2, 5, 10}) {
      if (step * power >= value * (1 - 1e-12)) {
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
