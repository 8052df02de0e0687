package hongbao.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Backoff waits stay within their doubling ceiling and the cap, and are spread, not fixed. */
class RetryPolicyTest {

  private final RetryPolicy policy =
      new RetryPolicy(8, Duration.ofMillis(100), Duration.ofMillis(1000));

  @Test
  void delay_staysUnderTheDoublingCeiling_andTheCap() {
    var random = new SplittableRandom(7);
    for (int retry = 1; retry <= 7; retry++) {
      long ceiling = Math.min(1000, 100L << (retry - 1));
      for (int i = 0; i < 1000; i++) {
        assertThat(policy.delay(retry, random).toMillis()).isBetween(0L, ceiling);
      }
    }
  }

  @Test
  void delay_isJittered() {
    var random = new SplittableRandom(7);
    var seen = new java.util.HashSet<Long>();
    for (int i = 0; i < 100; i++) {
      seen.add(policy.delay(3, random).toMillis());
    }
    assertThat(seen).hasSizeGreaterThan(50);
  }

  @Test
  void attempts_areBounded() {
    assertThatThrownBy(() -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RetryPolicy(21, Duration.ZERO, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
