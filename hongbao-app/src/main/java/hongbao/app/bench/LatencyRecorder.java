package hongbao.app.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Latencies in microseconds (HdrHistogram, 3 significant digits) and completions per second of the
 * run, for the percentile curve and the rate-over-time picture. Thread-safe: answers complete on
 * several event loops.
 */
final class LatencyRecorder {

  /** Put a limit on everything: a run longer than this keeps counting in the last bucket. */
  static final int MAX_SECONDS = 3_600;

  private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(2);

  private final ConcurrentHistogram histogram = new ConcurrentHistogram(HIGHEST_MICROS, 3);
  private final AtomicLongArray perSecond = new AtomicLongArray(MAX_SECONDS);
  private volatile long startNanos;

  void start(long nanos) {
    startNanos = nanos;
  }

  long startNanos() {
    return startNanos;
  }

  void record(long latencyNanos, long completedAtNanos) {
    long micros = Math.max(1, Math.min(HIGHEST_MICROS, latencyNanos / 1_000));
    histogram.recordValue(micros);
    int second = (int) Math.min(MAX_SECONDS - 1, (completedAtNanos - startNanos) / 1_000_000_000L);
    perSecond.incrementAndGet(Math.max(0, second));
  }

  Histogram histogram() {
    return histogram.copy();
  }

  long count() {
    return histogram.getTotalCount();
  }

  double percentileMillis(double percentile) {
    return histogram.getValueAtPercentile(percentile) / 1_000.0;
  }

  double maxMillis() {
    return histogram.getMaxValue() / 1_000.0;
  }

  Summary.Latency latency() {
    return new Summary.Latency(
        percentileMillis(50),
        percentileMillis(90),
        percentileMillis(99),
        percentileMillis(99.9),
        maxMillis());
  }

  /** Completions in each whole second of the run, up to the last second that saw one. */
  long[] perSecond(double runSeconds) {
    int seconds = (int) Math.min(MAX_SECONDS, Math.max(1, Math.ceil(runSeconds)));
    long[] counts = new long[seconds];
    for (int i = 0; i < seconds; i++) {
      counts[i] = perSecond.get(i);
    }
    return counts;
  }
}
