package hongbao.app.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.support.BudgetLoss;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Redis loses a campaign's budget keys altogether — its layout, every key's allowance and every
 * trade, as a restart without its data or a failover to a replica that never had them would. The
 * campaign is still funded in the ledger, so the next send opens its budget again from the books
 * and is accepted (it answered 404, as for a campaign nobody opened, until the service restarted —
 * and then still). The reservations Redis forgot are forgotten with the keys: the reconciler names
 * exactly those, and nothing else.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RewardBudgetKeysLossTest {

  private static final Duration STUCK_AFTER = Duration.ofSeconds(1);
  private static final String CAMPAIGN = "gone";

  private RewardFixture fixture;

  @BeforeAll
  void start() {
    fixture =
        RewardFixture.onItsOwn(
            "reward-keys-loss",
            Map.of("HONGBAO_REWARD_STUCK_AFTER_SECONDS", Long.toString(STUCK_AFTER.toSeconds())));
    fixture.putType("BONUS", JsonObject.of("kind", "CASH", "ratePerSecond", 1_000));
    fixture.openCampaign(CAMPAIGN, 1_000);
  }

  @AfterAll
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void lostBudgetKeys_areOpenedAgainFromTheBooks_andTheReconcilerNamesTheForgottenTrades() {
    List<String> before = fixture.sendEach(CAMPAIGN, "before_", 3, "BONUS");
    fixture.awaitAllCredited(before, Duration.ofSeconds(30));

    BudgetLoss.lose(fixture.redisUrl(), CAMPAIGN);
    var budget = fixture.rewards().sdk().parts().budget();
    assertThat(budget.state(CAMPAIGN)).as("nothing left of the budget in Redis").isNull();

    List<String> after = fixture.sendEach(CAMPAIGN, "after_", 3, "BONUS");
    fixture.awaitAllCredited(after, Duration.ofSeconds(30));

    var state = budget.state(CAMPAIGN);
    assertThat(state.budget().fen()).isEqualTo(1_000);
    assertThat(state.reserved().fen()).as("only what was sent since the loss").isEqualTo(300);
    assertThat(budget.trades(CAMPAIGN).keySet()).containsExactlyInAnyOrderElementsOf(after);
    assertThat(fixture.service.hongbao().parts().database().rewards().campaign(CAMPAIGN))
        .hasValueSatisfying(c -> assertThat(c.escrow().fen()).isEqualTo(400));

    RewardFixture.awaitPast(STUCK_AFTER);
    List<String> lines = fixture.discrepancies();
    assertThat(lines).as("%s", lines).hasSize(before.size());
    for (String tradeNo : before) {
      assertThat(lines).contains("reward " + tradeNo + ": credited but never accepted");
    }
  }
}
