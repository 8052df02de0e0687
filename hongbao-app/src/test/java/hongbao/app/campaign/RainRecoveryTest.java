package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.core.campaign.PrizeRecovery;
import hongbao.core.campaign.TapOutcome;
import hongbao.redis.RedisLink;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Redis loses a running round's pools — every key of the campaign's slots: sub-pools, win counters,
 * win numbers, recorded wins — and the same users keep tapping. The pools are rebuilt from the
 * reward book before any tap draws again: no prize line gives more than it held, no user passes
 * maxWinsPerUser, every win is credited once, the budget is exact and the reconciler clean.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RainRecoveryTest {

  private static final int MAX_WINS = 2;
  private static final int FIRST_USERS = 3_000;
  private static final int NEW_USERS = 1_500;
  private static final long CASH_PRIZES = 6_900;
  private static final long VIP_PRIZES = 100;
  private static final long PRIZES = CASH_PRIZES + VIP_PRIZES;
  private static final long BUDGET = 10_000;

  private RainFixture fixture;

  @BeforeAll
  void start() {
    fixture = new RainFixture();
  }

  @AfterAll
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @AfterEach
  void reconciled() {
    fixture.service.assertReconciled();
  }

  @Test
  void lostPools_areRebuiltFromTheRewardBook_beforeAnyPrizeIsOfferedAgain() throws Exception {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String id =
        fixture.created(
            campaign(
                BUDGET,
                MAX_WINS,
                10,
                round(starts, 60, prize("CASH", 1, CASH_PRIZES), prize("VIP", 1, VIP_PRIZES))));
    assertThat(fixture.rain().campaigns().get(id).round(1).subPools()).isEqualTo(2);
    // The round's last second: every tap draws.
    fixture.clock.advance(Duration.between(fixture.clock.instant(), starts.plusMillis(59_500)));
    var wins = new ConcurrentHashMap<String, TapOutcome.Won>();
    var perUser = new ConcurrentHashMap<String, AtomicInteger>();

    fixture.tap(id, RainFixture.users("first-", FIRST_USERS), 1, wins, perUser);
    assertThat(wins).hasSize(FIRST_USERS);
    fixture.books.awaitCredited(id, FIRST_USERS, Duration.ofSeconds(60));

    int deleted = loseThePools(id);
    assertThat(deleted).as("the campaign's keys in Redis").isGreaterThan(0);
    assertThat(fixture.rain().service().view(id).rounds().getFirst().prizesLeft())
        .as("nothing left in Redis")
        .isZero();

    fixture.tap(id, List.of("late-0"), 1, wins, perUser);
    assertThat(fixture.rain().service().view(id).rounds().getFirst().prizesLeft())
        .as("rebuilt: the first wins taken out again, then the late tap's")
        .isEqualTo(PRIZES - FIRST_USERS - 1);

    // The first users again, up to the limit and beyond; new users until the round is empty.
    var again = new ArrayList<>(RainFixture.users("first-", FIRST_USERS));
    again.addAll(RainFixture.users("late-", NEW_USERS));
    fixture.tap(id, again, MAX_WINS + 1, wins, perUser);

    assertThat(wins).as("every prize once, none twice").hasSize((int) PRIZES);
    assertThat(perUser.values()).allSatisfy(n -> assertThat(n.get()).isLessThanOrEqualTo(MAX_WINS));
    long vip = wins.values().stream().filter(w -> w.type().equals("VIP")).count();
    assertThat(vip).isEqualTo(VIP_PRIZES);
    assertThat(fixture.rain().service().view(id).rounds().getFirst().prizesLeft()).isZero();

    fixture.books.awaitCredited(id, PRIZES, Duration.ofSeconds(60));
    assertThat(fixture.books.rewards(id)).as("each win credited once").isEqualTo(PRIZES);
    assertThat(fixture.books.usersOver(id, MAX_WINS))
        .as("users over the limit in the book")
        .isZero();
    assertThat(
            fixture.books.value(
                "SELECT count(*) FROM reward WHERE campaign_id = ? AND type = 'VIP'", id))
        .isEqualTo(VIP_PRIZES);

    fixture.clock.advance(
        Duration.between(
            fixture.clock.instant(),
            starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1)));
    assertThat(fixture.awaitReturned(id)).isEqualTo(BUDGET - CASH_PRIZES);
    assertThat(fixture.escrow(id)).isZero();
  }

  /**
   * Another sender's reward in the rain's campaign under a tradeNo that starts like a win's ({@code
   * <campaignId>_1_bonus}: no win number, so the reward route lets it through), of the type and
   * amount of a prize line. It is no win: the audit counted it as one missing from the pools, and
   * the rebuild after a loss put it back in a sub-pool and then failed on every tap, reading a win
   * number out of "bonus".
   */
  @Test
  void anotherSendersRewardUnderATradeNoLikeAWins_isNoWin_toTheAuditOrTheRebuild()
      throws Exception {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String id =
        fixture.created(campaign(BUDGET, MAX_WINS, 10, round(starts, 60, prize("CASH", 1, 100))));
    String lookalike = id + "_1_bonus";
    var sent =
        fixture.api.post(
            "/api/v1/rewards",
            fixture.admin,
            Map.of(),
            io.vertx.core.json.JsonObject.of(
                    "tradeNo",
                    lookalike,
                    "userId",
                    "outsider",
                    "campaignId",
                    id,
                    "type",
                    "CASH",
                    "amount",
                    1)
                .encode());
    assertThat(sent.status()).as(sent.raw()).isEqualTo(202);
    fixture.books.awaitCredited(id, 1, Duration.ofSeconds(30));
    fixture.service.assertReconciled();

    fixture.clock.advance(Duration.between(fixture.clock.instant(), starts.plusMillis(59_500)));
    var wins = new ConcurrentHashMap<String, TapOutcome.Won>();
    var perUser = new ConcurrentHashMap<String, AtomicInteger>();
    fixture.tap(id, RainFixture.users("lookalike-", 10), 1, wins, perUser);
    assertThat(loseThePools(id)).isPositive();
    fixture.tap(id, RainFixture.users("lookalike-after-", 10), 1, wins, perUser);
    assertThat(wins).hasSize(20);
    assertThat(fixture.rain().service().view(id).rounds().getFirst().prizesLeft())
        .as("the twenty wins out of the hundred prizes, and not the other sender's reward")
        .isEqualTo(80);

    fixture.books.awaitCredited(id, 21, Duration.ofSeconds(30));
    fixture.pastReturnGrace(fixture.rain().campaigns().get(id));
    assertThat(fixture.awaitReturned(id)).isEqualTo(BUDGET - 21);
    assertThat(fixture.escrow(id)).isZero();
  }

  /**
   * Redis restarts from an older state (the AOF tail lost): wins it had recorded are gone, their
   * prizes back in the sub-pools, the users' counters lower — and every slot still open, so no tap
   * notices. The repair that runs when Redis's generation changes closes the slots, puts the book's
   * wins back and raises the counters; then the same users tap on.
   */
  @Test
  void olderStateAfterARestart_isRepairedFromTheRewardBook() throws Exception {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String id =
        fixture.created(
            campaign(
                BUDGET,
                MAX_WINS,
                10,
                round(starts, 60, prize("CASH", 1, CASH_PRIZES), prize("VIP", 1, VIP_PRIZES))));
    fixture.clock.advance(Duration.between(fixture.clock.instant(), starts.plusMillis(59_500)));
    var wins = new ConcurrentHashMap<String, TapOutcome.Won>();
    var perUser = new ConcurrentHashMap<String, AtomicInteger>();

    fixture.tap(id, RainFixture.users("kept-", 2_000), 1, wins, perUser);
    Map<String, Dumped> older = dump(id);
    fixture.tap(id, RainFixture.users("lost-", 2_000), 1, wins, perUser);
    assertThat(wins).hasSize(4_000);
    fixture.books.awaitCredited(id, 4_000, Duration.ofSeconds(60));
    restore(id, older);
    assertThat(fixture.rain().service().view(id).rounds().getFirst().prizesLeft())
        .as("the older state: the lost users' prizes are back")
        .isEqualTo(PRIZES - 2_000);

    assertThat(fixture.rain().repair().repairAll()).as("wins put back").isEqualTo(2_000);
    assertThat(fixture.rain().service().view(id).rounds().getFirst().prizesLeft())
        .isEqualTo(PRIZES - 4_000);

    var again = new ArrayList<>(RainFixture.users("kept-", 2_000));
    again.addAll(RainFixture.users("lost-", 2_000));
    again.addAll(RainFixture.users("new-", 1_000));
    fixture.tap(id, again, MAX_WINS + 1, wins, perUser);
    assertThat(wins).as("every prize once, none twice").hasSize((int) PRIZES);
    assertThat(perUser.values()).allSatisfy(n -> assertThat(n.get()).isLessThanOrEqualTo(MAX_WINS));

    fixture.books.awaitCredited(id, PRIZES, Duration.ofSeconds(60));
    assertThat(fixture.books.rewards(id)).isEqualTo(PRIZES);
    fixture.clock.advance(
        Duration.between(
            fixture.clock.instant(),
            starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1)));
    assertThat(fixture.awaitReturned(id)).isEqualTo(BUDGET - CASH_PRIZES);
    assertThat(fixture.escrow(id)).isZero();
  }

  /** A key as DUMP gave it, with its time to live (0: none). */
  private record Dumped(byte[] value, long ttlMillis) {}

  private Map<String, Dumped> dump(String id) {
    var dumped = new java.util.HashMap<String, Dumped>();
    try (var redis = RedisLink.open(fixture.service.hongbao().redisUrl())) {
      for (String key : keysOf(redis, id)) {
        byte[] value = redis.sync().dump(key);
        long ttl = redis.sync().pttl(key);
        if (value != null) {
          dumped.put(key, new Dumped(value, Math.max(0, ttl)));
        }
      }
    }
    return dumped;
  }

  /** Puts the campaign's slots back as they were dumped: what an older AOF holds. */
  private void restore(String id, Map<String, Dumped> older) {
    loseThePools(id);
    try (var redis = RedisLink.open(fixture.service.hongbao().redisUrl())) {
      older.forEach((key, d) -> redis.sync().restore(key, d.ttlMillis(), d.value()));
    }
  }

  /**
   * A tap that found its slot lost waits for the restore (restores on an instance go one at a time)
   * and may come out of it after its round has ended. It must not draw then, in the last moments
   * before the closer counts the round's wins: it answers ENDED and takes no prize.
   */
  @Test
  void aTapThatWaitedOutItsRoundInARestore_answersEnded_andDrawsNothing() throws Exception {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    long budget = 1_000;
    String id = fixture.created(campaign(budget, 1, 10, round(starts, 60, prize("CASH", 1, 100))));

    assertThat(aTapWaitingOutItsRoundInARestore(id, starts)).isEqualTo(TapOutcome.ENDED);

    assertThat(fixture.rain().service().view(id).rounds().getFirst().prizesLeft())
        .as("one prize taken, before the loss")
        .isEqualTo(99);
    fixture.books.awaitCredited(id, 1, Duration.ofSeconds(30));
    fixture.clock.advance(
        Duration.between(
            fixture.clock.instant(),
            starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1)));
    assertThat(fixture.awaitReturned(id)).isEqualTo(budget - 1);
  }

  /**
   * The same when the next round starts as the first ends: the tap was one of the first round and
   * draws nothing in either; it answers MISSED, not ENDED (the rain goes on).
   */
  @Test
  void aTapThatWaitedOutItsRoundInARestore_whileTheNextRuns_answersMissed() throws Exception {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String id =
        fixture.created(
            campaign(
                1_000,
                1,
                10,
                round(starts, 60, prize("CASH", 1, 100)),
                round(starts.plusSeconds(60), 60, prize("CASH", 1, 100))));

    assertThat(aTapWaitingOutItsRoundInARestore(id, starts)).isEqualTo(TapOutcome.MISSED);

    var rounds = fixture.rain().service().view(id).rounds();
    assertThat(rounds.get(0).prizesLeft()).as("one prize taken, before the loss").isEqualTo(99);
    assertThat(rounds.get(1).prizesLeft()).as("none of the next round").isEqualTo(100);
  }

  /**
   * In the last second of the round that starts at {@code starts}: one tap wins, the pools are
   * lost, and a tap waits for the restore, held back, while the clock passes the round's end.
   */
  private TapOutcome aTapWaitingOutItsRoundInARestore(String id, Instant starts) throws Exception {
    // The round's last second: every tap draws.
    fixture.clock.advance(Duration.between(fixture.clock.instant(), starts.plusMillis(59_500)));
    assertThat(fixture.tap(id, "before-the-loss")).isInstanceOf(TapOutcome.Won.class);
    assertThat(loseThePools(id)).isPositive();

    var outcome = new AtomicReference<TapOutcome>();
    var waiter = new AtomicReference<Thread>();
    PrizeRecovery recovery = fixture.rain().recovery();
    recovery.holdingRestores(
        () -> {
          waiter.set(
              Thread.ofPlatform().start(() -> outcome.set(fixture.rain().taps().tap(id, "late"))));
          // Waiting for the restore: parked on the lock this thread holds.
          await()
              .atMost(Duration.ofSeconds(30))
              .until(
                  () ->
                      waiter.get().getState() == Thread.State.WAITING
                          && Arrays.stream(waiter.get().getStackTrace())
                              .anyMatch(frame -> frame.getMethodName().equals("restoreIfLost")));
          // Past the round's end, within the grace before the closer counts its wins.
          fixture.clock.advance(Duration.ofSeconds(1));
        });
    waiter.get().join(60_000);
    return outcome.get();
  }

  /** Deletes every key of the campaign's slots, as a Redis that lost them would have none. */
  private int loseThePools(String id) {
    try (var redis = RedisLink.open(fixture.service.hongbao().redisUrl())) {
      List<String> keys = keysOf(redis, id);
      return keys.isEmpty() ? 0 : redis.sync().del(keys.toArray(String[]::new)).intValue();
    }
  }

  /** Every key of the campaign's slots (one Redis: SCAN sees them all). */
  private static List<String> keysOf(RedisLink redis, String id) {
    var keys = new ArrayList<String>();
    ScanArgs match = ScanArgs.Builder.matches("hb:cp:{cp:" + id + ":*").limit(1_000);
    KeyScanCursor<String> cursor = redis.sync().scan(match);
    while (true) {
      keys.addAll(cursor.getKeys());
      if (cursor.isFinished()) {
        return keys;
      }
      cursor = redis.sync().scan(cursor, match);
    }
  }
}
