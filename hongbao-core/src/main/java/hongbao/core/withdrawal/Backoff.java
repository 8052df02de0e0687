package hongbao.core.withdrawal;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Bounded, jittered exponential backoff between checks of an unsettled withdrawal: the ceiling
 * doubles with every check up to the maximum, and the wait is drawn from the upper half of it, so
 * withdrawals that failed together (a gateway outage) are not asked about again in lockstep.
 */
public final class Backoff {

  private final Duration base;
  private final Duration max;
  private final RandomGenerator random;

  public Backoff(WithdrawalTimings timings, RandomGenerator random) {
    this.base = timings.backoffBase();
    this.max = timings.backoffMax();
    this.random = random;
  }

  /** The wait after the {@code checks}-th check (0 for the first). */
  public Duration after(int checks) {
    long baseMillis = base.toMillis();
    // 2^20 times any sane base is far beyond any sane max; the cap keeps the shift from
    // overflowing.
    int doublings = Math.min(Math.max(checks, 0), 20);
    long ceilingMillis = Math.min(max.toMillis(), baseMillis << doublings);
    long floorMillis = Math.max(1, ceilingMillis / 2);
    return Duration.ofMillis(draw(floorMillis, ceilingMillis + 1));
  }

  /** Seeded generators are not thread-safe; request threads and janitors share this one. */
  private synchronized long draw(long from, long until) {
    return random.nextLong(from, until);
  }
}
