package hongbao.redis.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardType;
import hongbao.core.reward.VirtualQueue;
import hongbao.redis.RedisLink;
import hongbao.redis.TestRedis;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RedisTypeThrottleTest {

  /** The Redis under test: one server here, a cluster in the subclass. */
  RedisLink redis() {
    return TestRedis.link();
  }

  /** A clock the test moves by hand. */
  private static final class ManualClock extends Clock {
    final AtomicLong millis = new AtomicLong(1_790_000_000_000L);

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis.get());
    }
  }

  @Test
  void acquire_givesTheBurst_thenRatePerSecond_sharedByEveryInstance() {
    var clock = new ManualClock();
    var keys = new RewardKeys("t" + System.nanoTime());
    var one = new RedisTypeThrottle(redis(), keys, clock);
    var two = new RedisTypeThrottle(redis(), keys, clock);
    var type = new RewardType("TEA", RewardKind.COUPON, 100, 10, false, VirtualQueue.SPECIAL, null);

    int granted = 0;
    for (int i = 0; i < 50; i++) {
      if ((i % 2 == 0 ? one : two).acquire(type, 1) == 0) {
        granted++;
      }
    }
    assertThat(granted).as("a full bucket, then nothing without time").isEqualTo(10);
    assertThat(one.acquire(type, 1)).isBetween(1L, 10L);

    int perSecond = 0;
    for (int ms = 0; ms < 1_000; ms++) {
      clock.millis.incrementAndGet();
      while ((ms % 2 == 0 ? one : two).acquire(type, 1) == 0) {
        perSecond++;
      }
    }
    assertThat(perSecond).isEqualTo(100);
  }
}
