package hongbao.app.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The bench end to end on an embedded service; speed is never asserted, only correctness. */
class BenchCommandTest {

  @Test
  void hot_embedded_reconcilesAndReportsEveryNumber(@TempDir Path out) throws Exception {
    int exit =
        new CommandLine(new BenchCommand())
            .execute(
                "--embedded",
                "--scenario",
                "hot",
                "--shares",
                "1000",
                "--runs",
                "2",
                "--warmup-shares",
                "300",
                "--warmup-max-seconds",
                "5",
                "--concurrency",
                "32",
                "--open-loop-fraction",
                "0.5",
                "--open-loop-shares",
                "600",
                "--out",
                out.toString());

    assertThat(exit).isZero();
    var summary = new JsonObject(Files.readString(out.resolve(SummaryWriter.JSON)));
    assertThat(summary.getString("scenario")).isEqualTo("hot");
    assertThat(summary.getBoolean("reconciled")).isTrue();
    assertThat(summary.getInteger("runs")).isEqualTo(2);
    assertThat(summary.getLong("grabbed")).isEqualTo(2000L);
    assertThat(summary.getLong("requests")).isEqualTo(2200L);
    assertThat(summary.getJsonArray("warmupGrabsPerSec")).isNotEmpty();
    // The open loop's own warm-up, at its rate, ran before its window.
    assertThat(summary.getJsonArray("openLoopWarmupGrabsPerSec")).isNotEmpty();
    assertThat(summary.getDouble("throughputPerSec")).isPositive();
    var latency = summary.getJsonObject("latencyMillis");
    for (String p : new String[] {"p50", "p90", "p99", "p999", "max"}) {
      assertThat(latency.getDouble(p)).as(p).isPositive();
    }
    // The service ran in a process of its own, so its CPU time is measured apart from ours.
    assertThat(summary.getJsonObject("cpuMicrosPerGrab").fieldNames())
        .contains("service", "redis", "postgres", "generator");
    // Counted over every live thread: a service that answered 2,000 grabs has waited for some.
    JsonObject switches = summary.getJsonObject("switchesPerGrab");
    assertThat(switches.fieldNames()).contains("service", "redis", "generator");
    assertThat(switches.getDouble("service")).isPositive();
    assertThat(summary.getJsonObject("openLoop").getJsonObject("switchesPerGrab").fieldNames())
        .contains("service", "redis");
    assertThat(summary.getJsonObject("drain").getLong("grabs")).isEqualTo(2000L);
    assertThat(summary.getDouble("payoutDrainPerSec")).isPositive();
    // A packet of its own size, with a tenth more requests (the losers) like every hot window.
    assertThat(summary.getJsonObject("openLoop").getLong("requests")).isEqualTo(660L);
    // The embedded Redis says how many children it forked: none or more, never unknown.
    assertThat(summary.getJsonObject("openLoop").getLong("redisForks")).isNotNull().isNotNegative();
    assertThat(summary.getLong("redisForks")).isNotNull().isNotNegative();
    assertThat(summary.getDouble("redisBytesPerGrab")).isNotNull();
    assertThat(summary.containsKey("ceilingPerSec")).isTrue();
    assertThat(summary.containsKey("ratioToCeiling")).isTrue();
    assertThat(Files.readString(out.resolve(SummaryWriter.PLOT))).startsWith("<svg");
    assertThat(Files.readString(out.resolve(SummaryWriter.OPEN_LOOP_PLOT))).startsWith("<svg");
    assertThat(Files.readString(out.resolve(SummaryWriter.MARKDOWN)))
        .contains("| grabbed | 2000 |");
  }

  @Test
  void rain_embedded_issuesNoMoreThanHeld_spendsWithinBudget_reconciles(@TempDir Path out)
      throws Exception {
    int exit =
        new CommandLine(new BenchCommand())
            .execute(
                "--embedded",
                "--scenario",
                "rain",
                "--users",
                "3000",
                "--round-seconds",
                "4",
                "--taps",
                "2000",
                "--prizes",
                "200",
                "--warmup-taps",
                "100",
                "--warmup-round-seconds",
                "6",
                "--concurrency",
                "32",
                "--out",
                out.toString());

    // The service's log goes with the temporary folder: a failed run keeps what it warned of.
    assertThat(exit).as(() -> warningsOf(out.resolve("service.log"))).isZero();
    var summary = new JsonObject(Files.readString(out.resolve(RainRun.JSON)));
    assertThat(summary.getString("scenario")).isEqualTo("rain");
    // The warm-up's campaign: at least one window, its round over before the measured one.
    assertThat(summary.getJsonArray("warmUpWindows")).isNotEmpty();
    assertThat(summary.getJsonArray("warmUpWindows").getJsonObject(0).getDouble("tapsPerSec"))
        .isPositive();
    assertThat(summary.getInteger("taps")).isEqualTo(2000);
    assertThat(summary.getInteger("distinctUsers")).isBetween(1, 2000);
    var outcomes = summary.getJsonObject("outcomes");
    long answered = 0;
    for (String name : outcomes.fieldNames()) {
      answered += outcomes.getLong(name);
    }
    // Every tap was answered, none failed.
    assertThat(answered).isEqualTo(2000L);
    assertThat(outcomes.containsKey("FAILED")).isFalse();
    long won = outcomes.getLong("WON", 0L);
    assertThat(won).isPositive().isEqualTo(summary.getLong("prizesIssued"));
    assertThat(won).isLessThanOrEqualTo(summary.getLong("prizesHeld"));
    assertThat(summary.getLong("prizesHeld") - summary.getLong("prizesLeft")).isEqualTo(won);
    long budget = summary.getLong("budget");
    long spent = summary.getLong("spent");
    assertThat(spent).isPositive().isLessThanOrEqualTo(budget);
    assertThat(spent + summary.getLong("returned")).isEqualTo(budget);
    assertThat(summary.getBoolean("reconciled")).isTrue();
    assertThat(summary.getJsonArray("discrepancies")).isEmpty();
    assertThat(summary.getDouble("tapsPerSec")).isPositive();
    assertThat(summary.getDouble("creditCatchUpSeconds")).isNotNegative();
    assertThat(summary.getJsonObject("latencyMillis").getDouble("p99")).isPositive();
    assertThat(summary.getJsonObject("cpuMicrosPerTap").fieldNames())
        .contains("service", "redis", "postgres", "generator");
    assertThat(Files.readString(out.resolve(RainRun.MARKDOWN)))
        .contains("| prizes issued / held / left | " + won + " / ");
  }

  /** The service log's warnings and errors, at most 40 of them, for a failure's message. */
  private static String warningsOf(Path log) {
    try (var lines = Files.lines(log)) {
      return "the service warned: "
          + String.join(
              "\n",
              lines.filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")).limit(40).toList());
    } catch (IOException | UncheckedIOException e) {
      return "no service log: " + e;
    }
  }
}
