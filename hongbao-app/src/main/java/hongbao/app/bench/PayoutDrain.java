package hongbao.app.bench;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Measures how fast the payout workers drain a backlog: with payouts paused, load grabs; resume;
 * time from the last poll before the first payout until the backlog (the length of every payout
 * stream: read from Redis when the bench has it, else the {@code hongbao_payout_backlog} gauge of
 * {@code /metrics}) is empty. The switch's own propagation delay is left out of the rate and
 * reported separately.
 */
final class PayoutDrain {

  private static final Pattern BACKLOG =
      Pattern.compile("(?m)^hongbao_payout_backlog(?:\\{[^}]*})? ([0-9.eE+]+)");

  /** Bounded patience for a drain. */
  private static final Duration MAX_WAIT = Duration.ofMinutes(5);

  /**
   * A poll of {@code /metrics} renders every meter and asks every payout stream its length: polling
   * faster would itself cost the service and Redis a measurable share of the drain.
   */
  private static final long POLL_MILLIS = 50;

  private PayoutDrain() {}

  /** Rate, backlog at resume and times of one drain. */
  record Result(long backlog, double drainSeconds, double resumeLagSeconds) {
    double perSecond() {
      return drainSeconds <= 0 ? 0 : backlog / drainSeconds;
    }
  }

  static long backlog(BenchClient client) {
    Matcher m = BACKLOG.matcher(client.getText("/metrics"));
    if (!m.find()) {
      throw new IllegalStateException("no hongbao_payout_backlog in /metrics");
    }
    return (long) Double.parseDouble(m.group(1));
  }

  /**
   * Waits until the backlog is empty. The drain is timed from the last poll that still saw the
   * whole backlog (the first payout happened after it), so the rate is never overstated, however
   * quick the drain is compared with the polling interval.
   */
  static Result awaitEmpty(LongSupplier backlog, long resumedNanos) throws InterruptedException {
    long deadline = System.nanoTime() + MAX_WAIT.toNanos();
    long initial = backlog.getAsLong();
    long lastUntouched = resumedNanos;
    long current = initial;
    while (current > 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("payout backlog still " + current + " after " + MAX_WAIT);
      }
      long polled = System.nanoTime();
      Thread.sleep(POLL_MILLIS);
      current = backlog.getAsLong();
      if (current >= initial) {
        lastUntouched = polled;
      }
    }
    long end = System.nanoTime();
    return new Result(initial, (end - lastUntouched) / 1e9, (lastUntouched - resumedNanos) / 1e9);
  }
}
