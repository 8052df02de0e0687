package hongbao.core.withdrawal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BackoffTest {

  private final Backoff backoff = new Backoff(Withdrawals.TIMINGS, new SplittableRandom(7));

  @Test
  void waits_doubleFromTheBase_withinTheUpperHalf_upToTheMaximum() {
    for (int checks = 0; checks < 40; checks++) {
      long ceiling = Math.min(60_000, 1_000L << Math.min(checks, 20));
      for (int draw = 0; draw < 50; draw++) {
        long wait = backoff.after(checks).toMillis();
        assertThat(wait).as("after %d checks", checks).isBetween(ceiling / 2, ceiling);
      }
    }
  }

  @Test
  void waits_areJittered() {
    var seen = new HashSet<Duration>();
    for (int i = 0; i < 20; i++) {
      seen.add(backoff.after(5));
    }
    assertThat(seen).hasSizeGreaterThan(10);
  }
}
