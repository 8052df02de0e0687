package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.support.TradeRedrawn;
import hongbao.core.campaign.Campaign;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A rain's return when Redis rolled back past a credited reward's trade and another request then
 * reserved its tradeNo at another cost, as a win number drawn again after the loss does with
 * another prize. Played with two other senders' rewards, whose trades are replaced so: the closer's
 * sums are the same for a win's tradeNo (for a win the pools also record the new prize, and the
 * reconciler names the campaign as well). The escrow paid what the book credited; the replacing
 * trade's cost will never be credited, its tradeNo being taken. On a Redis and a schema of its own:
 * the discrepancies it leaves are meant to stay.
 */
class RainRedrawnTradeReturnTest extends RainOfItsOwn {

  private static final long BUDGET = 10_000;
  private static final long CASH = 100;

  RainRedrawnTradeReturnTest() {
    super("rain-redrawn-trade", Map.of());
  }

  /**
   * The book credited CASH, the trade now reserves nothing: "budget − reserved" asked the escrow
   * for the 100 it paid, and the closer failed on every pass for good, the whole return kept in the
   * escrow. The book credited a coupon, the trade now reserves CASH: 100 stayed in the escrow for
   * good. Either way the return is now exactly what the escrow holds, and the reconciler names the
   * two trades and nothing else.
   */
  @Test
  void aCreditedRewardWhoseTradeNoWasReservedAgainAtAnotherCost_isReturnedByTheBook() {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    var rounds = round(starts, 60, prize("CASH", CASH, 10), prize("TEA", 1, 10));
    String paidCash = fixture.created(campaign(BUDGET, 1, 10, rounds));
    String paidTea = fixture.created(campaign(BUDGET, 1, 10, rounds));
    String cashTrade = fixture.othersBonus(paidCash, "CASH", CASH);
    String teaTrade = fixture.othersBonus(paidTea, "TEA", 1);

    TradeRedrawn.atCost(redis.url(), paidCash, cashTrade, 0);
    TradeRedrawn.atCost(redis.url(), paidTea, teaTrade, CASH);

    Campaign campaign = fixture.rain().campaigns().get(paidCash);
    fixture.pastReturnGrace(campaign);
    assertThat(fixture.awaitReturned(paidCash)).isEqualTo(BUDGET - CASH);
    assertThat(fixture.awaitReturned(paidTea)).isEqualTo(BUDGET);
    assertThat(fixture.escrow(paidCash)).as("every fen accounted for").isZero();
    assertThat(fixture.escrow(paidTea)).as("every fen accounted for").isZero();
    List<String> discrepancies =
        fixture.service.hongbao().parts().reconciler().reconcile().discrepancies();
    assertThat(discrepancies)
        .as("the two trades, and no campaign")
        .hasSize(2)
        .anySatisfy(line -> assertThat(line).startsWith("reward " + cashTrade + ": "))
        .anySatisfy(line -> assertThat(line).startsWith("reward " + teaTrade + ": "));
  }
}
