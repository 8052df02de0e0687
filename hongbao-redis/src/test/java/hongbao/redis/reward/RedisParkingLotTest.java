package hongbao.redis.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.redis.RedisLink;
import hongbao.redis.TestRedis;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The unparking lease: one owner at a time per type, renewed by its owner, lapsing if it stops. */
class RedisParkingLotTest {

  private final String prefix = "t" + System.nanoTime();
  private final RedisLink redis = TestRedis.link();
  private final RedisParkingLot lot = new RedisParkingLot(redis, new RewardKeys(prefix));

  @AfterEach
  void clean() {
    TestRedis.deleteMatching(redis, prefix + ":*");
  }

  @Test
  void theLease_isHeldByOneOwner_renewedByIt_andTakenByAnotherOnceItLapses() {
    Duration lease = Duration.ofMillis(300);
    assertThat(lot.leaseUnparking("TEA", "instance-1", lease)).isTrue();
    assertThat(lot.leaseUnparking("TEA", "instance-2", lease)).as("held by another").isFalse();
    assertThat(lot.leaseUnparking("COFFEE", "instance-2", lease)).as("per type").isTrue();
    assertThat(lot.leaseUnparking("TEA", "instance-1", Duration.ofSeconds(30))).isTrue();
    assertThat(redis.sync().pttl(new RewardKeys(prefix).unparking("TEA")))
        .as("renewed for the whole lease")
        .isGreaterThan(10_000L);

    // instance-1 stops renewing: its lease runs out.
    redis.sync().pexpire(new RewardKeys(prefix).unparking("TEA"), 1);
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> lot.leaseUnparking("TEA", "instance-2", lease));
    assertThat(lot.leaseUnparking("TEA", "instance-1", lease)).isFalse();
  }
}
