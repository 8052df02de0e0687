package hongbao.redis.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.reward.TradeClaims.Claim;
import hongbao.redis.RedisLink;
import hongbao.redis.TestRedis;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class RedisTradeClaimsTest {

  /** The Redis under test: one server here, a cluster in the subclass. */
  RedisLink redis() {
    return TestRedis.link();
  }

  private final RedisTradeClaims claims =
      new RedisTradeClaims(redis(), new RewardKeys("t" + System.nanoTime()));

  @Test
  void aTradeNo_isClaimedOnce_heldForItsCampaign_andAnotherCampaignsConflict() {
    assertThat(claims.claim("t1", "a")).isEqualTo(Claim.CLAIMED);
    assertThat(claims.claim("t1", "a")).isEqualTo(Claim.HELD);
    assertThat(claims.claim("t1", "b")).isEqualTo(Claim.OTHER);
    assertThat(claims.claim("t2", "b")).isEqualTo(Claim.CLAIMED);
  }

  @Test
  void campaignsRacingForOneTradeNo_exactlyOneClaimsIt() throws Exception {
    var pool = Executors.newFixedThreadPool(16);
    try {
      for (int t = 0; t < 50; t++) {
        String tradeNo = "race-" + t;
        var attempts = new ArrayList<Future<Claim>>();
        for (int c = 0; c < 16; c++) {
          String campaign = "c" + c;
          attempts.add(pool.submit((Callable<Claim>) () -> claims.claim(tradeNo, campaign)));
        }
        List<Claim> answers = new ArrayList<>();
        for (Future<Claim> attempt : attempts) {
          answers.add(attempt.get());
        }
        assertThat(answers).as(tradeNo).containsOnlyOnce(Claim.CLAIMED).doesNotContain(Claim.HELD);
      }
    } finally {
      pool.shutdown();
    }
  }
}
