package hongbao.app.bench;

import java.util.List;
import java.util.Map;

/**
 * What one run measured. Nullable numbers were not measured in this run (no ceiling without {@code
 * --with-ceiling}, for instance).
 */
record Summary(
    String scenario,
    String command,
    String mode,
    int concurrency,
    Double ratePerSec,
    long requests,
    long grabbed,
    long failed,
    Map<String, Long> outcomes,
    double elapsedSeconds,
    double throughputPerSec,
    double grabsPerSec,
    Latency latencyMillis,
    boolean reconciled,
    List<String> discrepancies,
    Double ceilingPerSec,
    Double ratioToCeiling,
    Double payoutDrainPerSec,
    Long payoutDrainGrabs,
    Double payoutResumeLagSeconds,
    Double redisBytesPerGrab) {

  /** Latency percentiles in milliseconds. */
  record Latency(double p50, double p90, double p99, double p999, double max) {}
}
