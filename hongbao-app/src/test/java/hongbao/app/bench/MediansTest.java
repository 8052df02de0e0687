package hongbao.app.bench;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.bench.CpuMeter.Party;
import hongbao.app.bench.Summary.Latency;
import hongbao.app.bench.Summary.Window;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MediansTest {

  @Test
  void redisForks_areSummed_andUnknownWhenAnyWindowCouldNotReadThem() {
    assertThat(Medians.of(List.of(window(100, 0L), window(200, 2L), window(300, 1L))).redisForks())
        .isEqualTo(3L);
    assertThat(Medians.of(List.of(window(100, 0L), window(200, null))).redisForks()).isNull();
  }

  @Test
  void rates_areTheWindowsMedian_countsTheirSum() {
    Window median = Medians.of(List.of(window(100, 0L), window(300, 0L), window(200, 0L)));

    assertThat(median.grabsPerSec()).isEqualTo(200);
    assertThat(median.grabbed()).isEqualTo(600);
    assertThat(median.cpuMicrosPerGrab()).containsEntry(Party.SERVICE, 20.0);
  }

  @Test
  void aWindowsLine_namesTheForksOnlyWhenThereWereAny() {
    assertThat(SummaryWriter.windowLine("run 1", window(100, 2L)))
        .endsWith("; Redis forked 2 children (AOF rewrites, RDB saves) during it");
    assertThat(SummaryWriter.windowLine("run 1", window(100, 0L))).doesNotContain("forked");
    assertThat(SummaryWriter.windowLine("run 1", window(100, null))).doesNotContain("forked");
  }

  /** A window of {@code grabs} grabs in one second, the service at grabs / 10 µs per grab. */
  private static Window window(long grabs, Long forks) {
    return new Window(
        grabs,
        grabs,
        0,
        Map.of("GRABBED", grabs),
        1,
        grabs,
        grabs,
        null,
        new Latency(1, 2, 3, 4, 5),
        Map.of(Party.SERVICE, grabs / 10.0),
        Map.of(Party.SERVICE, 0.5),
        Map.of(Party.SERVICE, 0.1),
        forks);
  }
}
