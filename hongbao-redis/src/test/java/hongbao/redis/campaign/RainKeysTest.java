package hongbao.redis.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.PrizeLine;
import hongbao.core.campaign.Round;
import hongbao.core.money.Amount;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rain's key names are what a running Redis holds: an upgrade must find them unchanged. */
class RainKeysTest {

  private static final Instant T0 = Instant.parse("2027-02-16T12:00:00Z");
  private final RainKeys keys = new RainKeys("hb");

  private static Campaign campaign(int version) {
    var round = new Round(1, T0, Duration.ofSeconds(60), List.of(new PrizeLine("CASH", 1, 10)), 4);
    return new Campaign("c_7", "rain", Amount.fen(1_000), List.of(round), 1, 5, T0, version);
  }

  @Test
  void theFirstVersion_keepsTheOriginalTag() {
    Campaign first = campaign(1);

    assertThat(keys.pool(first, 12, 3)).isEqualTo("hb:cp:{cp:c_7:12}:r3");
    assertThat(keys.armed(first, 0)).isEqualTo("hb:cp:{cp:c_7:0}:armed");
    assertThat(keys.tapLog(first, 5, "alice")).isEqualTo("hb:cp:{cp:c_7:5}:tl:alice");
    assertThat(keys.liveIn(first, 5, 2, 1_790_000_000L))
        .isEqualTo("hb:cp:{cp:c_7:5}:live:2:1790000000");
  }

  @Test
  void anEditedVersion_hasATagOfItsOwn() {
    Campaign edited = campaign(3);

    assertThat(keys.wins(edited, 12)).isEqualTo("hb:cp:{cp:c_7:12:v3}:wins");
    assertThat(keys.seq(edited, 0)).isEqualTo("hb:cp:{cp:c_7:0:v3}:seq");
    assertThat(keys.won(edited, 1)).isEqualTo("hb:cp:{cp:c_7:1:v3}:won");
  }
}
