package hongbao.redis.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.Unavailable;
import hongbao.core.money.Amount;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardBudget.Reservation;
import hongbao.redis.LuaScript;
import hongbao.redis.RedisLink;
import hongbao.redis.TestRedis;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A dry budget key borrows: other keys lend it allowance (budget_lend.lua), then it is granted
 * (budget_grant.lua). If the network loses the grant's reply after Redis ran it, and the client
 * sent the grant again on reconnecting, the key would be granted twice and the campaign could
 * reserve more than its budget. A real proxy between the budget and Redis loses that reply.
 */
class RedisRewardBudgetLostReplyTest {

  private static final int KEYS = 8;
  private static final long BUDGET = 8_000;

  @Test
  void aGrantWhoseReplyWasLost_isNotGrantedTwice_andTheBudgetIsNeverExceeded() {
    String prefix = "t" + System.nanoTime();
    var keys = new RewardKeys(prefix);
    String campaign = "lost-grant";
    try (var network = TestRedis.proxy();
        RedisLink link = RedisLink.open(TestRedis.url(network))) {
      var budget = new RedisRewardBudget(link, keys, KEYS, Clock.systemUTC());
      budget.open(campaign, Amount.fen(BUDGET));
      // Dearer than one key's share (1,000): its key must borrow from the others.
      Reward dear = reward(campaign, "dear", 1_500);

      LuaScript grant = LuaScript.fromResource("budget_grant.lua");
      grant.load(link); // so the reply lost is the grant's own, not a NOSCRIPT
      network.dropReplyTo(grant.sha());

      assertThatThrownBy(() -> budget.reserve(dear, dear.amount(), "tok"))
          .isInstanceOf(Unavailable.class);
      var afterLoss = budget.state(campaign);
      assertThat(afterLoss.allowance())
          .as("the grant ran once: what was lent was granted once")
          .isEqualTo(Amount.fen(BUDGET));

      long reserved = 0;
      for (int i = 0; i < 200; i++) {
        Reward small = reward(campaign, "small-" + i, 100);
        if (budget.reserve(small, small.amount(), "tok") instanceof Reservation.Reserved) {
          reserved += 100;
        }
      }
      assertThat(reserved).as("every fen of the budget, and no more").isEqualTo(BUDGET);
      assertThat(budget.state(campaign).reserved()).isEqualTo(Amount.fen(BUDGET));
    } finally {
      TestRedis.deleteMatching(TestRedis.link(), prefix + ":*");
    }
  }

  private static Reward reward(String campaign, String tradeNo, long fen) {
    return new Reward(
        tradeNo, "u" + tradeNo, campaign, "rain", "CASH", Amount.fen(fen), "", Instant.EPOCH);
  }
}
