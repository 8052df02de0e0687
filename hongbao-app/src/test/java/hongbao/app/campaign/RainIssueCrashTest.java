package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.support.DeadQueues;
import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.PrizePools;
import hongbao.core.campaign.Round;
import hongbao.core.campaign.TapOutcome;
import hongbao.core.campaign.TradeNos;
import hongbao.core.reward.RewardBudget;
import hongbao.crypto.Sealer;
import hongbao.sdk.RewardSdk;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A tap that dies inside its issue, after the reward budget recorded its trade and before a queue
 * took the event: the third point rain.md says a tap may die at. Played by drawing as the tap does
 * (the home script, as {@code RainCrashTest} calls it) and issuing its win through the service's
 * own issuer ({@code CampaignWiring.issuerOn}) on an SDK whose queues refuse and whose retrier
 * never runs again ({@link DeadQueues}), then going on without it.
 *
 * <p>The win is not issued again: the closer sees its trade and takes it as issued, and gives back
 * the budget less every prize. The reward stays accepted, its cash reserved in the campaign's
 * escrow, and the reconciler names it, and nothing else, for an operator to settle. The class has a
 * Redis and a schema of its own: every later reconciliation on them would name it too.
 */
class RainIssueCrashTest extends RainOfItsOwn {

  private static final long BUDGET = 10_000;
  private static final long CASH = 100;
  private static final long PRIZES = 4;

  /** Past it, an accepted reward that is neither credited nor failed is a discrepancy. */
  private static final Duration STUCK_AFTER = Duration.ofSeconds(1);

  private static final Sealer KEYSET = Sealer.generate();

  RainIssueCrashTest() {
    super(
        "rain-issue-crash",
        Map.of(
            "HONGBAO_REWARD_STUCK_AFTER_SECONDS",
            Long.toString(STUCK_AFTER.toSeconds()),
            "HONGBAO_REWARD_KEYSET",
            KEYSET.keysetJson()));
  }

  @Test
  void aTapThatDiedInsideItsIssue_isNotIssuedAgain_andTheReconcilerNamesItsRewardAlone()
      throws Exception {
    Instant first = fixture.clock.instant().plusSeconds(10);
    String id =
        fixture.created(campaign(BUDGET, 2, 10, round(first, 60, prize("CASH", CASH, PRIZES))));
    Campaign campaign = fixture.rain().campaigns().get(id);
    // The round's last second, where every tap draws.
    fixture.clock.advance(Duration.between(fixture.clock.instant(), first.plusMillis(59_500)));
    String died =
        IntStream.range(0, 1_000)
            .mapToObj(u -> "issue-died-" + u)
            .filter(DeadQueues::kafkaFirst)
            .findFirst()
            .orElseThrow();

    // The tap drew and recorded its prize...
    String tradeNo = TradeNos.prefix(id, 1, died) + 1;
    assertThat(
            fixture
                .rain()
                .pools()
                .tap(
                    campaign,
                    campaign.round(1),
                    died,
                    TradeNos.prefix(id, 1, died),
                    fixture.clock.millis(),
                    true,
                    0.5))
        .isEqualTo(new PrizePools.HomeReply.Won(0, 1));
    try (RewardSdk dying = DeadQueues.sdk(redis.url(), KEYSET)) {
      // ...and its issue, through the service's own issuer, reserved and claimed the prize, but
      // no queue took the event.
      Round round = campaign.round(1);
      String token =
          CampaignWiring.issuerOn(dying)
              .issue(campaign, round, died, tradeNo, round.prizes().get(0));
      assertThat(token)
          .as("the client's token, handed out before any queue took the event")
          .isNotBlank();
      assertThat(dying.held()).as("held in the memory the process loses").isEqualTo(1);
      assertThat(trade(id, tradeNo).unqueued()).as("nothing told the closer to send it").isFalse();
      // The process dies here: its retrier never runs, its memory is gone.

      // The round goes on without it.
      var taps = fixture.rain().taps();
      var others = new ArrayList<String>();
      for (int u = 0; u < PRIZES - 1; u++) {
        TapOutcome outcome = taps.tap(id, "issue-other-" + u);
        assertThat(outcome).isInstanceOf(TapOutcome.Won.class);
        others.add(((TapOutcome.Won) outcome).tradeNo());
      }
      assertThat(taps.tap(id, "issue-late")).isEqualTo(TapOutcome.MISSED);
      fixture.books.awaitCredited(id, PRIZES - 1, Duration.ofSeconds(30));

      fixture.pastReturnGrace(campaign);
      assertThat(fixture.awaitReturned(id))
          .as("the dead tap's prize counted as issued: its cash stays reserved")
          .isEqualTo(BUDGET - PRIZES * CASH);
      assertThat(fixture.escrow(id)).as("the dead tap's cash, and only it").isEqualTo(CASH);
      assertThat(rewardRows(tradeNo)).as("never issued again").isZero();
      assertThat(fixture.books.rewards(id)).isEqualTo(PRIZES - 1);
      others.add(tradeNo);
      assertThat(fixture.service.hongbao().rewards().sdk().parts().budget().trades(id).keySet())
          .as("every win has its trade")
          .containsExactlyInAnyOrderElementsOf(others);

      // Past the stuck age, the reconciler names the dead tap's reward, and nothing else.
      long accepted = trade(id, tradeNo).acceptedAtMillis();
      await()
          .atMost(STUCK_AFTER.plusSeconds(10))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> System.currentTimeMillis() > accepted + STUCK_AFTER.toMillis() + 500);
      List<String> discrepancies = reconcile();
      assertThat(discrepancies)
          .as("the reconciler")
          .singleElement()
          .asString()
          .matches("reward " + tradeNo + ": accepted \\d+ s ago, neither credited nor failed");
    }
  }

  private RewardBudget.Trade trade(String campaignId, String tradeNo) {
    RewardBudget.Trade trade =
        fixture.service.hongbao().rewards().sdk().parts().budget().trades(campaignId).get(tradeNo);
    assertThat(trade).as("the budget's trade " + tradeNo).isNotNull();
    return trade;
  }

  private long rewardRows(String tradeNo) {
    return fixture.books.value("SELECT count(*) FROM reward WHERE trade_no = ?", tradeNo);
  }

  private List<String> reconcile() {
    return fixture.service.hongbao().parts().reconciler().reconcile().discrepancies();
  }
}
