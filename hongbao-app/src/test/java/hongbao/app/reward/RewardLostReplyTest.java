package hongbao.app.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.redis.LuaScript;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Redis reserves a reward's cost and the reply is lost with the connection, as when a network fails
 * on the way back. The caller is answered 503, as for a timeout; the reservation is made, once, and
 * holds the reward's token. A retry of the same request finds it and queues the reward, which is
 * credited once; a request never retried leaves its reservation, which the reconciler names once it
 * is stuck. Nothing else is reported: the fault destroyed nothing but that one answer.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RewardLostReplyTest {

  private static final LuaScript RESERVE = LuaScript.fromResource("budget_reserve.lua");
  private static final Duration STUCK_AFTER = Duration.ofSeconds(1);
  private static final String CAMPAIGN = "lost_reply";
  private static final long BUDGET = 10_000;

  private RewardFixture fixture;

  @BeforeAll
  void start() {
    fixture =
        RewardFixture.onItsOwnBehindAProxy(
            "reward-lost-reply",
            Map.of("HONGBAO_REWARD_STUCK_AFTER_SECONDS", Long.toString(STUCK_AFTER.toSeconds())));
    fixture.putType("LR_CASH", JsonObject.of("kind", "CASH", "ratePerSecond", 1_000));
    fixture.openCampaign(CAMPAIGN, BUDGET);
    // The first reservation loads the script, so the reply lost is the reservation's own.
    fixture.awaitAllCredited(
        fixture.sendEach(CAMPAIGN, "lr_warm_", 1, "LR_CASH"), Duration.ofSeconds(30));
  }

  @AfterAll
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  @Order(1)
  void aRewardWhoseReservationReplyWasLost_answers503_andItsRetryIsCreditedOnce() {
    JsonObject reward = reward("lr_retried", 300);
    fixture.network().dropReplyTo(RESERVE.sha());
    var unanswered = fixture.sendOverHttp(reward, null);
    assertThat(unanswered.status()).as(unanswered.raw()).isEqualTo(503);
    assertThat(unanswered.errorCode()).isEqualTo("UNAVAILABLE");

    var retry = fixture.sendOverHttp(reward, null);
    assertThat(retry.status()).as(retry.raw()).isEqualTo(202);
    assertThat(retry.json().getString("status")).isEqualTo("ACCEPTED");
    fixture.awaitAllCredited(List.of("lr_retried"), Duration.ofSeconds(30));

    var wallet = fixture.api.get("/api/v1/wallet", fixture.api.token("u-lr_retried")).json();
    assertThat(wallet.getLong("balance")).as("credited once").isEqualTo(300);
    assertThat(fixture.service.hongbao().parts().database().rewards().campaign(CAMPAIGN))
        .hasValueSatisfying(c -> assertThat(c.escrow().fen()).isEqualTo(BUDGET - 100 - 300));
    RewardFixture.awaitPast(STUCK_AFTER);
    assertThat(fixture.discrepancies()).isEmpty();
  }

  @Test
  @Order(2)
  void aRewardWhoseReservationReplyWasLost_andNeverRetried_isNamedByTheReconciler() {
    fixture.network().dropReplyTo(RESERVE.sha());
    var unanswered = fixture.sendOverHttp(reward("lr_abandoned", 200), null);
    assertThat(unanswered.status()).as(unanswered.raw()).isEqualTo(503);

    RewardFixture.awaitPast(STUCK_AFTER);
    List<String> lines = fixture.discrepancies();
    assertThat(lines).hasSize(1);
    assertThat(lines.getFirst())
        .matches("reward lr_abandoned: accepted \\d+ s ago, neither credited nor failed");
  }

  private static JsonObject reward(String tradeNo, long amount) {
    return RewardFixture.reward(tradeNo, CAMPAIGN, "LR_CASH", amount);
  }
}
