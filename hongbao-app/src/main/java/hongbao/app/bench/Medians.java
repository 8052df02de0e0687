package hongbao.app.bench;

import hongbao.app.bench.CpuMeter.Party;
import hongbao.app.bench.Summary.Latency;
import hongbao.app.bench.Summary.Window;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/** Medians of several windows, field by field: one slow window does not move the result. */
final class Medians {

  private Medians() {}

  static double median(List<Double> values) {
    if (values.isEmpty()) {
      return 0;
    }
    var sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /**
   * Counts (Redis's forks among them) are summed; rates, latencies and CPU per grab are the medians
   * of the windows'.
   */
  static Window of(List<Window> windows) {
    var outcomes = new TreeMap<String, Long>();
    windows.forEach(w -> w.outcomes().forEach((name, n) -> outcomes.merge(name, n, Long::sum)));
    return new Window(
        windows.stream().mapToLong(Window::requests).sum(),
        windows.stream().mapToLong(Window::grabbed).sum(),
        windows.stream().mapToLong(Window::failed).sum(),
        outcomes,
        windows.stream().mapToDouble(Window::seconds).sum(),
        of(windows, Window::requestsPerSec),
        of(windows, Window::grabsPerSec),
        null,
        new Latency(
            of(windows, w -> w.latency().p50()),
            of(windows, w -> w.latency().p90()),
            of(windows, w -> w.latency().p99()),
            of(windows, w -> w.latency().p999()),
            of(windows, w -> w.latency().max())),
        perParty(windows.stream().map(Window::cpuMicrosPerGrab).toList()),
        perParty(windows.stream().map(Window::cores).toList()),
        perParty(windows.stream().map(Window::switchesPerGrab).toList()),
        windows.stream().anyMatch(w -> w.redisForks() == null)
            ? null
            : windows.stream().mapToLong(Window::redisForks).sum());
  }

  private static double of(List<Window> windows, ToDoubleFunction<Window> field) {
    return median(windows.stream().map(w -> field.applyAsDouble(w)).toList());
  }

  private static Map<Party, Double> perParty(List<Map<Party, Double>> values) {
    var medians = new EnumMap<Party, Double>(Party.class);
    for (Party party : Party.values()) {
      List<Double> measured =
          values.stream().map(v -> v.get(party)).filter(Objects::nonNull).toList();
      if (!measured.isEmpty()) {
        medians.put(party, median(measured));
      }
    }
    return medians;
  }
}
