package hongbao.app.reward;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A Redis consumer's batch that takes longer than the reclaim idle: a throttled type's events wait
 * for their tokens with the batch unacknowledged. The consumer keeps claiming the events it is
 * still working on, so no reclaimer hands one out a second time, and none is counted as delivered
 * too often: with one delivery allowed, a single reclaim of the batch would send every event still
 * waiting to the failure stream while its first handler credits it.
 *
 * <p>Own Redis and schema: a defect here leaves failure entries that every later reconciliation on
 * shared backends would report.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RewardSlowBatchTest {

  private static final int REWARDS = 30;

  /** REWARDS at this rate take three times the reclaim idle. */
  private static final int RATE_PER_SECOND = 10;

  private static final Duration RECLAIM_IDLE = Duration.ofSeconds(1);

  private RewardFixture fixture;
  private IssuerSimulator issuer;

  @BeforeAll
  void start() {
    try {
      fixture =
          RewardFixture.onItsOwn(
              "reward-slow-batch",
              Map.of(
                  // Every user's events on the Redis streams, none on Kafka.
                  "HONGBAO_REWARD_QUEUES",
                  "EXPRESS=redis:rewards-express|kafka:rewards-express|100",
                  "HONGBAO_RECLAIM_IDLE_MILLIS",
                  Long.toString(RECLAIM_IDLE.toMillis()),
                  "HONGBAO_MAX_DELIVERIES",
                  "1"));
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
  void aBatchSlowerThanTheReclaimIdle_isHandledOnce_andNothingFails() {
    fixture.putType(
        "SLOW_GEM",
        JsonObject.of(
            "kind",
            "ITEM",
            "ratePerSecond",
            RATE_PER_SECOND,
            "burst",
            1,
            "queue",
            "EXPRESS",
            "issuerUrl",
            issuer.url()));
    fixture.openCampaign("slow", 1_000);
    // The consumer is paused while the events arrive, so that they wait in one batch.
    fixture.rewardsSwitch(false);
    var tradeNos = new ArrayList<String>();
    for (int i = 0; i < REWARDS; i++) {
      String tradeNo = "gem_" + i;
      var answer =
          fixture.sendOverHttp(
              JsonObject.of(
                  "tradeNo", tradeNo,
                  "userId", "gem-user-" + i,
                  "campaignId", "slow",
                  "scene", "slow-batch",
                  "type", "SLOW_GEM",
                  "amount", 1,
                  "desc", "a gem"),
              null);
      assertThat(answer.status()).as(answer.raw()).isEqualTo(202);
      tradeNos.add(tradeNo);
    }
    assertThat(tradeNos).noneMatch(fixture::isCredited);
    fixture.rewardsSwitch(true);

    fixture.awaitAllCredited(tradeNos, Duration.ofSeconds(30));
    var stats = issuer.snapshot();
    assertThat(stats.issuedByType()).isEqualTo(Map.of("SLOW_GEM", REWARDS));
    assertThat(stats.repeats()).isZero();
    // The bucket held the batch back for about three reclaim idles.
    List<Long> issuedAt = issuer.issuedTimes("SLOW_GEM");
    assertThat(Collections.max(issuedAt) - Collections.min(issuedAt))
        .isGreaterThan(2 * RECLAIM_IDLE.toMillis());
    assertThat(fixture.rewards().failures().tradeNos(100)).isEmpty();

    fixture.service.assertReconciled();
  }
}
