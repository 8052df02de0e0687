package hongbao.app.bench;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Writes summary.json, summary.md and the latency picture of one run into its directory. */
final class SummaryWriter {

  static final String JSON = "summary.json";
  static final String MARKDOWN = "summary.md";
  static final String PLOT = "latency.svg";

  private SummaryWriter() {}

  static void write(Path dir, Summary s, String svg) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(JSON), json(s).encodePrettily() + "\n", StandardCharsets.UTF_8);
    Files.writeString(dir.resolve(MARKDOWN), markdown(s), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve(PLOT), svg, StandardCharsets.UTF_8);
  }

  static JsonObject json(Summary s) {
    var latency = s.latencyMillis();
    return new JsonObject()
        .put("scenario", s.scenario())
        .put("command", s.command())
        .put("mode", s.mode())
        .put("concurrency", s.concurrency())
        .put("ratePerSec", s.ratePerSec())
        .put("requests", s.requests())
        .put("grabbed", s.grabbed())
        .put("failed", s.failed())
        .put("outcomes", new JsonObject(new java.util.LinkedHashMap<>(s.outcomes())))
        .put("elapsedSeconds", round(s.elapsedSeconds()))
        .put("throughputPerSec", round(s.throughputPerSec()))
        .put("grabsPerSec", round(s.grabsPerSec()))
        .put(
            "latencyMillis",
            new JsonObject()
                .put("p50", latency.p50())
                .put("p90", latency.p90())
                .put("p99", latency.p99())
                .put("p999", latency.p999())
                .put("max", latency.max()))
        .put("reconciled", s.reconciled())
        .put("discrepancies", new JsonArray(s.discrepancies()))
        .put("ceilingPerSec", s.ceilingPerSec() == null ? null : round(s.ceilingPerSec()))
        .put("ratioToCeiling", s.ratioToCeiling() == null ? null : round3(s.ratioToCeiling()))
        .put(
            "payoutDrainPerSec",
            s.payoutDrainPerSec() == null ? null : round(s.payoutDrainPerSec()))
        .put("payoutDrainGrabs", s.payoutDrainGrabs())
        .put("payoutResumeLagSeconds", s.payoutResumeLagSeconds())
        .put(
            "redisBytesPerGrab",
            s.redisBytesPerGrab() == null ? null : round(s.redisBytesPerGrab()));
  }

  static String markdown(Summary s) {
    var l = s.latencyMillis();
    var md = new StringBuilder();
    md.append("# bench: ").append(s.scenario()).append("\n\n");
    md.append("```\n").append(s.command()).append("\n```\n\n");
    md.append("| measure | value |\n| --- | --- |\n");
    row(md, "mode", s.mode() + ", concurrency " + s.concurrency());
    row(md, "requests", Long.toString(s.requests()));
    row(md, "grabbed", Long.toString(s.grabbed()));
    row(md, "failed", Long.toString(s.failed()));
    row(md, "outcomes", s.outcomes().toString());
    row(md, "throughput (req/s)", f(s.throughputPerSec()));
    row(md, "grabs/s", f(s.grabsPerSec()));
    row(
        md,
        "latency ms p50 / p90 / p99 / p99.9 / max",
        String.format(
            Locale.ROOT,
            "%.2f / %.2f / %.2f / %.2f / %.2f",
            l.p50(),
            l.p90(),
            l.p99(),
            l.p999(),
            l.max()));
    row(md, "reconciled", s.reconciled() + (s.reconciled() ? "" : " " + s.discrepancies()));
    row(md, "ceiling (bare grab.lua, grabs/s)", f(s.ceilingPerSec()));
    row(
        md,
        "ratio to ceiling",
        s.ratioToCeiling() == null ? "-" : String.format(Locale.ROOT, "%.3f", s.ratioToCeiling()));
    row(md, "payout drain (grabs/s)", f(s.payoutDrainPerSec()));
    row(md, "Redis bytes per grab", f(s.redisBytesPerGrab()));
    md.append("\n![latency](").append(PLOT).append(")\n");
    return md.toString();
  }

  private static void row(StringBuilder md, String name, String value) {
    md.append("| ").append(name).append(" | ").append(value).append(" |\n");
  }

  private static String f(Double value) {
    return value == null ? "-" : String.format(Locale.ROOT, "%.0f", value);
  }

  private static double round(double value) {
    return Math.round(value * 10) / 10.0;
  }

  private static double round3(double value) {
    return Math.round(value * 1000) / 1000.0;
  }
}
