package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.support.BudgetLoss;
import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.TapOutcome;
import hongbao.core.campaign.TradeNos;
import hongbao.core.money.Amount;
import hongbao.core.reward.RewardBudget;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
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

  /**
   * A tradeNo of a rain's win form ({@code <rain>_<round>_<user>_<n>}) is the rain's own: sent
   * through the reward route by anyone else, naming the rain's campaign or another, it would take
   * that user's win first (the win then conflicts or replays, its prize drawn and never issued).
   * Refused with 400 and nothing reserved; the same form for an id that is no rain is an ordinary
   * tradeNo, and the rain's own win under the refused tradeNo is issued and paid.
   */
  @Test
  void aTradeNoInARainsWinSpace_isRefusedByTheRewardRoute_whicheverCampaignItNames()
      throws Exception {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String id = fixture.created(campaign(BUDGET, 1, 10, round(starts, 60, prize("CASH", 100, 10))));
    Campaign campaign = fixture.rain().campaigns().get(id);
    String elsewhere = "elsewhere-" + id;
    fixture.openedRewardCampaign(elsewhere, 1_000);
    String user = "win-space-" + id;
    String win = TradeNos.of(id, 1, user, 1);

    for (String named : List.of(id, elsewhere)) {
      var refused = sendCash(named, win);
      assertThat(refused.status()).as(refused.raw()).isEqualTo(400);
      assertThat(refused.errorCode()).isEqualTo("INVALID_REQUEST");
      assertThat(refused.raw()).contains(id + "_<round>_<userId>_<n>");
    }
    var badAmount =
        fixture.api.post(
            "/api/v1/rewards",
            fixture.admin,
            Map.of(),
            JsonObject.of(
                    "tradeNo", win, "userId", user, "campaignId", id, "type", "CASH", "amount", 0)
                .encode());
    assertThat(badAmount.errorCode()).as("the fields' own rules first").isEqualTo("INVALID_AMOUNT");
    assertThat(budget().state(id).reserved()).isEqualTo(Amount.ZERO);
    assertThat(budget().state(elsewhere).reserved()).isEqualTo(Amount.ZERO);
    var noRain = sendCash(elsewhere, TradeNos.of("c_" + "norain" + id.substring(2), 1, user, 1));
    assertThat(noRain.status()).as("no rain has that id: %s", noRain.raw()).isEqualTo(202);
    fixture.books.awaitCredited(elsewhere, 1, Duration.ofSeconds(30));

    fixture.clock.advance(Duration.ofSeconds(10));
    var wins = new ConcurrentHashMap<String, TapOutcome.Won>();
    var perUser = new ConcurrentHashMap<String, AtomicInteger>();
    // A tap may miss (the draw paces the pool over the round): one a second until the win.
    for (int second = 0; second < 50 && wins.isEmpty(); second++) {
      fixture.tap(id, List.of(user), 1, wins, perUser);
      fixture.clock.advance(Duration.ofSeconds(1));
    }
    assertThat(wins).as("the rain's own win under that tradeNo").containsOnlyKeys(win);
    fixture.books.awaitCredited(id, 1, Duration.ofSeconds(30));
    fixture.pastReturnGrace(campaign);
    assertThat(fixture.awaitReturned(id)).isEqualTo(BUDGET - 100);
    fixture.service.assertReconciled();
  }

  private RewardBudget budget() {
    return fixture.service.hongbao().rewards().sdk().parts().budget();
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
