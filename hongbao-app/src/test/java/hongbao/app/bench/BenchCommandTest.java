package hongbao.app.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
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
                "2000",
                "--concurrency",
                "32",
                "--drain-grabs",
                "500",
                "--out",
                out.toString());

    assertThat(exit).isZero();
    var summary = new JsonObject(Files.readString(out.resolve(SummaryWriter.JSON)));
    assertThat(summary.getString("scenario")).isEqualTo("hot");
    assertThat(summary.getBoolean("reconciled")).isTrue();
    assertThat(summary.getLong("grabbed")).isEqualTo(2000L);
    assertThat(summary.getLong("requests")).isEqualTo(2200L);
    assertThat(summary.getDouble("throughputPerSec")).isPositive();
    var latency = summary.getJsonObject("latencyMillis");
    for (String p : new String[] {"p50", "p90", "p99", "p999", "max"}) {
      assertThat(latency.getDouble(p)).as(p).isPositive();
    }
    assertThat(summary.getDouble("payoutDrainPerSec")).isPositive();
    assertThat(summary.getDouble("redisBytesPerGrab")).isNotNull();
    assertThat(summary.containsKey("ceilingPerSec")).isTrue();
    assertThat(summary.containsKey("ratioToCeiling")).isTrue();
    assertThat(Files.readString(out.resolve(SummaryWriter.PLOT))).startsWith("<svg");
    assertThat(Files.readString(out.resolve(SummaryWriter.MARKDOWN)))
        .contains("| grabbed | 2000 |");
  }
}
