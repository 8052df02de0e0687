package hongbao.redis.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.Unavailable;
import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.PrizeLine;
import hongbao.core.campaign.Round;
import hongbao.core.money.Amount;
import hongbao.redis.RedisLink;
import hongbao.redis.TestRedis;
import io.lettuce.core.RedisCommandExecutionException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pools' reads that send several commands before awaiting them sort their failures as every
 * other Redis read does: an error reply that is no outage is a bug, surfaced as it came, not an
 * {@link Unavailable} that the loops wait out and the taps answer with a 503 forever.
 */
class RedisPrizePoolsFaultTest {

  private static final Instant T0 = Instant.parse("2027-02-16T12:00:00Z");

  private final String prefix = "pf" + System.nanoTime();
  private final RedisLink redis = TestRedis.link();
  private final RedisPrizePools pools = new RedisPrizePools(redis, prefix);

  private static Campaign campaign() {
    var round = new Round(1, T0, Duration.ofSeconds(60), List.of(new PrizeLine("CASH", 1, 10)), 2);
    return new Campaign("c_f", "rain", Amount.fen(1_000), List.of(round), 1, 5, T0, 1);
  }

  @Test
  void aSlotMarkerOfTheWrongType_isABug_notAnOutage() {
    Campaign campaign = campaign();
    assertThat(pools.open(campaign)).as("nothing armed yet").isFalse();
    redis.sync().hset(new RainKeys(prefix).armed(campaign, 1), "not", "a string");

    assertThatThrownBy(() -> pools.open(campaign))
        .isInstanceOf(RedisCommandExecutionException.class)
        .isNotInstanceOf(Unavailable.class)
        .hasMessageContaining("WRONGTYPE");
  }
}
