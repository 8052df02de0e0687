package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RewardServiceTest {

  private static final RewardType TEA = RewardDoubles.TEA;

  private static final Reward REWARD =
      new Reward("t1", "u1", "c1", "rain", "TEA", Amount.fen(1), "", Instant.EPOCH);

  /**
   * A coupon its issuer refused for good is settled: the book records the refusal, and the server's
   * token copy goes as a credited one's does. Kept, such copies piled up for a user whose coupons
   * an issuer keeps refusing, and filled the bounded scan a forced credit makes of a user's pending
   * copies, hiding the cash rewards it is for.
   */
  @Test
  void aCouponItsIssuerRefused_isRecordedAsFailed_andItsTokenCopyIsDropped() {
    var tokens = new RewardDoubles.MemoryTokens();
    tokens.save(REWARD, "token");
    List<String> failed = new ArrayList<>();
    RewardBook book =
        RewardDoubles.bookAnswering(
            Map.of(
                "recordFailed",
                args -> {
                  failed.add(((Reward) args[0]).tradeNo());
                  return RewardBook.Credit.DONE;
                }));
    var service =
        new RewardService(
            book,
            (reward, type) -> new Issuer.Issue.Refused("no such shop"),
            tokens,
            RewardMetrics.NONE);

    assertThat(service.credit(REWARD, TEA)).isInstanceOf(CreditOutcome.Refused.class);

    assertThat(failed).containsExactly("t1");
    assertThat(tokens.holds(REWARD)).as("the copy of a settled reward").isFalse();
  }
}
