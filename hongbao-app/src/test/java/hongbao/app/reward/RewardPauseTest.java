package hongbao.app.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.support.Backends;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The rewards switch off for longer than the Redis streams' redelivery limit: the rewards wait,
 * none is sent to the failure stream, and all are credited once the switch is on again. Before the
 * consumers stopped reading and reclaiming while paused, each reclaim counted a delivery and every
 * waiting reward ended as "delivered more than N times".
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RewardPauseTest {

  /** Redelivery limit; with the tests' 1 s reclaim idle it was passed within ~3.5 s of pause. */
  private static final int MAX_DELIVERIES = 2;

  private static final Duration PAUSE = Duration.ofSeconds(6);

  private RewardFixture fixture;

  @BeforeAll
  void start() {
    fixture =
        new RewardFixture(
            Backends.embedded(),
            Map.of("HONGBAO_MAX_DELIVERIES", Integer.toString(MAX_DELIVERIES)));
    // EXPRESS: the Redis streams are its master queue, so every event goes there first.
    fixture.putType(
        "PAUSE_CASH",
        JsonObject.of("kind", "CASH", "ratePerSecond", 1_000, "burst", 100, "queue", "EXPRESS"));
    fixture.openCampaign("pause", 1_000_000);
  }

  @AfterAll
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void rewardsSwitchedOff_pastTheRedeliveryLimit_waitAndAreCreditedAfter() {
    fixture.rewardsSwitch(false);
    List<String> tradeNos = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      String tradeNo = "pause_" + i;
      var answer =
          fixture.sendOverHttp(
              JsonObject.of(
                  "tradeNo", tradeNo,
                  "userId", "pause-user-" + (i % 5),
                  "campaignId", "pause",
                  "scene", "pause",
                  "type", "PAUSE_CASH",
                  "amount", 100,
                  "desc", "paused"),
              null);
      assertThat(answer.status()).as(answer.raw()).isEqualTo(202);
      tradeNos.add(tradeNo);
    }

    // Real time: the streams count idle time and deliveries by Redis's own clock.
    await()
        .during(PAUSE)
        .atMost(PAUSE.plusSeconds(5))
        .pollInterval(Duration.ofMillis(250))
        .until(
            () ->
                fixture.rewards().failures().tradeNos(100).isEmpty()
                    && tradeNos.stream().noneMatch(fixture::isCredited));

    fixture.rewardsSwitch(true);
    fixture.awaitAllCredited(tradeNos, Duration.ofSeconds(60));
    assertThat(fixture.rewards().failures().tradeNos(100)).isEmpty();
    fixture.service.assertReconciled();
  }
}
