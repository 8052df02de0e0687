package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.support.BudgetLoss;
import hongbao.core.campaign.Campaign;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Another sender may pay a CASH reward out of a red-packet rain's campaign (the reward API and the
 * SDK take any campaign with a budget). The closer returns budget − reserved, the other sender's
 * cash left out, and the audit must expect exactly that: it expected budget − the CASH the pools
 * won, and reported a campaign whose every fen is accounted for.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RainForeignRewardTest extends RainOfItsOwn {

  private static final long BUDGET = 10_000;
  private static final long BONUS = 500;

  RainForeignRewardTest() {
    super("rain-foreign", Map.of());
  }

  @Test
  void aCashRewardOfAnotherSenderInTheRainsCampaign_leavesTheBooksExact_andTheAuditClean() {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String id = fixture.created(campaign(BUDGET, 1, 10, round(starts, 60, prize("CASH", 100, 10))));
    Campaign campaign = fixture.rain().campaigns().get(id);

    fixture.othersBonus(id, BONUS);

    // Nobody taps; the round ends and the closer returns what was not reserved.
    fixture.pastReturnGrace(campaign);
    assertThat(fixture.awaitReturned(id)).isEqualTo(BUDGET - BONUS);
    assertThat(fixture.escrow(id)).as("every fen accounted for").isZero();

    fixture.service.assertReconciled();
  }

  /**
   * A returned campaign whose budget keys Redis then lost is armed again by any instance that loads
   * it (a GET, the reconciler). Its keys must come back closed: opened afresh they took a reward
   * (202) that the empty escrow could never pay. Refused (402), nothing is queued or owed.
   */
  @Test
  void aReturnedCampaignWhoseBudgetKeysWereLost_refusesRewards_onceArmedAgain() {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String id = fixture.created(campaign(BUDGET, 1, 10, round(starts, 60, prize("CASH", 100, 10))));
    Campaign campaign = fixture.rain().campaigns().get(id);
    fixture.pastReturnGrace(campaign);
    assertThat(fixture.awaitReturned(id)).isEqualTo(BUDGET);
    assertThat(sendCash(id, "before-loss-" + id).status()).isEqualTo(402);

    BudgetLoss.lose(redis.url(), id);
    fixture.rain().arming().arm(campaign); // what a fresh load of the campaign does

    var refused = sendCash(id, "after-loss-" + id);
    assertThat(refused.status()).as(refused.raw()).isEqualTo(402);
    assertThat(refused.errorCode()).isEqualTo("INSUFFICIENT_FUNDS");
    assertThat(fixture.escrow(id)).isZero();
    fixture.service.assertReconciled();
  }

  private hongbao.app.support.Api.Response sendCash(String campaignId, String tradeNo) {
    return fixture.api.post(
        "/api/v1/rewards",
        fixture.admin,
        Map.of(),
        JsonObject.of(
                "tradeNo",
                tradeNo,
                "userId",
                "late-" + campaignId,
                "campaignId",
                campaignId,
                "scene",
                "late",
                "type",
                "CASH",
                "amount",
                100,
                "desc",
                "after the return")
            .encode());
  }
}
