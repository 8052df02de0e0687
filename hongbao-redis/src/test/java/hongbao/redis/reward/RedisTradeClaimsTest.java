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

  private static final String DIGEST = "0123456789abcdef0123456789abcdef";

  @Test
  void aTradeNo_isClaimedOnce_heldForItsCampaign_andAnotherCampaignsConflict() {
    assertThat(claims.claim("t1", "a", DIGEST, true)).isEqualTo(Claim.CLAIMED);
    assertThat(claims.claim("t1", "a", DIGEST, true)).isEqualTo(Claim.HELD);
    assertThat(claims.claim("t1", "b", DIGEST, true)).isEqualTo(Claim.OTHER);
    assertThat(claims.claim("t2", "b", DIGEST, true)).isEqualTo(Claim.CLAIMED);
    assertThat(claims.conflictOf("t1", "a", DIGEST)).isEmpty();
    assertThat(claims.conflictOf("t1", "b", DIGEST)).contains(Claim.OTHER);
    assertThat(claims.conflictOf("t3", "b", DIGEST)).as("nobody's").isEmpty();
  }

  @Test
  void anotherBodyInTheSameCampaign_conflictsToo() {
    assertThat(claims.claim("t1", "a", DIGEST, true)).isEqualTo(Claim.CLAIMED);

    assertThat(claims.claim("t1", "a", "fedcba9876543210" + DIGEST.substring(16), true))
        .isEqualTo(Claim.ANOTHER_REQUEST);
    assertThat(claims.claim("t1", "a", DIGEST, true)).isEqualTo(Claim.HELD);
    assertThat(claims.conflictOf("t1", "a", "fedcba9876543210")).contains(Claim.ANOTHER_REQUEST);
  }

  /**
   * A queued send's claim keeps no digest (its trade record tells another body apart) but still
   * meets a synchronous send's.
   */
  @Test
  void aQueuedSendsClaim_keepsNoDigest_butMeetsOneKept() {
    assertThat(claims.claim("q1", "a", DIGEST, false)).isEqualTo(Claim.CLAIMED);
    assertThat(claims.claim("q1", "a", "fedcba9876543210", false)).isEqualTo(Claim.HELD);
    assertThat(claims.claim("q1", "b", DIGEST, false)).isEqualTo(Claim.OTHER);
    assertThat(redis().sync().hget(claims.bucketOf("q1") + ":d", "q1")).isNull();

    assertThat(claims.claim("s1", "a", DIGEST, true)).isEqualTo(Claim.CLAIMED);
    assertThat(claims.claim("s1", "a", "fedcba9876543210", false)).isEqualTo(Claim.ANOTHER_REQUEST);
  }

  /**
   * A claim made by an earlier version, without a digest: held by its campaign, whose next request
   * then gives it one; another campaign conflicts. And the campaign stays where earlier versions
   * read it, so they can run beside this one.
   */
  @Test
  void aClaimWithoutADigest_isHeldByItsCampaign_andOthersConflict() {
    redis().sync().hset(claims.bucketOf("old"), "old", "a");

    assertThat(claims.conflictOf("old", "a", DIGEST)).isEmpty();
    assertThat(claims.claim("old", "a", DIGEST, true)).isEqualTo(Claim.HELD);
    assertThat(claims.claim("old", "b", DIGEST, true)).isEqualTo(Claim.OTHER);
    assertThat(claims.claim("old", "a", "fedcba9876543210", true)).isEqualTo(Claim.ANOTHER_REQUEST);
    assertThat(redis().sync().hget(claims.bucketOf("old"), "old")).isEqualTo("a");
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
          attempts.add(
              pool.submit((Callable<Claim>) () -> claims.claim(tradeNo, campaign, DIGEST, true)));
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
