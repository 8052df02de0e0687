package hongbao.app.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.support.Api;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * tradeNo is the global idempotency key. Once one campaign accepted a tradeNo, a send of it to any
 * other campaign is {@code 409 IDEMPOTENCY_CONFLICT} when it is made, asynchronous or synchronous,
 * with nothing reserved there, and before the campaign's own refusals; a refused send (an unknown
 * campaign, a spent budget, issuing switched off) leaves the tradeNo free. Campaigns racing for one
 * tradeNo: exactly one accepts it. Each test ends with every accepted reward credited once and the
 * reconciliation clean.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RewardTradeNoTest {

  private static final int RACING_CAMPAIGNS = 8;

  private RewardFixture fixture;

  @BeforeAll
  void start() {
    fixture = RewardFixture.onItsOwn("reward-trade-no", Map.of());
    fixture.putType(
        "CASH", JsonObject.of("kind", "CASH", "ratePerSecond", 10_000, "queue", "MASSIVE"));
    fixture.openCampaign("a", 100_000);
    fixture.openCampaign("b", 100_000);
    fixture.openCampaign("small", 100);
    for (int c = 0; c < RACING_CAMPAIGNS; c++) {
      fixture.openCampaign("race" + c, 100_000);
    }
  }

  @AfterAll
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void aTradeNoOneCampaignAccepted_isRefusedByAnother_whenSent_asyncOrSync() {
    var first = fixture.sendOverHttp(reward("once", "a", 300), null);
    assertThat(first.status()).as(first.raw()).isEqualTo(202);
    var replay = fixture.sendOverHttp(reward("once", "a", 300), null);
    assertThat(replay.status()).as(replay.raw()).isEqualTo(202);
    assertThat(replay.json().getString("token")).isEqualTo(first.json().getString("token"));

    for (String mode : new String[] {null, "sync"}) {
      var elsewhere = fixture.sendOverHttp(reward("once", "b", 300), mode);
      assertThat(elsewhere.status()).as(elsewhere.raw()).isEqualTo(409);
      assertThat(elsewhere.errorCode()).isEqualTo("IDEMPOTENCY_CONFLICT");
    }
    assertThat(trades("b")).doesNotContainKey("once");
    assertThat(reserved("b")).isZero();

    // The contract's order: the conflict answers before the campaign's own refusal.
    var unknown = fixture.sendOverHttp(reward("once", "no-such-campaign", 300), null);
    assertThat(unknown.status()).as(unknown.raw()).isEqualTo(409);
    var spent = fixture.sendOverHttp(reward("once", "small", 300), null);
    assertThat(spent.status()).as(spent.raw()).isEqualTo(409);

    fixture.awaitAllCredited(List.of("once"), Duration.ofSeconds(30));
    var afterCredit = fixture.sendOverHttp(reward("once", "b", 300), null);
    assertThat(afterCredit.status()).as(afterCredit.raw()).isEqualTo(409);
    assertThat(creditedRewards("once")).isEqualTo(1);
    assertReconciled();
  }

  @Test
  void aSendNoCampaignAccepted_leavesItsTradeNoFree() {
    var unknown = fixture.sendOverHttp(reward("typo", "no-such-campaign", 300), null);
    assertThat(unknown.status()).as(unknown.raw()).isEqualTo(404);
    var spent = fixture.sendOverHttp(reward("too_big", "small", 300), null);
    assertThat(spent.status()).as(spent.raw()).isEqualTo(402);

    for (String tradeNo : new String[] {"typo", "too_big"}) {
      var accepted = fixture.sendOverHttp(reward(tradeNo, "a", 300), null);
      assertThat(accepted.status()).as(accepted.raw()).isEqualTo(202);
    }
    fixture.awaitAllCredited(List.of("typo", "too_big"), Duration.ofSeconds(30));
    assertReconciled();
  }

  /**
   * With issuing switched off a synchronous send is refused 503 DISABLED and claims nothing, but a
   * tradeNo another campaign holds is still the conflict first.
   */
  @Test
  void whileIssuingIsOff_aSyncSendClaimsNothing_butAConflictAnswersFirst() {
    var first = fixture.sendOverHttp(reward("held_by_a", "a", 300), null);
    assertThat(first.status()).as(first.raw()).isEqualTo(202);
    fixture.rewardsSwitch(false);
    try {
      var conflict = fixture.sendOverHttp(reward("held_by_a", "b", 300), "sync");
      assertThat(conflict.status()).as(conflict.raw()).isEqualTo(409);
      var off = fixture.sendOverHttp(reward("while_off", "b", 300), "sync");
      assertThat(off.status()).as(off.raw()).isEqualTo(503);
      assertThat(off.errorCode()).isEqualTo("DISABLED");
      assertThat(trades("b")).doesNotContainKeys("held_by_a", "while_off");
    } finally {
      fixture.rewardsSwitch(true);
    }
    var elsewhere = fixture.sendOverHttp(reward("while_off", "a", 300), null);
    assertThat(elsewhere.status()).as("the refused send bound nothing").isEqualTo(202);
    fixture.awaitAllCredited(List.of("held_by_a", "while_off"), Duration.ofSeconds(30));
    assertReconciled();
  }

  @Test
  void campaignsRacingForOneTradeNo_exactlyOneAcceptsIt() throws Exception {
    var pool = Executors.newFixedThreadPool(2 * RACING_CAMPAIGNS);
    var tradeNos = new ArrayList<String>();
    try {
      for (int t = 0; t < 20; t++) {
        String tradeNo = "raced_" + t;
        tradeNos.add(tradeNo);
        var answers = new ArrayList<Future<Api.Response>>();
        // Each campaign twice: a campaign's own replay is a 202 with the first token, not a 409.
        for (int i = 0; i < 2 * RACING_CAMPAIGNS; i++) {
          JsonObject reward = reward(tradeNo, "race" + (i % RACING_CAMPAIGNS), 10);
          answers.add(
              pool.submit((Callable<Api.Response>) () -> fixture.sendOverHttp(reward, null)));
        }
        var acceptedBy = new ArrayList<String>();
        var tokens = new ArrayList<String>();
        for (int i = 0; i < answers.size(); i++) {
          Api.Response answer = answers.get(i).get();
          if (answer.status() == 202) {
            acceptedBy.add("race" + (i % RACING_CAMPAIGNS));
            tokens.add(answer.json().getString("token"));
          } else {
            assertThat(answer.status()).as(answer.raw()).isEqualTo(409);
            assertThat(answer.errorCode()).isEqualTo("IDEMPOTENCY_CONFLICT");
          }
        }
        assertThat(acceptedBy).as(tradeNo).isNotEmpty().containsOnly(acceptedBy.getFirst());
        assertThat(tokens).as("one token").containsOnly(tokens.getFirst());
      }
    } finally {
      pool.shutdown();
    }
    fixture.awaitAllCredited(tradeNos, Duration.ofSeconds(30));
    for (String tradeNo : tradeNos) {
      assertThat(creditedRewards(tradeNo)).as(tradeNo).isEqualTo(1);
    }
    long reservedInAll = 0;
    for (int c = 0; c < RACING_CAMPAIGNS; c++) {
      reservedInAll += reserved("race" + c);
    }
    assertThat(reservedInAll).as("each raced reward reserved once").isEqualTo(10L * 20);
    assertReconciled();
  }

  private void assertReconciled() {
    var answer = fixture.api.get("/api/v1/admin/reconciliation", fixture.admin);
    assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
    assertThat(answer.json().getBoolean("ok")).as(answer.raw()).isTrue();
  }

  private long creditedRewards(String tradeNo) {
    return fixture.books.value(
        "SELECT count(*) FROM transfer WHERE kind = 'REWARD' AND key = ?", "reward:" + tradeNo);
  }

  private long reserved(String campaign) {
    return fixture.rewards().sdk().parts().budget().state(campaign).reserved().fen();
  }

  private Map<String, ?> trades(String campaign) {
    return fixture.rewards().sdk().parts().budget().trades(campaign);
  }

  private static JsonObject reward(String tradeNo, String campaign, long fen) {
    return JsonObject.of(
        "tradeNo",
        tradeNo,
        "userId",
        "u-" + tradeNo,
        "campaignId",
        campaign,
        "scene",
        "test",
        "type",
        "CASH",
        "amount",
        fen,
        "desc",
        "global tradeNo");
  }
}
