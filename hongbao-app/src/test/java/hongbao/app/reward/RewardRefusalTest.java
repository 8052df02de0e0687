package hongbao.app.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.core.reward.FailureLog;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * An issuer that refuses some users for good (422), as one refuses a user it will never serve. Each
 * refused reward is called once, recorded as refused and written to the failure stream at once (no
 * attempts spent on it); the reconciler names exactly those. An operator's retry is answered from
 * the reward book, without calling the issuer again, and the reward comes back to the failure
 * stream: a retry must not lose it, even when it fails again before the retry has finished.
 *
 * <p>Its own Redis and schema, as {@link RewardFailureTest}: the failure stream outlives the test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RewardRefusalTest {

  private static final int EACH = 3;

  /** Past it, an accepted reward that is neither credited nor failed is a discrepancy. */
  private static final Duration STUCK_AFTER = Duration.ofSeconds(1);

  private RewardFixture fixture;
  private IssuerSimulator issuer;

  @BeforeAll
  void start() {
    try {
      fixture =
          RewardFixture.onItsOwn(
              "reward-refusal",
              Map.of("HONGBAO_REWARD_STUCK_AFTER_SECONDS", Long.toString(STUCK_AFTER.toSeconds())));
      issuer =
          IssuerSimulator.start(
              new IssuerSimulator.Settings(0, 100_000, 0, Duration.ZERO), Clock.systemUTC(), 17);
    } catch (RuntimeException | Error e) {
      stop();
      throw e;
    }
  }

  @AfterAll
  void stop() {
    if (issuer != null) {
      issuer.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void aUserRefusedForGood_isCalledOnce_failsAtOnce_andARetryBringsTheRewardBack() {
    // MASSIVE: Kafka for 80% of users by hash, the Redis streams for the others.
    fixture.putType(
        "VIP_PASS",
        JsonObject.of(
            "kind",
            "COUPON",
            "ratePerSecond",
            1_000,
            "burst",
            100,
            "queue",
            "MASSIVE",
            "issuerUrl",
            issuer.url()));
    fixture.openCampaign("refusing", 10_000);
    var fans = new ArrayList<String>();
    var banned = new ArrayList<String>();
    for (int i = 0; i < EACH; i++) {
      issuer.refuseUser("banned-" + i);
      send(fans, "fan_" + i, "fan-" + i);
      send(banned, "banned_" + i, "banned-" + i);
    }

    fixture.awaitAllCredited(fans, Duration.ofSeconds(30));
    FailureLog failures = fixture.rewards().failures();
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> failures.tradeNos(100).containsAll(banned));

    // One call each: a final refusal is not retried.
    var seen = issuer.snapshot();
    assertThat(seen.calls()).isEqualTo(2L * EACH);
    assertThat(seen.declined()).isEqualTo(EACH);
    assertThat(seen.errors()).isZero();
    assertThat(seen.issuedByType()).isEqualTo(Map.of("VIP_PASS", EACH));
    assertThat(failures.tradeNos(100)).containsExactlyInAnyOrderElementsOf(banned);
    assertThat(failures.entries(100))
        .allSatisfy(
            entry ->
                assertThat(entry)
                    .contains("refused by the issuer: issuer answered 422: this user may not"));
    assertThat(banned).noneMatch(fixture::isCredited);
    assertNamedByTheReconciler(banned);

    // The operator retries each: answered from the reward book, it fails again, with a new entry.
    Set<String> before = ids(failures);
    for (String tradeNo : banned) {
      var retried = fixture.retryFailure(tradeNo);
      assertThat(retried.status()).as(retried.raw()).isEqualTo(200);
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> failures.failures(100).stream().noneMatch(f -> before.contains(f.id())));
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> failures.tradeNos(100).size() == EACH);
    assertThat(failures.tradeNos(100)).containsExactlyInAnyOrderElementsOf(banned);
    assertThat(issuer.snapshot().calls()).isEqualTo(2L * EACH);
    assertThat(banned).noneMatch(fixture::isCredited);
    assertNamedByTheReconciler(banned);
  }

  private void send(List<String> tradeNos, String tradeNo, String user) {
    var answer =
        fixture.sendOverHttp(
            JsonObject.of(
                "tradeNo", tradeNo,
                "userId", user,
                "campaignId", "refusing",
                "scene", "refusal",
                "type", "VIP_PASS",
                "amount", 1,
                "desc", "a pass"),
            null);
    assertThat(answer.status()).as(answer.raw()).isEqualTo(202);
    tradeNos.add(tradeNo);
  }

  private static Set<String> ids(FailureLog failures) {
    return failures.failures(100).stream().map(FailureLog.Failure::id).collect(Collectors.toSet());
  }

  /** Once every reward is past the stuck threshold: each refused one named once, nothing else. */
  private void assertNamedByTheReconciler(List<String> refused) {
    long past = System.currentTimeMillis() + STUCK_AFTER.toMillis() + 500;
    await()
        .atMost(STUCK_AFTER.plusSeconds(5))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> System.currentTimeMillis() > past);
    var answer = fixture.api.get("/api/v1/admin/reconciliation", fixture.admin);
    assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
    assertThat(answer.json().getBoolean("ok")).as(answer.raw()).isFalse();
    List<String> lines =
        answer.json().getJsonArray("discrepancies").stream().map(String.class::cast).toList();
    assertThat(lines).as(answer.raw()).hasSize(refused.size());
    for (String tradeNo : refused) {
      assertThat(lines).filteredOn(line -> line.matches(".*\\b" + tradeNo + "\\b.*")).hasSize(1);
    }
  }
}
