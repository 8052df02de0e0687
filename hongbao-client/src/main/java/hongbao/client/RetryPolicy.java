package hongbao.client;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * How often and how patiently a call is tried again: at most {@code maxAttempts} attempts, the n-th
 * retry waiting a random time up to {@code base * 2^(n-1)}, never more than {@code max} ("full
 * jitter": many clients that failed together do not come back together).
 */
public record RetryPolicy(int maxAttempts, Duration base, Duration max) {

  /** Four attempts within about a second and a half. */
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(4, Duration.ofMillis(100), Duration.ofSeconds(1));

  /** One attempt: failures reach the caller at once. */
  public static final RetryPolicy NONE = new RetryPolicy(1, Duration.ZERO, Duration.ZERO);

  public RetryPolicy {
    if (maxAttempts < 1 || maxAttempts > 20) {
      throw new IllegalArgumentException("maxAttempts must be from 1 to 20");
    }
    if (base.isNegative() || max.isNegative() || base.compareTo(max) > 0) {
      throw new IllegalArgumentException("need 0 <= base <= max");
    }
  }

  /** The wait before retry number {@code retry} (1 for the first retry). */
  public Duration delay(int retry, RandomGenerator random) {
    long ceiling = base.toMillis() << Math.min(retry - 1, 20);
    long bound = Math.min(max.toMillis(), ceiling);
    return Duration.ofMillis(bound <= 0 ? 0 : random.nextLong(bound + 1));
  }
}
