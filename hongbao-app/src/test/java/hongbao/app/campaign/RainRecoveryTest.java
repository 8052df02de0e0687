package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.campaign.TapOutcome;
import hongbao.redis.RedisLink;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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

    tap(id, users("first-", FIRST_USERS), 1, wins, perUser);
    assertThat(wins).hasSize(FIRST_USERS);
    fixture.awaitCredited(id, FIRST_USERS, Duration.ofSeconds(60));

    int deleted = loseThePools(id);
    assertThat(deleted).as("the campaign's keys in Redis").isGreaterThan(0);
    assertThat(fixture.rain().service().view(id).rounds().getFirst().prizesLeft())
        .as("nothing left in Redis")
        .isZero();

    tap(id, List.of("late-0"), 1, wins, perUser);
    assertThat(fixture.rain().service().view(id).rounds().getFirst().prizesLeft())
        .as("rebuilt: the first wins taken out again, then the late tap's")
        .isEqualTo(PRIZES - FIRST_USERS - 1);

    // The first users again, up to the limit and beyond; new users until the round is empty.
    var again = new ArrayList<>(users("first-", FIRST_USERS));
    again.addAll(users("late-", NEW_USERS));
    tap(id, again, MAX_WINS + 1, wins, perUser);

    assertThat(wins).as("every prize once, none twice").hasSize((int) PRIZES);
    assertThat(perUser.values()).allSatisfy(n -> assertThat(n.get()).isLessThanOrEqualTo(MAX_WINS));
    long vip = wins.values().stream().filter(w -> w.type().equals("VIP")).count();
    assertThat(vip).isEqualTo(VIP_PRIZES);
    assertThat(fixture.rain().service().view(id).rounds().getFirst().prizesLeft()).isZero();

    fixture.awaitCredited(id, PRIZES, Duration.ofSeconds(60));
    assertThat(fixture.count("SELECT count(*) FROM reward WHERE campaign_id = ?", id))
        .as("each win credited once")
        .isEqualTo(PRIZES);
    assertThat(
            fixture.count(
                "SELECT count(*) FROM (SELECT user_id FROM reward WHERE campaign_id = ?"
                    + " GROUP BY user_id HAVING count(*) > ?) AS over",
                id,
                MAX_WINS))
        .as("users over the limit in the book")
        .isZero();
    assertThat(
            fixture.count("SELECT count(*) FROM reward WHERE campaign_id = ? AND type = 'VIP'", id))
        .isEqualTo(VIP_PRIZES);

    fixture.clock.advance(
        Duration.between(
            fixture.clock.instant(),
            starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1)));
    assertThat(fixture.awaitReturned(id)).isEqualTo(BUDGET - CASH_PRIZES);
    assertThat(fixture.escrow(id)).isZero();
  }

  private static List<String> users(String prefix, int count) {
    var users = new ArrayList<String>(count);
    for (int u = 0; u < count; u++) {
      users.add(prefix + u);
    }
    return users;
  }

  /** Taps {@code times} for each user from 8 threads, keeping every win. */
  private void tap(
      String id,
      List<String> users,
      int times,
      Map<String, TapOutcome.Won> wins,
      Map<String, AtomicInteger> perUser)
      throws Exception {
    var pool = Executors.newFixedThreadPool(8);
    try {
      var futures = new ArrayList<Future<?>>();
      for (String user : users) {
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < times; i++) {
                    if (fixture.rain().taps().tap(id, user) instanceof TapOutcome.Won won) {
                      assertThat(wins.putIfAbsent(won.tradeNo(), won)).isNull();
                      perUser.computeIfAbsent(user, k -> new AtomicInteger()).incrementAndGet();
                    }
                  }
                }));
      }
      for (Future<?> future : futures) {
        future.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Deletes every key of the campaign's slots, as a Redis that lost them would have none. */
  private int loseThePools(String id) {
    int deleted = 0;
    try (var redis = RedisLink.open(fixture.service.hongbao().redisUrl())) {
      ScanArgs match = ScanArgs.Builder.matches("hb:cp:{cp:" + id + ":*").limit(1_000);
      KeyScanCursor<String> cursor = redis.sync().scan(match);
      while (true) {
        if (!cursor.getKeys().isEmpty()) {
          deleted += redis.sync().del(cursor.getKeys().toArray(String[]::new)).intValue();
        }
        if (cursor.isFinished()) {
          break;
        }
        cursor = redis.sync().scan(cursor, match);
      }
    }
    return deleted;
  }
}
