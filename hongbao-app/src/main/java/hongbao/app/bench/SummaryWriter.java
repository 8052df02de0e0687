package hongbao.app.bench;

import hongbao.app.bench.CpuMeter.Party;
import hongbao.app.bench.Summary.Drain;
import hongbao.app.bench.Summary.Latency;
import hongbao.app.bench.Summary.Window;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Writes summary.json, summary.md and the latency pictures of one run into its directory. */
final class SummaryWriter {

  static final String JSON = "summary.json";
  static final String MARKDOWN = "summary.md";
  static final String PLOT = "latency.svg";
  static final String OPEN_LOOP_PLOT = "open-loop.svg";

  private SummaryWriter() {}

  static void write(Path dir, Summary s, Map<String, String> plots) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(JSON), json(s).encodePrettily() + "\n", StandardCharsets.UTF_8);
    Files.writeString(dir.resolve(MARKDOWN), markdown(s), StandardCharsets.UTF_8);
    for (var plot : plots.entrySet()) {
      Files.writeString(dir.resolve(plot.getKey()), plot.getValue(), StandardCharsets.UTF_8);
    }
  }

  static JsonObject json(Summary s) {
    Window m = s.median();
    var windows = new JsonArray();
    s.windows().forEach(w -> windows.add(window(w)));
    var json =
        new JsonObject()
            .put("scenario", s.scenario())
            .put("command", s.command())
            .put("concurrency", s.concurrency())
            .put("pinning", s.pinning())
            .put("warmupGrabsPerSec", new JsonArray(s.warmupGrabsPerSec()))
            .put("openLoopWarmupGrabsPerSec", new JsonArray(s.openLoopWarmupGrabsPerSec()))
            .put("runs", s.windows().size())
            .put("requests", m.requests())
            .put("grabbed", m.grabbed())
            .put("failed", m.failed())
            .put("outcomes", new JsonObject(new java.util.LinkedHashMap<>(m.outcomes())))
            .put("throughputPerSec", round(m.requestsPerSec()))
            .put("grabsPerSec", round(m.grabsPerSec()))
            .put("latencyMillis", latency(m.latency()))
            .put("cpuMicrosPerGrab", perParty(m.cpuMicrosPerGrab()))
            .put("cores", perParty(m.cores()))
            .put("switchesPerGrab", perParty(m.switchesPerGrab()))
            .put("redisForks", m.redisForks())
            .put("windows", windows)
            .put("reconciled", s.reconciled())
            .put("discrepancies", new JsonArray(s.discrepancies()))
            .put(
                "redisBytesPerGrab",
                s.redisBytesPerGrab() == null ? null : round(s.redisBytesPerGrab()))
            .put("drain", s.drain() == null ? null : drain(s.drain()))
            .put("payoutDrainPerSec", s.drain() == null ? null : round(s.drain().perSec()))
            .put("backlogDrain", s.backlogDrain() == null ? null : drain(s.backlogDrain()))
            .put("openLoop", s.openLoop() == null ? null : window(s.openLoop()));
    if (s.ceiling() != null) {
      json.put(
              "ceiling",
              new JsonObject()
                  .put(
                      "perSec",
                      new JsonArray(
                          s.ceiling().perSec().stream().map(SummaryWriter::round).toList()))
                  .put(
                      "redisCpuMicrosPerCall",
                      new JsonArray(
                          s.ceiling().redisCpuMicrosPerCall().stream()
                              .map(SummaryWriter::round)
                              .toList())))
          .put("ceilingPerSec", round(s.ceiling().medianPerSec()))
          .put("ratioToCeiling", s.ratioToCeiling() == null ? null : round3(s.ratioToCeiling()));
    } else {
      json.put("ceiling", null).put("ceilingPerSec", null).put("ratioToCeiling", null);
    }
    return json;
  }

  private static JsonObject window(Window w) {
    return new JsonObject()
        .put("requests", w.requests())
        .put("grabbed", w.grabbed())
        .put("failed", w.failed())
        .put("outcomes", new JsonObject(new java.util.LinkedHashMap<>(w.outcomes())))
        .put("seconds", round3(w.seconds()))
        .put("ratePerSec", w.ratePerSec())
        .put("throughputPerSec", round(w.requestsPerSec()))
        .put("grabsPerSec", round(w.grabsPerSec()))
        .put("latencyMillis", latency(w.latency()))
        .put("cpuMicrosPerGrab", perParty(w.cpuMicrosPerGrab()))
        .put("cores", perParty(w.cores()))
        .put("switchesPerGrab", perParty(w.switchesPerGrab()))
        .put("redisForks", w.redisForks());
  }

  private static JsonObject drain(Drain d) {
    return new JsonObject()
        .put("grabs", d.grabs())
        .put("seconds", round3(d.seconds()))
        .put("perSec", round(d.perSec()))
        .put("resumeLagSeconds", round3(d.resumeLagSeconds()))
        .put("cpuMicrosPerGrab", perParty(d.cpuMicrosPerGrab()))
        .put("pipelineCpuMicrosPerGrab", round(d.pipelineMicrosPerGrab()));
  }

  private static JsonObject latency(Latency l) {
    return new JsonObject()
        .put("p50", round3(l.p50()))
        .put("p90", round3(l.p90()))
        .put("p99", round3(l.p99()))
        .put("p999", round3(l.p999()))
        .put("max", round3(l.max()));
  }

  private static JsonObject perParty(Map<Party, Double> values) {
    var json = new JsonObject();
    values.forEach((party, value) -> json.put(party.key(), round3(value)));
    return json;
  }

  static String markdown(Summary s) {
    Window m = s.median();
    var md = new StringBuilder();
    md.append("# bench: ").append(s.scenario()).append("\n\n");
    md.append("```\n").append(s.command()).append("\n```\n\n");
    md.append("| measure | value |\n| --- | --- |\n");
    row(md, "mode", "closed loop, concurrency " + s.concurrency() + ", payouts paused");
    row(md, "pinning (service:generator CPUs)", s.pinning() == null ? "none" : s.pinning());
    row(
        md,
        "warm-up windows (grabs/s)",
        s.warmupGrabsPerSec().stream().map(SummaryWriter::f).collect(Collectors.joining(", ")));
    row(md, "measured windows", Integer.toString(s.windows().size()));
    row(md, "requests", Long.toString(m.requests()));
    row(md, "grabbed", Long.toString(m.grabbed()));
    row(md, "failed", Long.toString(m.failed()));
    row(md, "outcomes", m.outcomes().toString());
    row(md, "throughput (req/s, median)", f(m.requestsPerSec()));
    row(
        md,
        "grabs/s (median; each window)",
        f(m.grabsPerSec())
            + "; "
            + s.windows().stream().map(w -> f(w.grabsPerSec())).collect(Collectors.joining(", ")));
    row(md, "latency ms p50 / p90 / p99 / p99.9 / max (median)", latencyText(m.latency()));
    row(md, "CPU µs per grab (median)", partiesText(m.cpuMicrosPerGrab()));
    row(md, "cores busy (median)", partiesText(m.cores()));
    row(md, "context switches per grab (median)", switchesText(m.switchesPerGrab()));
    row(md, "Redis forks (AOF rewrites, RDB saves) during the windows", count(m.redisForks()));
    row(md, "reconciled", s.reconciled() + (s.reconciled() ? "" : " " + s.discrepancies()));
    if (s.ceiling() != null) {
      row(
          md,
          "ceiling: bare grab.lua (grabs/s, median; each run)",
          f(s.ceiling().medianPerSec())
              + "; "
              + s.ceiling().perSec().stream()
                  .map(SummaryWriter::f)
                  .collect(Collectors.joining(", ")));
      row(
          md,
          "ceiling: Redis CPU µs per call",
          s.ceiling().redisCpuMicrosPerCall().stream()
              .map(SummaryWriter::f1)
              .collect(Collectors.joining(", ")));
      row(md, "ratio grabs/s to ceiling", String.format(Locale.ROOT, "%.3f", s.ratioToCeiling()));
    }
    if (s.drain() != null) {
      row(md, "payout drain of the windows' grabs", drainText(s.drain()));
    }
    if (s.backlogDrain() != null) {
      row(md, "payout drain of a large backlog", drainText(s.backlogDrain()));
    }
    if (s.openLoop() != null) {
      Window o = s.openLoop();
      row(
          md,
          "open loop: rate (req/s)",
          f(o.ratePerSec()) + " (achieved " + f(o.requestsPerSec()) + ")");
      row(
          md,
          "open loop: warm-up windows at that rate (grabs/s)",
          s.openLoopWarmupGrabsPerSec().isEmpty()
              ? "-"
              : s.openLoopWarmupGrabsPerSec().stream()
                  .map(SummaryWriter::f)
                  .collect(Collectors.joining(", ")));
      row(md, "open loop: latency ms p50 / p90 / p99 / p99.9 / max", latencyText(o.latency()));
      row(md, "open loop: CPU µs per grab", partiesText(o.cpuMicrosPerGrab()));
      row(md, "open loop: context switches per grab", switchesText(o.switchesPerGrab()));
      row(md, "open loop: Redis forks (AOF rewrites, RDB saves) during it", count(o.redisForks()));
    }
    row(md, "Redis bytes per grab", f(s.redisBytesPerGrab()));
    md.append("\n![latency](").append(PLOT).append(")\n");
    if (s.openLoop() != null) {
      md.append("\n![open loop](").append(OPEN_LOOP_PLOT).append(")\n");
    }
    return md.toString();
  }

  /** One line per measured window, printed as the run goes. */
  static String windowLine(String label, Window w) {
    return String.format(
            Locale.ROOT,
            "%s: %d requests, %.0f grabs/s, p99 %.2f ms, CPU µs/grab %s; switches/grab %s",
            label,
            w.requests(),
            w.grabsPerSec(),
            w.latency().p99(),
            partiesText(w.cpuMicrosPerGrab()),
            switchesText(w.switchesPerGrab()))
        + (w.redisForks() != null && w.redisForks() > 0
            ? "; Redis forked " + w.redisForks() + " children (AOF rewrites, RDB saves) during it"
            : "");
  }

  static String drainLine(Drain d) {
    return "payout drain: " + drainText(d);
  }

  private static String drainText(Drain d) {
    return String.format(
        Locale.ROOT,
        "%d grabs in %.2f s: %.0f grabs/s; CPU µs per paid grab %s, pipeline %.1f",
        d.grabs(),
        d.seconds(),
        d.perSec(),
        partiesText(d.cpuMicrosPerGrab()),
        d.pipelineMicrosPerGrab());
  }

  private static String latencyText(Latency l) {
    return String.format(
        Locale.ROOT,
        "%.2f / %.2f / %.2f / %.2f / %.2f",
        l.p50(),
        l.p90(),
        l.p99(),
        l.p999(),
        l.max());
  }

  private static String partiesText(Map<Party, Double> values) {
    return partiesText(values, SummaryWriter::f1);
  }

  private static String partiesText(
      Map<Party, Double> values, java.util.function.Function<Double, String> format) {
    return values.entrySet().stream()
        .map(e -> e.getKey().key() + " " + format.apply(e.getValue()))
        .collect(Collectors.joining(", "));
  }

  /** Fractions of a switch per grab: two decimals (a batched window is well under one). */
  private static String switchesText(Map<Party, Double> values) {
    return partiesText(values, v -> String.format(Locale.ROOT, "%.2f", v));
  }

  private static void row(StringBuilder md, String name, String value) {
    md.append("| ").append(name).append(" | ").append(value).append(" |\n");
  }

  private static String f(Double value) {
    return value == null ? "-" : String.format(Locale.ROOT, "%.0f", value);
  }

  private static String count(Long value) {
    return value == null ? "-" : value.toString();
  }

  private static String f1(Double value) {
    return value == null ? "-" : String.format(Locale.ROOT, "%.1f", value);
  }

  private static double round(double value) {
    return Math.round(value * 10) / 10.0;
  }

  private static double round3(double value) {
    return Math.round(value * 1000) / 1000.0;
  }
}
