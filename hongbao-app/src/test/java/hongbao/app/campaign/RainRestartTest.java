package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.core.campaign.TapOutcome;
import hongbao.redis.RedisLink;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Redis really restarts, mid-round, with an older state: the service's own Redis process (AOF on,
 * as {@code serve} runs it) is stopped and a new one started on the same port from a copy of its
 * data taken 1,000 wins earlier. Everything Redis held goes back — the pools, the win counters, the
 * recorded wins, and the reward pipeline's budget trades too — and every slot is still open, so no
 * tap would notice. The pool-repair loop the service runs (every sweep interval) sees the new run
 * id and rebuilds the pools from the reward book; then the round finishes exact and the closer
 * issues the trades Redis forgot again before it returns the budget. And a restart with a state
 * from before a campaign existed, which loses its budget and prize type as well.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RainRestartTest extends RainOfItsOwn {

  private static final int MAX_WINS = 2;
  private static final long CASH_PRIZES = 6_900;
  private static final long VIP_PRIZES = 100;
  private static final long PRIZES = CASH_PRIZES + VIP_PRIZES;
  private static final long BUDGET = 10_000;
  private static final int KEPT = 2_000;
  private static final int LOST = 1_000;

  private static final long SMALL_CASH = 1_900;
  private static final long SMALL_VIP = 100;
  private static final long SMALL_PRIZES = SMALL_CASH + SMALL_VIP;
  private static final long SMALL_BUDGET = 3_000;
  private static final int WON_BEFORE = 600;

  RainRestartTest() {
    super("rain-restart", Map.of());
  }

  @AfterEach
  void reconciled() {
    fixture.service.assertReconciled();
  }

  @Test
  void aRestartWithAnOlderState_isNoticedByTheRepairLoop_andTheRoundEndsExact() throws Exception {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String id =
        fixture.created(
            campaign(
                BUDGET,
                MAX_WINS,
                10,
                round(starts, 60, prize("CASH", 1, CASH_PRIZES), prize("VIP", 1, VIP_PRIZES))));
    // The round's last second: every tap draws. The test clock stands still from here on until
    // the round is over, so only the repair loop (on real time) moves while the test waits.
    fixture.clock.advance(Duration.between(fixture.clock.instant(), starts.plusMillis(59_500)));
    var wins = new ConcurrentHashMap<String, TapOutcome.Won>();
    var perUser = new ConcurrentHashMap<String, AtomicInteger>();

    fixture.tap(id, RainFixture.users("kept-", KEPT), 1, wins, perUser);
    fixture.books.awaitCredited(id, KEPT, Duration.ofSeconds(60));
    Set<String> keptTrades = Set.copyOf(trades(id));
    assertThat(keptTrades).isEqualTo(wins.keySet());
    Path older = redis.snapshot(rain.snapshots.resolve("older.aof"));
    String generation = generation();

    fixture.tap(id, RainFixture.users("lost-", LOST), 1, wins, perUser);
    assertThat(wins).hasSize(KEPT + LOST);
    fixture.books.awaitCredited(id, KEPT + LOST, Duration.ofSeconds(60));
    assertThat(trades(id)).hasSize(KEPT + LOST);

    redis.restartFrom(older);
    assertThat(generation()).as("a new run id").isNotEqualTo(generation);
    assertThat(trades(id))
        .as("the older state: the lost wins' trades are gone with it")
        .isEqualTo(keptTrades);

    // The service's loop, not the test, notices the new run id and puts the lost wins back.
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> prizesLeft(id) == PRIZES - KEPT - LOST);
    assertThat(fixture.rain().repair().checkOnce()).as("this run id was repaired already").isZero();

    // Everybody again, up to the limit and beyond; new users until the round is empty.
    var again = new ArrayList<>(RainFixture.users("kept-", KEPT));
    again.addAll(RainFixture.users("lost-", LOST));
    again.addAll(RainFixture.users("new-", 1_500));
    fixture.tap(id, again, MAX_WINS + 1, wins, perUser);

    assertThat(wins).as("every prize once, none twice").hasSize((int) PRIZES);
    assertThat(perUser.values()).allSatisfy(n -> assertThat(n.get()).isLessThanOrEqualTo(MAX_WINS));
    assertThat(wins.values().stream().filter(w -> w.type().equals("VIP")).count())
        .isEqualTo(VIP_PRIZES);
    assertThat(prizesLeft(id)).isZero();

    fixture.books.awaitCredited(id, PRIZES, Duration.ofSeconds(60));
    assertThat(fixture.books.rewards(id)).as("each win credited once").isEqualTo(PRIZES);
    assertThat(fixture.books.usersOver(id, MAX_WINS))
        .as("users over the limit in the book")
        .isZero();
    assertThat(
            fixture.books.value(
                "SELECT coalesce(sum(amount), 0) FROM transfer WHERE kind = 'REWARD'"
                    + " AND campaign_id = ?",
                id))
        .isEqualTo(CASH_PRIZES);

    // The closer issues the wins whose trades Redis forgot again (the book has them: no
    // second credit), then returns exactly what no win took.
    fixture.clock.advance(
        Duration.between(
            fixture.clock.instant(),
            starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1)));
    long closing = System.nanoTime();
    assertThat(fixture.awaitReturned(id, Duration.ofSeconds(120))).isEqualTo(BUDGET - CASH_PRIZES);
    System.out.printf(
        "rain restart: %d wins issued again and the budget returned in %d ms%n",
        LOST, (System.nanoTime() - closing) / 1_000_000);
    assertThat(trades(id)).as("every win has its trade again").isEqualTo(wins.keySet());
    assertThat(fixture.escrow(id)).isZero();
    assertThat(fixture.returnTransfers(id)).isEqualTo(1);
  }

  /**
   * Redis restarts with a state from before the campaign was created: everything of it is gone —
   * its pools, its budget's layout, keys and trades, the coupon type its prizes made (a type no
   * other campaign here uses), the tradeNo claims. The repair loop arms the campaign again from the
   * books: the prize type and the budget first, then the pools with the wins the reward book holds
   * (before, it rebuilt the pools only: the budget stayed gone). Taps go on winning, every prize is
   * won once, the closer returns exactly what no win took.
   */
  @Test
  void aRedisThatNeverHadTheCampaign_getsItsTypeBudgetAndPoolsBack_andTheRoundEndsExact()
      throws Exception {
    Path empty = redis.snapshot(rain.snapshots.resolve("before-the-campaign.aof"));
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String id =
        fixture.created(
            campaign(
                SMALL_BUDGET,
                MAX_WINS,
                10,
                round(starts, 60, prize("CASH", 1, SMALL_CASH), prize("GOLD_TEA", 1, SMALL_VIP))));
    // The round's last second: every tap draws; the clock stands still until the round is over.
    fixture.clock.advance(Duration.between(fixture.clock.instant(), starts.plusMillis(59_500)));
    var wins = new ConcurrentHashMap<String, TapOutcome.Won>();
    var perUser = new ConcurrentHashMap<String, AtomicInteger>();
    fixture.tap(id, RainFixture.users("before-", WON_BEFORE), 1, wins, perUser);
    fixture.books.awaitCredited(id, WON_BEFORE, Duration.ofSeconds(60));

    redis.restartFrom(empty);
    var budget = fixture.service.hongbao().rewards().sdk().parts().budget();
    assertThat(budget.state(id)).as("the budget is gone with the rest").isNull();

    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> prizesLeft(id) == SMALL_PRIZES - WON_BEFORE);
    assertThat(budget.state(id)).as("opened again from the books").isNotNull();

    var again = new ArrayList<>(RainFixture.users("before-", WON_BEFORE));
    again.addAll(RainFixture.users("after-", 1_000));
    fixture.tap(id, again, MAX_WINS + 1, wins, perUser);

    assertThat(wins).as("every prize once, none twice").hasSize((int) SMALL_PRIZES);
    assertThat(perUser.values()).allSatisfy(n -> assertThat(n.get()).isLessThanOrEqualTo(MAX_WINS));
    assertThat(wins.values().stream().filter(w -> w.type().equals("GOLD_TEA")).count())
        .isEqualTo(SMALL_VIP);
    fixture.books.awaitCredited(id, SMALL_PRIZES, Duration.ofSeconds(60));
    assertThat(fixture.books.rewards(id)).as("each win credited once").isEqualTo(SMALL_PRIZES);

    fixture.pastReturnGrace(fixture.rain().campaigns().get(id));
    assertThat(fixture.awaitReturned(id, Duration.ofSeconds(120)))
        .isEqualTo(SMALL_BUDGET - SMALL_CASH);
    assertThat(budget.trades(id).keySet())
        .as("every win has its trade again")
        .isEqualTo(wins.keySet());
    assertThat(fixture.escrow(id)).isZero();
    assertThat(fixture.returnTransfers(id)).isEqualTo(1);
  }

  private long prizesLeft(String id) {
    return fixture.rain().service().view(id).rounds().getFirst().prizesLeft();
  }

  /** The tradeNos the reward budget in Redis holds for the campaign. */
  private Set<String> trades(String id) {
    return new HashSet<>(
        fixture.service.hongbao().rewards().sdk().parts().budget().trades(id).keySet());
  }

  private String generation() {
    try (var link = RedisLink.open(redis.url())) {
      return link.generation();
    }
  }
}
