package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.support.BudgetLoss;
import hongbao.core.campaign.Campaign;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A rain's return when Redis forgot a trade that was already credited: on a Redis and a schema of
 * its own, for the discrepancy it leaves is meant to stay.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RainLostTradeReturnTest extends RainOfItsOwn {

  private static final long BUDGET = 10_000;
  private static final long BONUS = 500;

  RainLostTradeReturnTest() {
    super("rain-lost-trade", Map.of());
  }

  /**
   * Redis loses the budget keys of a rain after another sender's CASH reward was credited from it:
   * the closer's arming opens them again empty, so "budget − reserved" would ask the escrow for the
   * 500 it no longer holds (an invariant violation that stopped the closer for every campaign). The
   * closer leaves the credited cash out, returns what the escrow holds, and the reconciler names
   * exactly the trade Redis forgot.
   */
  @Test
  void aCreditedRewardWhoseTradeRedisLost_isLeftOutOfTheReturn_andTheReconcilerNamesIt() {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String id = fixture.created(campaign(BUDGET, 1, 10, round(starts, 60, prize("CASH", 100, 10))));
    Campaign campaign = fixture.rain().campaigns().get(id);
    fixture.othersBonus(id, BONUS);
    BudgetLoss.lose(redis.url(), id);

    fixture.pastReturnGrace(campaign);
    assertThat(fixture.awaitReturned(id)).isEqualTo(BUDGET - BONUS);
    assertThat(fixture.escrow(id)).as("every fen accounted for").isZero();
    assertThat(fixture.service.hongbao().parts().reconciler().reconcile().discrepancies())
        .singleElement()
        .asString()
        .startsWith("reward ")
        .endsWith(": credited but never accepted");
  }
}
