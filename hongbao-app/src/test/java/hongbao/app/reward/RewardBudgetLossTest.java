package hongbao.app.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.core.reward.FailureLog;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Redis loses a campaign's budget reservations (the writes a restart with an older state forgets):
 * the budget then accepts more CASH than the campaign's escrow holds. Crediting must not stop for
 * that (it did: the escrow's shortfall was taken for a bug, and the consumer halted for every
 * campaign): the rewards the escrow cannot pay fail, into the failure stream, the others are
 * credited, other campaigns go on, and the reconciler names exactly what the loss destroyed (the
 * forgotten trades) and the rewards that failed for it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RewardBudgetLossTest {

  private static final Duration STUCK_AFTER = Duration.ofSeconds(1);

  private RewardFixture fixture;

  @BeforeAll
  void start() {
    fixture =
        RewardFixture.onItsOwn(
            "reward-budget-loss",
            Map.of("HONGBAO_REWARD_STUCK_AFTER_SECONDS", Long.toString(STUCK_AFTER.toSeconds())));
    fixture.putType("BONUS", JsonObject.of("kind", "CASH", "ratePerSecond", 1_000));
    fixture.openCampaign("lossy", 1_000);
    fixture.openCampaign("sound", 1_000);
  }

  @AfterAll
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void rewardsBeyondTheEscrow_fail_theOthersAreCredited_andTheReconcilerNamesBoth() {
    List<String> before = fixture.sendEach("lossy", "before_", 6, "BONUS");
    fixture.awaitAllCredited(before, Duration.ofSeconds(30));

    forgetReservations("lossy");
    // The budget believes all 1,000 fen free again; the escrow holds 400.
    List<String> after = fixture.sendEach("lossy", "after_", 6, "BONUS");
    FailureLog failures = fixture.rewards().failures();
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                after.stream().filter(fixture::isCredited).count() == 4
                    && failures.tradeNos(100).size() == 2);
    List<String> failed = failures.tradeNos(100);
    assertThat(after).containsAll(failed);
    assertThat(failures.entries(100)).allMatch(entry -> entry.contains("escrow holds less"));
    // Crediting goes on for the other campaigns.
    List<String> sound = fixture.sendEach("sound", "sound_", 3, "BONUS");
    fixture.awaitAllCredited(sound, Duration.ofSeconds(30));

    var books = fixture.rewards().sdk().parts();
    assertThat(fixture.service.hongbao().parts().database().rewards().campaign("lossy"))
        .hasValueSatisfying(c -> assertThat(c.escrow().fen()).isZero());
    assertThat(books.budget().trades("lossy").keySet()).containsExactlyInAnyOrderElementsOf(after);
    RewardFixture.awaitPast(STUCK_AFTER);
    List<String> lines = fixture.discrepancies();
    assertThat(lines).as("%s", lines).hasSize(before.size() + failed.size());
    for (String tradeNo : before) {
      assertThat(lines)
          .filteredOn(line -> line.matches("reward " + tradeNo + ": credited but never accepted"))
          .hasSize(1);
    }
    for (String tradeNo : failed) {
      assertThat(lines)
          .filteredOn(line -> line.startsWith("reward failed") && line.contains(tradeNo))
          .hasSize(1);
    }
  }

  /** What a restart with an older state does to the budget: every reservation forgotten. */
  private void forgetReservations(String campaign) {
    RedisClient client = RedisClient.create(fixture.redisUrl());
    try (var connection = client.connect()) {
      var redis = connection.sync();
      ScanIterator<String> keys =
          ScanIterator.scan(redis, ScanArgs.Builder.matches("*:rwb:{" + campaign + ":*"));
      int budgetKeys = 0;
      while (keys.hasNext()) {
        String key = keys.next();
        if (key.endsWith(":t")) {
          redis.del(key);
        } else if (redis.hexists(key, "used")) {
          redis.hset(key, "used", "0");
          budgetKeys++;
        }
      }
      assertThat(budgetKeys).as("the campaign's budget keys").isPositive();
    } finally {
      client.shutdown();
    }
  }
}
