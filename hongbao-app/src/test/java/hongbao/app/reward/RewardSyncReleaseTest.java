package hongbao.app.reward;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A synchronous reward that is not issued gives its reservation back, whatever its kind: the
 * contract's 502 {@code ISSUER_FAILED} "(budget released)" for a coupon the issuer refuses, and 503
 * {@code DISABLED} for coupon or cash while issuing is switched off. The same request afterwards is
 * a new attempt, not a replay of a trade nothing will ever issue. Coupons and items reserve
 * nothing, and their release used to fail in Redis (the caller got 503 and the trade stayed,
 * answered ACCEPTED ever after). The contract's order holds too: a switched-off sync send is 503
 * before its campaign or budget is looked at, and a 409 for a tradeNo another campaign holds leaves
 * nothing reserved.
 *
 * <p>Its own Redis and schema: the refused rewards stay in the reward book.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RewardSyncReleaseTest {

  private RewardFixture fixture;
  private IssuerSimulator issuer;

  @BeforeAll
  void start() {
    try {
      fixture = RewardFixture.onItsOwn("reward-sync-release", Map.of());
      issuer =
          IssuerSimulator.start(
              new IssuerSimulator.Settings(0, 100_000, 0, Duration.ZERO), Clock.systemUTC(), 19);
      fixture.putType(
          "SYNC_COUPON",
          JsonObject.of(
              "kind",
              "COUPON",
              "ratePerSecond",
              1_000,
              "queue",
              "SPECIAL",
              "issuerUrl",
              issuer.url()));
      // Cash is paid by the ledger: no issuer to refuse it.
      fixture.putType(
          "SYNC_CASH", JsonObject.of("kind", "CASH", "ratePerSecond", 1_000, "queue", "SPECIAL"));
      fixture.openCampaign("sync", 10_000);
    } catch (RuntimeException | Error e) {
      stop();
      throw e;
    }
  }

  @AfterAll
  void stop() {
    if (issuer != null) {
      issuer.close();
      issuer = null;
    }
    if (fixture != null) {
      fixture.close();
      fixture = null;
    }
  }

  @Test
  void aRefusedSyncCoupon_answers502_andReleasesItsReservation() {
    issuer.refuseUser("refused");
    long declined = issuer.snapshot().declined();
    JsonObject reward = reward("refused_COUPON", "refused", "COUPON", 700);

    for (int attempt = 1; attempt <= 2; attempt++) {
      var answer = fixture.sendOverHttp(reward, "sync");
      assertThat(answer.status()).as("attempt %d: %s", attempt, answer.raw()).isEqualTo(502);
      assertThat(answer.errorCode()).isEqualTo("ISSUER_FAILED");
      assertThat(trades()).doesNotContainKey("refused_COUPON");
    }
    // The refusal is final: the second attempt is answered from the reward book, not the issuer,
    // and not from a trade left behind (which would answer 202 ACCEPTED).
    assertThat(issuer.snapshot().declined()).isEqualTo(declined + 1);
  }

  /**
   * A tradeNo names one request even after a synchronous 502 gave its reservation back: another
   * body of it, queued or synchronous, is 409 and reserves nothing; the same body is still the same
   * request, answered from the reward book.
   */
  @Test
  void afterASync502_anotherBodyOfTheTradeNo_is409_inEitherMode() {
    issuer.refuseUser("picky");
    long declined = issuer.snapshot().declined();
    JsonObject first = reward("picky_COUPON", "picky", "COUPON", 700);
    assertThat(fixture.sendOverHttp(first, "sync").status()).isEqualTo(502);

    JsonObject other = first.copy().put("amount", 800);
    for (String mode : new String[] {null, "sync"}) {
      var answer = fixture.sendOverHttp(other, mode);
      assertThat(answer.status()).as("mode %s: %s", mode, answer.raw()).isEqualTo(409);
      assertThat(answer.errorCode()).isEqualTo("IDEMPOTENCY_CONFLICT");
      assertThat(trades()).doesNotContainKey("picky_COUPON");
    }
    // The conflict answers before the switch, as the contract orders.
    fixture.rewardsSwitch(false);
    try {
      var off = fixture.sendOverHttp(other, "sync");
      assertThat(off.status()).as(off.raw()).isEqualTo(409);
    } finally {
      fixture.rewardsSwitch(true);
    }
    var again = fixture.sendOverHttp(first, "sync");
    assertThat(again.status()).as(again.raw()).isEqualTo(502);
    assertThat(issuer.snapshot().declined())
        .as("the issuer was asked once")
        .isEqualTo(declined + 1);
  }

  @Test
  void aSyncRewardWhileIssuingIsOff_answers503_andIsIssuedWhenSentAgainAfter() {
    for (String kind : new String[] {"COUPON", "CASH"}) {
      JsonObject reward = reward("later_" + kind, "patient", kind, 300);
      fixture.rewardsSwitch(false);
      try {
        var refused = fixture.sendOverHttp(reward, "sync");
        assertThat(refused.status()).as(refused.raw()).isEqualTo(503);
        assertThat(refused.errorCode()).isEqualTo("DISABLED");
        assertThat(trades()).doesNotContainKey("later_" + kind);
      } finally {
        fixture.rewardsSwitch(true);
      }

      var issued = fixture.sendOverHttp(reward, "sync");
      assertThat(issued.status()).as(issued.raw()).isEqualTo(200);
      assertThat(issued.json().getString("status")).isEqualTo("CREDITED");
      assertThat(fixture.isCredited("later_" + kind)).isTrue();
    }
    fixture.service.assertReconciled();
  }

  @Test
  void whileIssuingIsOff_aSyncRewardIsRefused503_beforeItsCampaignOrBudgetIsLookedAt() {
    fixture.rewardsSwitch(false);
    try {
      JsonObject unknownCampaign = reward("nowhere_CASH", "u", "CASH", 100).put("campaignId", "no");
      JsonObject overBudget = reward("too_much_CASH", "u", "CASH", 1_000_000);
      for (JsonObject reward : new JsonObject[] {unknownCampaign, overBudget}) {
        var answer = fixture.sendOverHttp(reward, "sync");
        assertThat(answer.status()).as(answer.raw()).isEqualTo(503);
        assertThat(answer.errorCode()).isEqualTo("DISABLED");
      }
    } finally {
      fixture.rewardsSwitch(true);
    }
    assertThat(
            fixture.sendOverHttp(reward("too_much_CASH", "u", "CASH", 1_000_000), "sync").status())
        .isEqualTo(402);
  }

  @Test
  void aTradeNoCreditedInAnotherCampaign_is409_andLeavesNothingReservedHere() {
    fixture.openCampaign("other", 10_000);
    JsonObject first = reward("twice_CASH", "u", "CASH", 400).put("campaignId", "other");
    assertThat(fixture.sendOverHttp(first, "sync").status()).isEqualTo(200);
    long reservedBefore = reserved("sync");

    var again = fixture.sendOverHttp(reward("twice_CASH", "u", "CASH", 400), "sync");

    assertThat(again.status()).as(again.raw()).isEqualTo(409);
    assertThat(again.errorCode()).isEqualTo("IDEMPOTENCY_CONFLICT");
    assertThat(trades()).doesNotContainKey("twice_CASH");
    assertThat(reserved("sync")).isEqualTo(reservedBefore);
  }

  private long reserved(String campaign) {
    return fixture.rewards().sdk().parts().budget().state(campaign).reserved().fen();
  }

  private Map<String, ?> trades() {
    return fixture.rewards().sdk().parts().budget().trades("sync");
  }

  private static JsonObject reward(String tradeNo, String user, String kind, long amount) {
    return JsonObject.of(
        "tradeNo",
        tradeNo,
        "userId",
        user,
        "campaignId",
        "sync",
        "scene",
        "sync",
        "type",
        "SYNC_" + kind,
        "amount",
        amount,
        "desc",
        "sync " + kind);
  }
}
