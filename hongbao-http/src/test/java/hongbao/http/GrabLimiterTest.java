package hongbao.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The per-user grab limit is a greedily refilled bucket, on a clock the test advances. */
class GrabLimiterTest {

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final GrabLimiter limiter = new GrabLimiter(10, nanos::get);

  @Test
  void tryGrab_allowsAFullBucketAtOnce_thenRefuses() {
    for (int i = 0; i < 10; i++) {
      assertThat(limiter.tryGrab("alice")).as("grab %s", i + 1).isTrue();
    }
    assertThat(limiter.tryGrab("alice")).isFalse();
    assertThat(limiter.tryGrab("bob")).as("another user's bucket").isTrue();
  }

  @Test
  void tryGrab_refillsOneTokenPerInterval_andNeverBeyondTheBucket() {
    for (int i = 0; i < 10; i++) {
      limiter.tryGrab("alice");
    }
    nanos.addAndGet(99_000_000L);
    assertThat(limiter.tryGrab("alice")).as("before a tenth of a second").isFalse();
    nanos.addAndGet(1_000_000L);
    assertThat(limiter.tryGrab("alice")).as("one token back").isTrue();
    assertThat(limiter.tryGrab("alice")).isFalse();

    nanos.addAndGet(60_000_000_000L);
    int allowed = 0;
    for (int i = 0; i < 20; i++) {
      allowed += limiter.tryGrab("alice") ? 1 : 0;
    }
    assertThat(allowed).as("a minute idle refills one bucket, no more").isEqualTo(10);
  }

  @Test
  void tryGrab_atAFixedRate_isNeverRefused() {
    for (int i = 0; i < 1_000; i++) {
      assertThat(limiter.tryGrab("alice")).as("grab %s", i + 1).isTrue();
      nanos.addAndGet(100_000_000L);
    }
  }

  @Test
  void rateBelowTheContractsFloor_isRejected() {
    assertThatThrownBy(() -> new GrabLimiter(9)).isInstanceOf(IllegalArgumentException.class);
  }
}
