package hongbao.redis.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.money.Amount;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardBudget;
import hongbao.core.reward.RewardBudget.Freeze;
import hongbao.core.reward.RewardBudget.Reservation;
import hongbao.redis.LuaScript;
import hongbao.redis.RedisLink;
import hongbao.redis.TestRedis;
import hongbao.redis.campaign.RedisBudgetClosing;
import io.lettuce.core.ScriptOutputType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RedisRewardBudgetTest {

  private static final AtomicLong IDS = new AtomicLong();

  /** The Redis under test: one server here, a cluster in the subclass. */
  RedisLink redis() {
    return TestRedis.link();
  }

  private final RewardKeys keys = new RewardKeys("t" + System.nanoTime());
  private final RedisRewardBudget budget =
      new RedisRewardBudget(redis(), keys, 8, Clock.systemUTC());

  private static Reward reward(String campaign, String tradeNo, long fen) {
    return new Reward(
        tradeNo, "u" + tradeNo, campaign, "rain", "CASH", Amount.fen(fen), "", Instant.EPOCH);
  }

  /**
   * A reward that costs nothing (every COUPON and ITEM) can be released like any other: a
   * synchronous coupon the issuer refused or could not take, a sync send while rewards are switched
   * off, a send no queue would take. Lua's -0 reached HINCRBY as "-0", which Redis refuses.
   */
  @Test
  void release_ofAZeroCostReservation_forgetsTheTrade() {
    String campaign = opened(1_000);
    Reward coupon =
        new Reward(
            campaign + "-coupon", "u1", campaign, "shop", "TEA", Amount.fen(1), "", Instant.EPOCH);
    assertThat(budget.reserve(coupon, Amount.ZERO, "tok")).isInstanceOf(Reservation.Reserved.class);

    budget.release(coupon);

    assertThat(budget.trades(campaign)).doesNotContainKey(coupon.tradeNo());
    assertThat(budget.reserve(coupon, Amount.ZERO, "tok2"))
        .as("the tradeNo may be used again")
        .isInstanceOf(Reservation.Reserved.class);
  }

  @Test
  void reserve_racingFromManyThreads_neverExceedsTheBudget_andSpendsItAllByBorrowing()
      throws Exception {
    String campaign = opened(10_000);
    var pool = Executors.newFixedThreadPool(16);
    var attempts = new ArrayList<Future<Reservation>>();
    for (int i = 0; i < 2_000; i++) {
      Reward reward = reward(campaign, campaign + "-" + i, 7);
      attempts.add(
          pool.submit(
              (Callable<Reservation>) () -> budget.reserve(reward, reward.amount(), "tok")));
    }
    long reserved = 0;
    for (Future<Reservation> attempt : attempts) {
      if (attempt.get() instanceof Reservation.Reserved) {
        reserved += 7;
      }
    }
    pool.shutdown();

    var state = budget.state(campaign);
    assertThat(reserved).isEqualTo(state.reserved().fen()).isLessThanOrEqualTo(10_000);
    assertThat(state.allowance().fen()).isLessThanOrEqualTo(10_000);
    assertThat(reserved)
        .as("every key borrowed what the others had left: each reward that fits is reserved")
        .isEqualTo(10_000 / 7 * 7);
    assertThat(budget.trades(campaign)).hasSize((int) (reserved / 7));
  }

  /**
   * Near the end of a budget, racing reservations borrow each other's allowance back and forth;
   * none may be refused while the keys together still have room for it. Costs of a tenth of a key's
   * share, so the last rewards of every campaign all borrow at once.
   */
  @Test
  void reserve_atTheEndOfTheBudget_isRefusedOnlyWhenNothingFits() throws Exception {
    var pool = Executors.newFixedThreadPool(32);
    try {
      for (int c = 0; c < 20; c++) {
        String campaign = opened(10_000);
        var attempts = new ArrayList<Future<Reservation>>();
        for (int i = 0; i < 200; i++) {
          Reward reward = reward(campaign, campaign + "-" + i, 888);
          attempts.add(
              pool.submit(
                  (Callable<Reservation>) () -> budget.reserve(reward, reward.amount(), "tok")));
        }
        long reserved = 0;
        for (Future<Reservation> attempt : attempts) {
          if (attempt.get() instanceof Reservation.Reserved) {
            reserved += 888;
          }
        }
        assertThat(reserved).as("campaign %s", campaign).isEqualTo(10_000 / 888 * 888);
        assertThat(budget.state(campaign).reserved().fen()).isEqualTo(reserved);
      }
    } finally {
      pool.shutdown();
    }
  }

  /**
   * A rain's budget is exactly what its prizes cost: every drawn win must be reserved, the last one
   * included, however many taps race for the last fen. A win refused here is told MISSED and then
   * issued by the campaign's closer, which finds the room the race hid.
   */
  @Test
  void reserve_ofABudgetExactlyItsRewards_racingFromManyThreads_reservesEveryOne()
      throws Exception {
    var pool = Executors.newFixedThreadPool(48);
    try {
      for (int c = 0; c < 20; c++) {
        long[] costs = new long[240];
        long total = 0;
        for (int i = 0; i < costs.length; i++) {
          costs[i] = 50 + (i * 37) % 150;
          total += costs[i];
        }
        String campaign = opened(total);
        var start = new CountDownLatch(1);
        var attempts = new ArrayList<Future<Reservation>>();
        for (int i = 0; i < costs.length; i++) {
          Reward reward = reward(campaign, campaign + "-" + i, costs[i]);
          attempts.add(
              pool.submit(
                  (Callable<Reservation>)
                      () -> {
                        start.await();
                        return budget.reserve(reward, reward.amount(), "tok");
                      }));
        }
        start.countDown();
        var refused = new ArrayList<Reservation>();
        for (Future<Reservation> attempt : attempts) {
          Reservation reservation = attempt.get();
          if (!(reservation instanceof Reservation.Reserved)) {
            refused.add(reservation);
          }
        }
        assertThat(refused).as("campaign %s of %d fen", campaign, total).isEmpty();
        assertThat(budget.state(campaign).reserved().fen()).isEqualTo(total);
      }
    } finally {
      pool.shutdown();
    }
  }

  /**
   * An edit of a scheduled rain opens its budget again under a newer version: the keys take the new
   * budget (larger or smaller) over the same number of keys, another instance sees it at once, an
   * arming of an older version changes nothing, and a key already spent from is never resized.
   */
  @Test
  void open_aNewerVersion_resizesTheBudget_once_andNeverOverAReservation() {
    String campaign = "c" + IDS.incrementAndGet();
    var other = new RedisRewardBudget(redis(), keys, 8, Clock.systemUTC());
    budget.open(campaign, Amount.fen(10_000));
    assertThat(other.state(campaign).budget()).isEqualTo(Amount.fen(10_000));

    budget.open(campaign, Amount.fen(25_000), 2);
    budget.open(campaign, Amount.fen(25_000), 2);
    var grown = other.state(campaign);
    assertThat(grown.budget()).isEqualTo(Amount.fen(25_000));
    assertThat(grown.allowance()).isEqualTo(Amount.fen(25_000));
    budget.open(campaign, Amount.fen(10_000), 1);
    assertThat(other.state(campaign).allowance())
        .as("an old version")
        .isEqualTo(Amount.fen(25_000));

    other.open(campaign, Amount.fen(4_000), 3);
    var cut = budget.state(campaign);
    assertThat(cut.budget()).isEqualTo(Amount.fen(4_000));
    assertThat(cut.allowance()).isEqualTo(Amount.fen(4_000));
    Reward reward = reward(campaign, campaign + "-0", 3_000);
    assertThat(budget.reserve(reward, reward.amount(), "tok"))
        .isInstanceOf(Reservation.Reserved.class);
    Reward over = reward(campaign, campaign + "-1", 1_001);
    assertThat(budget.reserve(over, over.amount(), "tok"))
        .as("the cut budget is the limit")
        .isInstanceOf(Reservation.Insufficient.class);

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> budget.open(campaign, Amount.fen(9_000), 4))
        .isInstanceOf(hongbao.core.Invariants.InvariantViolation.class)
        .hasMessageContaining("spent from");
    assertThat(budget.state(campaign).reserved()).isEqualTo(Amount.fen(3_000));
  }

  /**
   * An edit freezes the budget before it commits: a reward sent then is refused as an outage (sent
   * again later) and no key lends; the resize at the new version lets the keys go, and so does a
   * thaw by the same edit. Once ended, a freeze answers reservations LAPSED and still lends nothing
   * until it is let go (the sender asks the books first); a freeze not ended is not let go that
   * way. A second edit cannot freeze nor thaw the first one's live freeze. A budget reserved from
   * cannot be frozen, and no key of it is left frozen.
   */
  @Test
  void aFrozenBudget_takesNoReservationUntilTheResize_andOneSpentFromIsNotFrozen() {
    String campaign = opened(8_000);
    Instant later = Instant.now().plusSeconds(30);
    assertThat(budget.freeze(campaign, later, "edit-a")).isEqualTo(Freeze.FROZEN);
    assertThat(budget.freeze(campaign, later, "edit-b")).isEqualTo(Freeze.EDIT_IN_PROGRESS);
    budget.thaw(campaign, "edit-b");
    assertThat(frozenKeys(campaign)).as("edit-b lets go of nothing of edit-a's").isEqualTo(8);
    Reward during = reward(campaign, campaign + "-during", 300);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> budget.reserve(during, during.amount(), "tok"))
        .isInstanceOf(hongbao.core.Unavailable.class)
        .hasMessageContaining("resized by an edit");
    Long lent =
        LuaScript.fromResource("budget_lend.lua")
            .run(redis(), ScriptOutputType.INTEGER, new String[] {keys.budget(campaign, 1)}, "500");
    assertThat(lent).as("a frozen key lends nothing, and says so").isEqualTo(-1L);

    budget.open(campaign, Amount.fen(4_000), 2);
    assertThat(frozenKeys(campaign)).isZero();
    assertThat(budget.reserve(during, during.amount(), "tok"))
        .isInstanceOf(Reservation.Reserved.class);
    assertThat(budget.state(campaign).budget()).isEqualTo(Amount.fen(4_000));
    assertThat(budget.freeze(campaign, later, "edit-c"))
        .as("reserved from: the terms are fixed")
        .isEqualTo(Freeze.SPENT_FROM);
    assertThat(frozenKeys(campaign)).as("a refused freeze leaves no key frozen").isZero();

    String thawed = opened(8_000);
    assertThat(budget.freeze(thawed, later, "edit-d")).isEqualTo(Freeze.FROZEN);
    budget.thaw(thawed, "edit-d");
    assertThat(frozenKeys(thawed)).isZero();

    String expired = opened(8_000);
    assertThat(budget.freeze(expired, Instant.now().minusSeconds(1), "edit-e"))
        .isEqualTo(Freeze.FROZEN);
    Reward two = reward(expired, expired + "-1", 100);
    assertThat(budget.reserve(two, two.amount(), "tok"))
        .as("an ended freeze: whether its edit committed is for the books to say")
        .isInstanceOf(Reservation.LapsedFreeze.class);
    Long lentWhenEnded =
        LuaScript.fromResource("budget_lend.lua")
            .run(redis(), ScriptOutputType.INTEGER, new String[] {keys.budget(expired, 1)}, "500");
    assertThat(lentWhenEnded).as("nor does an ended freeze lend").isEqualTo(-1L);
    budget.thawLapsed(expired, budget.lapsed(expired));
    assertThat(frozenKeys(expired)).isZero();
    assertThat(budget.reserve(two, two.amount(), "tok")).isInstanceOf(Reservation.Reserved.class);
    String live = opened(8_000);
    assertThat(budget.freeze(live, later, "edit-f")).isEqualTo(Freeze.FROZEN);
    budget.thawLapsed(live, budget.lapsed(live));
    assertThat(frozenKeys(live)).as("a freeze that has not ended stays").isEqualTo(8);
    String renewed = opened(8_000);
    assertThat(budget.freeze(renewed, Instant.now().minusSeconds(2), "edit-r"))
        .isEqualTo(Freeze.FROZEN);
    RewardBudget.Lapsed seen = budget.lapsed(renewed);
    assertThat(seen.none()).isFalse();
    // Another edit takes the ended freeze over after the books were read (its own, also ended).
    assertThat(budget.freeze(renewed, Instant.now().minusSeconds(1), "edit-s"))
        .isEqualTo(Freeze.FROZEN);
    budget.thawLapsed(renewed, seen);
    assertThat(frozenKeys(renewed))
        .as("renewed after the books were read: another freeze, and it stays")
        .isEqualTo(8);

    String handedOver = opened(8_000);
    assertThat(budget.freeze(handedOver, Instant.now().minusSeconds(1), "edit-g"))
        .isEqualTo(Freeze.FROZEN);
    assertThat(budget.freeze(handedOver, later, "edit-h"))
        .as("an ended freeze holds off no other edit")
        .isEqualTo(Freeze.FROZEN);
    assertThat(budget.freeze(handedOver, later.plusSeconds(30), "edit-h"))
        .as("its own edit freezes again, until later")
        .isEqualTo(Freeze.FROZEN);
    assertThat(budget.freeze(handedOver, later, "edit-g")).isEqualTo(Freeze.EDIT_IN_PROGRESS);
  }

  /**
   * Keys left frozen beside one that is not (an arming or a thaw that failed part way): a
   * reservation larger than its own key's room cannot borrow from them, and that is no want of
   * budget (a 402, and for a rain a drawn win never issued). An ended freeze answers LAPSED, for
   * the sender to settle from the books; a live one is an outage to retry. Let go, the room is
   * lent.
   */
  @Test
  void aReservationNeedingTheRoomOfFrozenKeys_isNoWantOfBudget() {
    String campaign = opened(8_000);
    Reward big = reward(campaign, campaign + "-big", 1_500);
    String own = keys.budget(campaign, Math.floorMod(big.tradeNo().hashCode(), 8));

    assertThat(budget.freeze(campaign, Instant.now().minusSeconds(1), "edit-a"))
        .isEqualTo(Freeze.FROZEN);
    redis().sync().hdel(own, "frozen");
    assertThat(budget.lapsedFreeze(campaign)).isTrue();
    assertThat(budget.reserve(big, big.amount(), "tok"))
        .isInstanceOf(Reservation.LapsedFreeze.class);

    assertThat(budget.freeze(campaign, Instant.now().plusSeconds(30), "edit-b"))
        .isEqualTo(Freeze.FROZEN);
    redis().sync().hdel(own, "frozen");
    assertThat(budget.lapsedFreeze(campaign)).as("frozen, not ended").isFalse();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> budget.reserve(big, big.amount(), "tok"))
        .isInstanceOf(hongbao.core.Unavailable.class);

    budget.thaw(campaign, "edit-b");
    assertThat(budget.reserve(big, big.amount(), "tok")).isInstanceOf(Reservation.Reserved.class);
    assertThat(budget.state(campaign).reserved()).isEqualTo(Amount.fen(1_500));
  }

  /** A new campaign's budget, opened at version 1. */
  private String opened(long fen) {
    String campaign = "c" + IDS.incrementAndGet();
    budget.open(campaign, Amount.fen(fen));
    return campaign;
  }

  private long frozenKeys(String campaign) {
    long frozen = 0;
    for (int k = 0; k < 8; k++) {
      if (redis().sync().hexists(keys.budget(campaign, k), "frozen")) {
        frozen++;
      }
    }
    return frozen;
  }

  /**
   * The closer arms a campaign's budget just before it closes it; keys a failover lost in between
   * are an outage for its next pass, not a broken invariant that would stop the closer for every
   * campaign.
   */
  @Test
  void closingABudgetWhoseKeysWereLost_isAnOutage() {
    String gone = opened(1_000);
    redis().sync().hdel(keys.campaigns(), gone);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new RedisBudgetClosing(redis(), keys).close(gone))
        .isInstanceOf(hongbao.core.Unavailable.class)
        .hasMessageContaining("lost its budget keys");

    String partly = opened(1_000);
    redis().sync().del(keys.budget(partly, 1));
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new RedisBudgetClosing(redis(), keys).close(partly))
        .isInstanceOf(hongbao.core.Unavailable.class)
        .hasMessageContaining("budget key 1");
  }

  /**
   * A borrower lends allowance off one key, the campaign's keys are closed, and then the borrower
   * grants what it took to its own key: the grant must not raise a closed key's cap, or a
   * reservation after the close would be paid from an escrow already returned. An asynchronous
   * send's reservation is not released after the close (the closing counted it out); nor may the
   * room an undone one leaves be reserved again.
   */
  @Test
  void afterTheClose_aLateGrantIsRefused_andNothingIsReservedAgain() {
    String campaign = opened(8_000);
    Reward before = reward(campaign, campaign + "-before", 300);
    assertThat(budget.reserve(before, before.amount(), "tok"))
        .isInstanceOf(Reservation.Reserved.class);
    Long lent =
        LuaScript.fromResource("budget_lend.lua")
            .run(redis(), ScriptOutputType.INTEGER, new String[] {keys.budget(campaign, 1)}, "500");
    assertThat(lent).isEqualTo(500);

    Amount closed = new RedisBudgetClosing(redis(), keys).close(campaign);
    Long granted =
        LuaScript.fromResource("budget_grant.lua")
            .run(
                redis(),
                ScriptOutputType.INTEGER,
                new String[] {keys.budget(campaign, 0)},
                Long.toString(lent));

    assertThat(closed).isEqualTo(Amount.fen(300));
    assertThat(granted).as("refused on a closed key").isZero();
    assertThat(budget.state(campaign).allowance()).isEqualTo(closed);
    // An asynchronous send whose claim failed after the close keeps its reservation: the closing
    // counted it out of the return, and released, its cash would stay in the escrow with no trade.
    assertThat(budget.releaseUnlessReplayed(before)).isFalse();
    assertThat(budget.trades(campaign)).containsOnlyKeys(before.tradeNo());
    assertThat(budget.state(campaign).reserved()).isEqualTo(Amount.fen(300));
    // Released as undone (a synchronous issue that failed, a 409), it leaves room on its key, but
    // the closing counted it out: nothing is reserved there either.
    budget.release(before);
    assertThat(budget.state(campaign).reserved()).isEqualTo(Amount.ZERO);
    Reward again = reward(campaign, campaign + "-again", 300);
    assertThat(budget.reserve(again, again.amount(), "tok"))
        .isInstanceOf(Reservation.Insufficient.class);
    for (int k = 0; k < 8; k++) {
      Long lentAfter =
          LuaScript.fromResource("budget_lend.lua")
              .run(
                  redis(),
                  ScriptOutputType.INTEGER,
                  new String[] {keys.budget(campaign, k)},
                  "1000");
      assertThat(lentAfter)
          .as("a closed key lends nothing, not even the room a release left")
          .isZero();
    }
    for (int i = 0; i < 16; i++) {
      Reward late = reward(campaign, campaign + "-late-" + i, 100);
      assertThat(budget.reserve(late, late.amount(), "tok"))
          .isInstanceOf(Reservation.Insufficient.class);
    }
    assertThat(budget.state(campaign).reserved()).isEqualTo(Amount.ZERO);
  }

  /**
   * A key Redis lost after it answered DRY, before the grant of what the others lent it: the grant
   * creates nothing (it used to create the key with cap and borrowed alone, and every reservation
   * on it then failed in the script), so the key reads as lost and its campaign is opened again.
   */
  @Test
  void aGrantToAKeyRedisLost_createsNothing_andTheKeyReadsLost() {
    String campaign = opened(8_000);
    Reward reward = reward(campaign, campaign + "-r", 300);
    int k = Math.floorMod(reward.tradeNo().hashCode(), 8);
    redis().sync().del(keys.budget(campaign, k));

    Long granted =
        LuaScript.fromResource("budget_grant.lua")
            .run(redis(), ScriptOutputType.INTEGER, new String[] {keys.budget(campaign, k)}, "500");

    assertThat(granted).isZero();
    assertThat(redis().sync().exists(keys.budget(campaign, k))).isZero();
    assertThat(budget.reserve(reward, reward.amount(), "tok"))
        .isInstanceOf(Reservation.UnknownCampaign.class);
  }

  /**
   * Reservations racing, and borrowing, while the campaign's keys are closed: whatever was reserved
   * once every reservation is answered is exactly the sum the closing counted.
   */
  @Test
  void reserve_racingTheClose_reservesNothingBeyondTheClosingSum() throws Exception {
    var pool = Executors.newFixedThreadPool(16);
    try {
      for (int c = 0; c < 10; c++) {
        String campaign = opened(8_000);
        var attempts = new ArrayList<Future<Reservation>>();
        var halfway = new CountDownLatch(400);
        for (int i = 0; i < 1_600; i++) {
          Reward reward = reward(campaign, campaign + "-" + i, 7);
          attempts.add(
              pool.submit(
                  () -> {
                    try {
                      return budget.reserve(reward, reward.amount(), "tok");
                    } finally {
                      halfway.countDown();
                    }
                  }));
        }
        halfway.await();
        Amount closed = new RedisBudgetClosing(redis(), keys).close(campaign);
        long reserved = 0;
        for (Future<Reservation> attempt : attempts) {
          if (attempt.get() instanceof Reservation.Reserved) {
            reserved += 7;
          }
        }
        assertThat(closed.fen()).as("campaign %s", campaign).isEqualTo(reserved);
        assertThat(budget.state(campaign).reserved()).isEqualTo(closed);
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void reserve_ofOneTradeNo_answersTheFirstTokenToTheSameRequest_andRefusesAnother() {
    String campaign = opened(1_000);
    Reward first = reward(campaign, "same", 100);

    assertThat(budget.reserve(first, first.amount(), "first-token"))
        .isInstanceOf(Reservation.Reserved.class);
    assertThat(budget.reserve(first, first.amount(), "second-token"))
        .isEqualTo(new Reservation.Replay("first-token"));
    assertThat(budget.reserve(reward(campaign, "same", 200), Amount.fen(200), "t"))
        .isInstanceOf(Reservation.Conflict.class);
    assertThat(budget.state(campaign).reserved()).isEqualTo(Amount.fen(100));

    budget.release(first);
    assertThat(budget.state(campaign).reserved()).isEqualTo(Amount.ZERO);
    assertThat(budget.reserve(first, first.amount(), "again"))
        .isInstanceOf(Reservation.Reserved.class);
  }

  /**
   * An asynchronous send that could not queue its event gives its reservation back only if no
   * replay found it: a replay answered ACCEPTED and queued the event, whose credit needs it.
   */
  @Test
  void anAsyncReservation_isReleasedUnlessReplayed_andAReplayedOneStaysReservedAndReadable() {
    String campaign = opened(1_000);
    Reward alone = reward(campaign, "alone", 100);
    Reward replayed = reward(campaign, "replayed", 200);
    budget.reserve(alone, alone.amount(), "t-alone");
    budget.reserve(replayed, replayed.amount(), "t-replayed");
    for (int replay = 0; replay < 2; replay++) {
      assertThat(budget.reserve(replayed, replayed.amount(), "again"))
          .isEqualTo(new Reservation.Replay("t-replayed"));
    }

    assertThat(budget.releaseUnlessReplayed(alone)).isTrue();
    assertThat(budget.releaseUnlessReplayed(replayed)).as("a replay holds it").isFalse();

    assertThat(budget.state(campaign).reserved()).isEqualTo(Amount.fen(200));
    assertThat(budget.trades(campaign)).containsOnlyKeys("replayed");
    assertThat(budget.trades(campaign).get("replayed").cost()).isEqualTo(Amount.fen(200));
    budget.release(replayed);
    assertThat(budget.state(campaign).reserved()).isEqualTo(Amount.ZERO);
  }

  /**
   * A send no queue took marks its trade unqueued, read as such; the marks of a replay and of an
   * unqueued send come in either order, and a replayed trade is kept from the first send's release
   * whichever came first.
   */
  @Test
  void anUnqueuedTrade_isReadAsSuch_andKeepsItsReplayMarkInEitherOrder() {
    String campaign = opened(1_000);
    Reward unqueuedFirst = reward(campaign, "unqueued-first", 100);
    Reward replayedFirst = reward(campaign, "replayed-first", 100);
    budget.reserve(unqueuedFirst, unqueuedFirst.amount(), "t1");
    budget.reserve(replayedFirst, replayedFirst.amount(), "t2");

    budget.markUnqueued(unqueuedFirst);
    budget.markUnqueued(unqueuedFirst);
    assertThat(budget.reserve(unqueuedFirst, unqueuedFirst.amount(), "again"))
        .isEqualTo(new Reservation.Replay("t1"));
    assertThat(budget.reserve(replayedFirst, replayedFirst.amount(), "again"))
        .isEqualTo(new Reservation.Replay("t2"));
    budget.markUnqueued(replayedFirst);
    assertThat(budget.reserve(replayedFirst, replayedFirst.amount(), "again"))
        .isEqualTo(new Reservation.Replay("t2"));

    assertThat(budget.trades(campaign).get("unqueued-first").unqueued()).isTrue();
    assertThat(budget.trades(campaign).get("replayed-first").unqueued()).isTrue();
    assertThat(budget.trades(campaign).get("replayed-first").cost()).isEqualTo(Amount.fen(100));
    assertThat(budget.releaseUnlessReplayed(unqueuedFirst)).isFalse();
    assertThat(budget.releaseUnlessReplayed(replayedFirst)).isFalse();
    assertThat(budget.state(campaign).reserved()).isEqualTo(Amount.fen(200));
    budget.markUnqueued(reward(campaign, "never-reserved", 1)); // no trade: nothing to mark
    assertThat(budget.trades(campaign)).containsOnlyKeys("unqueued-first", "replayed-first");
  }

  /**
   * The closer asks for a page of tradeNos at a time: each is read from the key it hashes to (on a
   * cluster, keys of other nodes), as the whole read would find it, and one without a trade is
   * absent.
   */
  @Test
  void tradesOfAPage_areTheTradesTheWholeReadFinds_forThoseTradeNosOnly() {
    String campaign = opened(100_000);
    var asked = new ArrayList<String>();
    for (int i = 0; i < 200; i++) {
      Reward reward = reward(campaign, campaign + "-" + i, 1 + i % 5);
      budget.reserve(reward, reward.amount(), "tok" + i);
      if (i % 2 == 0) {
        asked.add(reward.tradeNo());
      }
    }
    budget.markUnqueued(reward(campaign, campaign + "-4", 5));
    asked.add(campaign + "-never-reserved");

    var all = budget.trades(campaign);
    var page = budget.trades(campaign, asked);

    assertThat(page).hasSize(100).doesNotContainKey(campaign + "-never-reserved");
    page.forEach((tradeNo, trade) -> assertThat(trade).isEqualTo(all.get(tradeNo)));
    assertThat(page.get(campaign + "-4").unqueued()).isTrue();
    assertThat(page.get(campaign + "-4").cost()).isEqualTo(Amount.fen(5));
    assertThat(budget.trades(campaign, java.util.List.of())).isEmpty();
    assertThat(budget.trades("c-never-opened", asked)).isEmpty();
  }

  @Test
  void aSyncSendsTrade_isReplayedAsSuch_isReadByTheAudit_andIsReleased() {
    String campaign = opened(1_000);
    Reward sync = reward(campaign, "sync", 100);
    Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    assertThat(budget.reserve(sync, sync.amount(), "sync-token", true))
        .isInstanceOf(Reservation.Reserved.class);
    assertThat(budget.reserve(sync, sync.amount(), "again", false))
        .isInstanceOfSatisfying(
            Reservation.SyncReplay.class,
            replay -> {
              assertThat(replay.token()).isEqualTo("sync-token");
              assertThat(replay.acceptedAt()).isBetween(before, Instant.now());
            });
    assertThat(budget.reserve(reward(campaign, "sync", 200), Amount.fen(200), "t", true))
        .isInstanceOf(Reservation.Conflict.class);
    Instant later = Instant.now().plus(Duration.ofMinutes(6));
    Duration window = Duration.ofMinutes(5);
    assertThat(budget.takeOver(sync, before.minus(window), before)).as("too recent").isFalse();
    assertThat(budget.takeOver(sync, later.minus(window), later)).as("stopped").isTrue();
    assertThat(budget.takeOver(sync, later.minus(window), later)).as("taken over").isFalse();
    assertThat(budget.reserve(sync, sync.amount(), "again", false))
        .isInstanceOfSatisfying(
            Reservation.SyncReplay.class,
            replay ->
                assertThat(replay.acceptedAt()).isEqualTo(later.truncatedTo(ChronoUnit.MILLIS)));
    assertThat(budget.trades(campaign).get("sync").cost()).isEqualTo(Amount.fen(100));

    budget.release(sync);
    assertThat(budget.state(campaign).reserved()).isEqualTo(Amount.ZERO);
    assertThat(budget.trades(campaign)).doesNotContainKey("sync");
  }

  @Test
  void reserve_beyondTheBudget_isInsufficient_andOfAnUnknownCampaign_isUnknown() {
    String campaign = opened(500);

    assertThat(budget.reserve(reward(campaign, "a", 400), Amount.fen(400), "t"))
        .isInstanceOf(Reservation.Reserved.class);
    assertThat(budget.reserve(reward(campaign, "b", 101), Amount.fen(101), "t"))
        .isEqualTo(new Reservation.Insufficient(Amount.fen(100)));
    assertThat(budget.reserve(reward("nope", "c", 1), Amount.fen(1), "t"))
        .isInstanceOf(Reservation.UnknownCampaign.class);
  }
}
