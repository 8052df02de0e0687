package hongbao.app.splits;

import hongbao.core.split.SplitStatistics.Position;
import hongbao.core.split.SplitStatistics.Summary;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The JSON shape of the {@code splits} command, written by hand: the shape is fixed by the issue
 * and small, and a hand-written writer keeps the key order and spacing exactly as documented.
 */
final class SplitsJson {

  private SplitsJson() {}

  static String write(Summary summary) {
    StringBuilder json = new StringBuilder(128 + 110 * summary.positions().size());
    json.append("{\"policy\": ")
        .append(quoted(summary.policy()))
        .append(", \"runs\": ")
        .append(summary.runs())
        .append(", \"sumAlwaysExact\": ")
        .append(summary.sumAlwaysExact())
        .append(", \"minShare\": ")
        .append(summary.minShare())
        .append(", \"positions\": [");
    String separator = "";
    for (Position p : summary.positions()) {
      json.append(separator)
          .append("{\"position\": ")
          .append(p.position())
          .append(", \"mean\": ")
          .append(decimal(p.mean(), 2))
          .append(", \"stddev\": ")
          .append(decimal(p.stddev(), 2))
          .append(", \"min\": ")
          .append(p.min())
          .append(", \"max\": ")
          .append(p.max())
          .append(", \"bestLuckShare\": ")
          .append(decimal(p.bestLuckShare(), 4))
          .append('}');
      separator = ", ";
    }
    return json.append("]}").toString();
  }

  /** A plain JSON number (never exponent notation, never NaN: the statistics are finite). */
  static String decimal(double value, int places) {
    return BigDecimal.valueOf(value)
        .setScale(places, RoundingMode.HALF_EVEN)
        .stripTrailingZeros()
        .toPlainString();
  }

  static String quoted(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
