package hongbao.app.bench;

import hongbao.app.bench.CpuMeter.Party;
import java.util.List;
import java.util.Map;

/**
 * What one bench run measured. Nullable parts were not measured in this run (no ceiling without
 * {@code --with-ceiling}, for instance).
 *
 * @param openLoopWarmupGrabsPerSec the warm-up at the open loop's rate before its window
 * @param windows the measured closed-loop windows, payouts paused
 * @param median the field-by-field median of {@code windows}
 * @param drain the payout of what the windows grabbed, timed, with its CPU cost
 * @param backlogDrain the payout of a large backlog ({@code --drain-backlog}), or null
 * @param openLoop the open-loop window, or null
 */
record Summary(
    String scenario,
    String command,
    int concurrency,
    String pinning,
    List<Double> warmupGrabsPerSec,
    List<Double> openLoopWarmupGrabsPerSec,
    List<Window> windows,
    Window median,
    CeilingResult ceiling,
    Drain drain,
    Drain backlogDrain,
    Window openLoop,
    Double redisBytesPerGrab,
    boolean reconciled,
    List<String> discrepancies) {

  Double ratioToCeiling() {
    return ceiling == null || ceiling.medianPerSec() <= 0
        ? null
        : median.grabsPerSec() / ceiling.medianPerSec();
  }

  /** Latency percentiles in milliseconds. */
  record Latency(double p50, double p90, double p99, double p999, double max) {}

  /**
   * One measured stretch of load.
   *
   * @param requestsPerSec answers per second (for a median window: the median of the windows')
   * @param ratePerSec the open-loop rate, or null for a closed loop
   * @param cpuMicrosPerGrab CPU microseconds per GRABBED answer, per party
   * @param cores the share of one core each party kept busy
   * @param switchesPerGrab context switches per GRABBED answer, per party (its live threads)
   * @param redisForks the children Redis forked during the window (AOF rewrites, RDB saves: each
   *     takes CPU from the core Redis shares with the service), or null when the bench cannot read
   *     them
   */
  record Window(
      long requests,
      long grabbed,
      long failed,
      Map<String, Long> outcomes,
      double seconds,
      double requestsPerSec,
      double grabsPerSec,
      Double ratePerSec,
      Latency latency,
      Map<Party, Double> cpuMicrosPerGrab,
      Map<Party, Double> cores,
      Map<Party, Double> switchesPerGrab,
      Long redisForks) {}

  /**
   * The bare grab script under redis-benchmark, several runs.
   *
   * @param redisCpuMicrosPerCall Redis's CPU per EVALSHA in each run (empty if not measured)
   */
  record CeilingResult(
      List<Double> perSec, double medianPerSec, List<Double> redisCpuMicrosPerCall) {}

  /**
   * A timed payout drain.
   *
   * @param cpuMicrosPerGrab CPU microseconds per paid grab, per party, from resume to empty
   */
  record Drain(
      long grabs, double seconds, double resumeLagSeconds, Map<Party, Double> cpuMicrosPerGrab) {

    double perSec() {
      return seconds <= 0 ? 0 : grabs / seconds;
    }

    /** Service + Redis + PostgreSQL: what a paid grab costs the whole pipeline. */
    double pipelineMicrosPerGrab() {
      return cpuMicrosPerGrab.entrySet().stream()
          .filter(e -> e.getKey() != Party.GENERATOR && !e.getKey().partOfAnother())
          .mapToDouble(Map.Entry::getValue)
          .sum();
    }
  }
}
