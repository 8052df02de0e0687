package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.embedded.EmbeddedRedis;
import hongbao.core.campaign.TapOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Redis restarts with a state from before the campaign was created: everything of it is gone — its
 * pools, its budget's layout, keys and trades, the coupon type its prizes made, the tradeNo claims.
 * The repair loop notices the new run id and arms the campaign again from the books: the prize type
 * and the budget first, then the pools with the wins the reward book holds (before, it rebuilt the
 * pools only: the budget stayed gone). Taps go on winning, every prize is won once, the closer
 * returns exactly what no win took, and the reconciler is clean.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RainKeysLossTest {

  private static final int MAX_WINS = 2;
  private static final long CASH_PRIZES = 1_900;
  private static final long VIP_PRIZES = 100;
  private static final long PRIZES = CASH_PRIZES + VIP_PRIZES;
  private static final long BUDGET = 3_000;
  private static final int BEFORE = 600;

  private RestartableRain rain;
  private EmbeddedRedis redis;
  private RainFixture fixture;

  @BeforeAll
  void start() throws Exception {
    rain = new RestartableRain("rain-keys-loss", Map.of());
    redis = rain.redis;
    fixture = rain.fixture;
  }

  @AfterAll
  void stop() throws Exception {
    if (rain != null) {
      rain.close();
    }
  }

  @AfterEach
  void reconciled() {
    fixture.service.assertReconciled();
  }

  @Test
  void aRedisThatNeverHadTheCampaign_getsItsTypeBudgetAndPoolsBack_andTheRoundEndsExact()
      throws Exception {
    Path empty = redis.snapshot(rain.snapshots.resolve("before-the-campaign.aof"));
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String id =
        fixture.created(
            campaign(
                BUDGET,
                MAX_WINS,
                10,
                round(starts, 60, prize("CASH", 1, CASH_PRIZES), prize("VIP", 1, VIP_PRIZES))));
    // The round's last second: every tap draws; the clock stands still until the round is over.
    fixture.clock.advance(Duration.between(fixture.clock.instant(), starts.plusMillis(59_500)));
    var wins = new ConcurrentHashMap<String, TapOutcome.Won>();
    var perUser = new ConcurrentHashMap<String, AtomicInteger>();
    fixture.tap(id, RainFixture.users("before-", BEFORE), 1, wins, perUser);
    fixture.books.awaitCredited(id, BEFORE, Duration.ofSeconds(60));

    redis.restartFrom(empty);
    var budget = fixture.service.hongbao().rewards().sdk().parts().budget();
    assertThat(budget.state(id)).as("the budget is gone with the rest").isNull();

    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> prizesLeft(id) == PRIZES - BEFORE);
    assertThat(budget.state(id)).as("opened again from the books").isNotNull();

    var again = new ArrayList<>(RainFixture.users("before-", BEFORE));
    again.addAll(RainFixture.users("after-", 1_000));
    fixture.tap(id, again, MAX_WINS + 1, wins, perUser);

    assertThat(wins).as("every prize once, none twice").hasSize((int) PRIZES);
    assertThat(perUser.values()).allSatisfy(n -> assertThat(n.get()).isLessThanOrEqualTo(MAX_WINS));
    assertThat(wins.values().stream().filter(w -> w.type().equals("VIP")).count())
        .isEqualTo(VIP_PRIZES);
    fixture.books.awaitCredited(id, PRIZES, Duration.ofSeconds(60));
    assertThat(fixture.books.rewards(id)).as("each win credited once").isEqualTo(PRIZES);

    fixture.pastReturnGrace(fixture.rain().campaigns().get(id));
    assertThat(fixture.awaitReturned(id, Duration.ofSeconds(120))).isEqualTo(BUDGET - CASH_PRIZES);
    assertThat(budget.trades(id).keySet())
        .as("every win has its trade again")
        .isEqualTo(wins.keySet());
    assertThat(fixture.escrow(id)).isZero();
    assertThat(fixture.returnTransfers(id)).isEqualTo(1);
  }

  private long prizesLeft(String id) {
    return fixture.rain().service().view(id).rounds().getFirst().prizesLeft();
  }
}
