package hongbao.app.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.embedded.EmbeddedRedisCluster;
import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.CampaignStore;
import hongbao.core.campaign.Campaigns;
import hongbao.core.campaign.PoolRepair;
import hongbao.core.campaign.PrizeLine;
import hongbao.core.campaign.PrizePools;
import hongbao.core.campaign.PrizeRecovery;
import hongbao.core.campaign.Round;
import hongbao.core.campaign.SubPools;
import hongbao.core.campaign.TapOutcome;
import hongbao.core.campaign.TapService;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import hongbao.redis.RedisLink;
import hongbao.redis.campaign.RedisPrizePools;
import hongbao.testkit.SimClock;
import io.lettuce.core.cluster.SlotHash;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The prize pools and the tap path, unchanged, on an embedded Redis Cluster of three masters: the
 * sub-pools sit in different slots, every script names keys of one slot, and racing taps never take
 * more prizes than a round holds nor give a user more wins than allowed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PrizePoolsOnClusterTest {

  private static final Instant T0 = Instant.parse("2027-02-16T12:00:00Z");

  private EmbeddedRedisCluster cluster;
  private RedisLink redis;
  private RedisPrizePools pools;

  @BeforeAll
  void start() {
    cluster = EmbeddedRedisCluster.start(3);
    redis = RedisLink.open(cluster.url());
    pools = new RedisPrizePools(redis, "hbt");
  }

  @AfterAll
  void stop() {
    if (redis != null) {
      redis.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static Campaign campaign(String id, int maxWins) {
    var big =
        new Round(
            1,
            T0,
            Duration.ofSeconds(60),
            List.of(new PrizeLine("CASH", 888, 99_000), new PrizeLine("CASH", 8_800, 1_000)),
            SubPools.forPrizes(100_000));
    var small =
        new Round(
            2,
            T0.plusSeconds(120),
            Duration.ofSeconds(60),
            List.of(new PrizeLine("CASH", 1, 10)),
            1);
    return new Campaign(
        id, "rain", Amount.fen(200_000_000), List.of(big, small), maxWins, 5, T0, 1);
  }

  /** Arms every slot and opens it (nothing to restore: no reward was issued). */
  private void armOpen(Campaign c) {
    pools.seal(c, pools.arm(c, "t"));
  }

  @Test
  void subPools_liveInDifferentSlots_andArmOnce() {
    Campaign c = campaign("c_cluster1", 3);
    assertThat(pools.arm(c, "a")).containsOnly("R:a");
    assertThat(pools.arm(c, "b")).as("armed once").containsOnly("R:a");
    assertThat(pools.seal(c, java.util.Collections.nCopies(c.homePools(), "R:b")))
        .as("not the marker it found")
        .isFalse();
    assertThat(pools.open(c)).isFalse();
    armOpen(c);
    assertThat(pools.open(c)).isTrue();
    assertThat(pools.pulse(c, c.round(1)).leftTotal()).isEqualTo(100_000);
    assertThat(pools.pulse(c, c.round(2)).leftTotal()).isEqualTo(10);
    var slots = new HashSet<Integer>();
    for (int j = 0; j < c.homePools(); j++) {
      slots.add(SlotHash.getSlot("hbt:cp:{cp:c_cluster1:" + j + "}:r1"));
    }
    assertThat(slots).hasSize(16);
  }

  @Test
  void homeScript_limitsRate_reservesForTheTail_andReleases() {
    Campaign c = campaign("c_cluster2", 1);
    armOpen(c);
    String user = userAwayFromSlotZero(c);
    Round small = c.round(2);
    String prefix = c.id() + "_2_" + user + "_";
    var reserved = pools.tap(c, small, user, prefix, 100_000, true, 0.5);
    assertThat(reserved).isEqualTo(new PrizePools.HomeReply.Reserved(1));
    assertThat(pools.tap(c, small, user, prefix, 100_000, true, 0.5))
        .isEqualTo(new PrizePools.HomeReply.LimitReached());
    pools.release(c, user, 1, prefix + 1);
    var again = pools.tap(c, small, user, prefix, 100_000, true, 0.5);
    assertThat(again)
        .as("released: the win number is given back, the user's first win is still n = 1")
        .isEqualTo(new PrizePools.HomeReply.Reserved(1));
    assertThat(pools.drawAt(c, small, 0, prefix + 1, user, 0, 0.5)).isZero();
    assertThat(pools.pulse(c, small).leftTotal()).isEqualTo(9);
    assertThat(pools.wins(c)).containsOnlyKeys(prefix + 1);
    for (int i = 0; i < 3; i++) {
      pools.tap(c, null, user, "", 101_000, false, 0);
    }
    assertThat(pools.tap(c, null, user, "", 101_000, false, 0))
        .isEqualTo(new PrizePools.HomeReply.Idle());
    assertThat(pools.tap(c, null, user, "", 101_000, false, 0))
        .isEqualTo(new PrizePools.HomeReply.Idle());
    assertThat(pools.tap(c, null, user, "", 101_000, false, 0))
        .isEqualTo(new PrizePools.HomeReply.RateLimited());
  }

  /**
   * The tap limit (5 here) holds over any second, not per clock second: five taps late in one
   * second leave none for the first 900 ms of the next (a per-second counter would let five more
   * through at once), and a refused tap does not count.
   */
  @Test
  void tapLimit_holdsOverAnySecond_acrossTheTurnOfTheClocksSecond() {
    Campaign c = campaign("c_cluster_rate", 1);
    armOpen(c);
    String user = "u-rate";
    long late = 200_900; // 900 ms into second 200
    for (int i = 0; i < 5; i++) {
      assertThat(pools.tap(c, null, user, "", late + i, false, 0))
          .isEqualTo(new PrizePools.HomeReply.Idle());
    }
    for (long at : new long[] {late + 10, 201_000, 201_500, late + 999}) {
      assertThat(pools.tap(c, null, user, "", at, false, 0))
          .as("at %d ms", at)
          .isEqualTo(new PrizePools.HomeReply.RateLimited());
    }
    // The first of the five is a second old: one tap passes, then the second's limit is met again.
    assertThat(pools.tap(c, null, user, "", late + 1_000, false, 0))
        .isEqualTo(new PrizePools.HomeReply.Idle());
    assertThat(pools.tap(c, null, user, "", late + 1_000, false, 0))
        .isEqualTo(new PrizePools.HomeReply.RateLimited());
    for (int i = 1; i < 5; i++) {
      assertThat(pools.tap(c, null, user, "", late + 1_000 + i, false, 0))
          .isEqualTo(new PrizePools.HomeReply.Idle());
    }
    assertThat(pools.tap(c, null, "u-other", "", late + 1_004, false, 0))
        .as("another user's limit is their own")
        .isEqualTo(new PrizePools.HomeReply.Idle());
  }

  /** A tap on a slot that is not open counts nowhere: the retry after the restore is the tap. */
  @Test
  void lostTap_isNotCountedAgainstTheLimit() {
    Campaign c = campaign("c_cluster_lost", 1);
    Round running = c.round(1);
    String user = "u-lost";
    for (int i = 0; i < 7; i++) {
      assertThat(pools.tap(c, running, user, "", 300_000, false, 0))
          .isEqualTo(new PrizePools.HomeReply.Lost());
    }
    armOpen(c);
    for (int i = 0; i < 5; i++) {
      assertThat(pools.tap(c, running, user, "", 300_000, false, 0))
          .isEqualTo(new PrizePools.HomeReply.Missed());
    }
    assertThat(pools.tap(c, running, user, "", 300_000, false, 0))
        .isEqualTo(new PrizePools.HomeReply.RateLimited());
  }

  /**
   * 4,000 users race on a round of 10 prizes in its last second: the tail takes every prize once.
   */
  @Test
  void racingTaps_takeEachPrizeOnce_andKeepTheLimit() throws Exception {
    Campaign c = campaign("c_cluster3", 2);
    var store = new OneCampaign(c);
    var clock = new SimClock(c.round(2).endsAt().minusMillis(500));
    var campaigns = new Campaigns(store, this::armOpen, clock, Duration.ofSeconds(60));
    var issued = new ConcurrentHashMap<String, String>();
    var random = new SplittableRandom(11);
    var taps =
        new TapService(
            campaigns,
            pools,
            (campaign, round, userId, tradeNo, prize) -> {
              assertThat(issued.putIfAbsent(tradeNo, userId)).isNull();
              return "token-" + tradeNo;
            },
            new PrizeRecovery(pools, id -> List.of(), campaign -> {}, () -> 1),
            clock,
            () -> {
              synchronized (random) {
                return random.nextDouble();
              }
            });
    var won = new AtomicInteger();
    var pool = Executors.newFixedThreadPool(16);
    try {
      var futures = new ArrayList<Future<?>>();
      for (int u = 0; u < 4_000; u++) {
        String user = "racer-" + u;
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 3; i++) {
                    if (taps.tap(c.id(), user) instanceof TapOutcome.Won) {
                      won.incrementAndGet();
                    }
                  }
                }));
      }
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(won.get()).isEqualTo(10);
    assertThat(issued).hasSize(10);
    assertThat(pools.wins(c)).hasSize(10);
    assertThat(pools.pulse(c, c.round(2)).leftTotal()).isZero();
  }

  /**
   * A failover loses the user's home slot and the slot of round 2's only sub-pool while the user's
   * tail runs: the tail's draw finds its slot lost, the restore rebuilds both from the recorded
   * wins (none: the book is empty), so the rebuilt count lacks the reservation. The tail's win is
   * counted when it settles, and the limit of one win holds.
   */
  @Test
  void aHomeSlotLostWhileItsTailRuns_stillCountsTheTailsWin() {
    var tail = new LosingTail("c_cluster_settle", () -> {});
    Campaign c = tail.campaign;
    String user = tail.user;

    assertThat(tail.taps.tap(c.id(), user)).isInstanceOf(TapOutcome.Won.class);
    assertThat(tail.failover).as("the slots were lost during the tail").isFalse();
    tail.clock.advance(Duration.ofMillis(10));
    assertThat(tail.taps.tap(c.id(), user)).isEqualTo(TapOutcome.LIMIT_REACHED);
    assertThat(tail.issued).containsOnlyKeys(c.id() + "_2_" + user + "_1");
    assertThat(pools.wins(c)).containsOnlyKeys(c.id() + "_2_" + user + "_1");
    assertThat(redis.sync().hget(slotKey(c, tail.home, "wins"), user)).isEqualTo("1");
    assertThat(pools.pulse(c, c.round(2)).leftTotal()).isEqualTo(9);
  }

  /**
   * As above, and meanwhile the user reached the limit of one win with another tap (simulated: the
   * restore found one win of the user recorded): the tail, which met the loss, holds its
   * reservation again before drawing, finds the limit reached and draws nothing.
   */
  @Test
  void aTailMeetingTheLoss_whileItsUserReachedTheLimit_drawsNothing() {
    var reached = new AtomicReference<Runnable>();
    var tail = new LosingTail("c_cluster_rehold", () -> reached.get().run());
    reached.set(() -> pools.raiseCounts(tail.campaign, tail.user, 1, 1));
    Campaign c = tail.campaign;

    assertThat(tail.taps.tap(c.id(), tail.user)).isEqualTo(TapOutcome.LIMIT_REACHED);
    assertThat(tail.failover).isFalse();
    assertThat(tail.issued).isEmpty();
    assertThat(pools.pulse(c, c.round(2)).leftTotal()).as("nothing drawn").isEqualTo(10);
    assertThat(redis.sync().hget(slotKey(c, tail.home, "wins"), tail.user)).isEqualTo("1");
  }

  /**
   * As above with a limit of two, and meanwhile another tap of the user was handed the tail's win
   * number n (simulated: the restore found a win of the user numbered n recorded): the tail must
   * not win under n too; it draws nothing.
   */
  @Test
  void aTailMeetingTheLoss_whoseNumberWasHandedOutAgain_drawsNothing() {
    var handedOut = new AtomicReference<Runnable>();
    var tail = new LosingTail("c_cluster_taken", 2, () -> handedOut.get().run(), true);
    handedOut.set(() -> pools.raiseCounts(tail.campaign, tail.user, 1, 1));
    Campaign c = tail.campaign;

    assertThat(tail.taps.tap(c.id(), tail.user)).isEqualTo(TapOutcome.MISSED);
    assertThat(tail.failover).isFalse();
    assertThat(tail.issued).isEmpty();
    assertThat(pools.pulse(c, c.round(2)).leftTotal()).as("nothing drawn").isEqualTo(10);
  }

  /**
   * Only the home slot is lost, and another instance restores it before the tail's draw, which
   * therefore meets no loss: the restore counted the recorded wins (none), not the reservation. The
   * tail's settle finds the mark gone and counts its win, and the limit of one win holds.
   */
  @Test
  void aHomeSlotRestoredBeforeTheTailsDraw_countsTheWinWhenItSettles() {
    var tail = new LosingTail("c_cluster_recount", 1, () -> {}, false);
    Campaign c = tail.campaign;

    assertThat(tail.taps.tap(c.id(), tail.user)).isInstanceOf(TapOutcome.Won.class);
    assertThat(tail.failover).isFalse();
    tail.clock.advance(Duration.ofMillis(10));
    assertThat(tail.taps.tap(c.id(), tail.user)).isEqualTo(TapOutcome.LIMIT_REACHED);
    assertThat(tail.issued).hasSize(1);
    assertThat(redis.sync().hget(slotKey(c, tail.home, "wins"), tail.user)).isEqualTo("1");
  }

  /**
   * A reservation that the tail gives back after its home slot was rebuilt (without it, counting
   * only the recorded win) gives nothing back: taking one off would take off that win.
   */
  @Test
  void aReleaseAfterTheHomeSlotWasRebuilt_givesNothingBack() {
    Campaign c = campaign("c_cluster_release", 2);
    armOpen(c);
    String user = userAwayFromSlotZero(c);
    int home = SubPools.home(user, c.homePools());
    String first = c.id() + "_1_" + user + "_";
    String second = c.id() + "_2_" + user + "_";
    assertThat(pools.tap(c, c.round(1), user, first, 100_000, true, 0.5))
        .isInstanceOf(PrizePools.HomeReply.Won.class);
    assertThat(pools.tap(c, c.round(2), user, second, 100_001, true, 0.5))
        .isEqualTo(new PrizePools.HomeReply.Reserved(2));

    loseSlot(c, home);
    armOpen(c);
    pools.raiseCounts(c, user, 1, 1); // what a restore finds recorded: the first win
    pools.release(c, user, 2, second + 2);

    assertThat(redis.sync().hget(slotKey(c, home, "wins"), user)).isEqualTo("1");
    assertThat(pools.tap(c, c.round(2), user, second, 100_002, true, 0.5))
        .isEqualTo(new PrizePools.HomeReply.Reserved(2));
    assertThat(pools.tap(c, c.round(2), user, second, 100_003, true, 0.5))
        .as("one win and one reservation: the limit of two")
        .isEqualTo(new PrizePools.HomeReply.LimitReached());
  }

  /** A tail that finds its prize takes the reservation's mark away: the count already holds it. */
  @Test
  void settlingAKeptReservation_removesItsMark_andCountsNothingMore() {
    Campaign c = campaign("c_cluster_kept", 1);
    armOpen(c);
    String user = userAwayFromSlotZero(c);
    int home = SubPools.home(user, c.homePools());
    String prefix = c.id() + "_2_" + user + "_";
    assertThat(pools.tap(c, c.round(2), user, prefix, 100_000, true, 0.5))
        .isEqualTo(new PrizePools.HomeReply.Reserved(1));
    assertThat(redis.sync().hkeys(slotKey(c, home, "held"))).containsExactly(prefix + 1);
    assertThat(pools.drawAt(c, c.round(2), 0, prefix + 1, user, 100, 0.5)).isZero();
    assertThat(pools.settle(c, user, 1, prefix + 1)).isTrue();
    assertThat(redis.sync().exists(slotKey(c, home, "held"))).isZero();
    assertThat(redis.sync().hget(slotKey(c, home, "wins"), user)).isEqualTo("1");
    assertThat(pools.tap(c, c.round(2), user, prefix, 100_001, true, 0.5))
        .isEqualTo(new PrizePools.HomeReply.LimitReached());
  }

  /**
   * The repair after a Redis restart closes every slot of a running rain until it is restored. It
   * runs once per Redis generation, whichever instance finds it: an instance starting later (a
   * rolling deploy during a round) closes nothing; a new generation is repaired again.
   */
  @Test
  void anInstanceStartingAfterARepair_closesNothing() {
    Campaign c = campaign("c_cluster_repair", 1);
    armOpen(c);
    var closes = new AtomicInteger();
    var generation = new AtomicReference<>("run-" + System.nanoTime());
    var restartWhileRepairing = new AtomicReference<String>();
    PrizePools counting =
        intercepted(
            method -> {
              if (method.equals("close")) {
                closes.incrementAndGet();
                String restarted = restartWhileRepairing.getAndSet(null);
                if (restarted != null) {
                  generation.set(restarted);
                }
              }
            });
    var nonces = new AtomicLong();
    Supplier<PoolRepair> instance =
        () -> {
          var campaigns =
              new Campaigns(
                  new OneCampaign(c), this::armOpen, new SimClock(T0), Duration.ofSeconds(60));
          var recovery =
              new PrizeRecovery(counting, id -> List.of(), x -> {}, nonces::incrementAndGet);
          return new PoolRepair(generation::get, new OneCampaign(c), campaigns, recovery, counting);
        };

    assertThat(instance.get().checkOnce()).isZero();
    assertThat(closes).as("the first instance on this generation repairs").hasValue(1);
    assertThat(pools.open(c)).isTrue();
    assertThat(instance.get().checkOnce()).isZero();
    assertThat(instance.get().checkOnce()).isZero();
    assertThat(closes).as("instances starting later close nothing").hasValue(1);

    generation.set("run-" + System.nanoTime());
    var running = instance.get();
    assertThat(running.checkOnce()).isZero();
    assertThat(closes).as("a new generation is repaired").hasValue(2);
    assertThat(running.checkOnce()).isZero();
    assertThat(instance.get().checkOnce()).isZero();
    assertThat(closes).hasValue(2);
    assertThat(pools.open(c)).isTrue();

    // Redis restarts again while a repair runs: the repair of the older generation must not mark
    // it over the newer one, which is then repaired by the next instance to look.
    String older = "run-older-" + System.nanoTime();
    String newer = "run-newer-" + System.nanoTime();
    generation.set(older);
    restartWhileRepairing.set(newer);
    assertThat(instance.get().checkOnce()).isZero();
    assertThat(closes).hasValue(3);
    assertThat(pools.repairedGeneration()).isNotEqualTo(older);
    assertThat(instance.get().checkOnce()).isZero();
    assertThat(closes).as("the newer generation is repaired").hasValue(4);
    assertThat(pools.repairedGeneration()).isEqualTo(newer);
  }

  /**
   * A running rain that sorts behind more than a page of other unreturned campaigns (scheduled
   * ones, say) is repaired all the same: the generation is marked repaired after the pass, and a
   * campaign the pass left out would keep an older state's open slots for good.
   */
  @Test
  void theRepair_reachesACampaignBehindMoreThanAPageOfOthers() {
    Campaign c = campaign("c_cluster_repair_far", 1);
    armOpen(c);
    var closes = new AtomicInteger();
    PrizePools counting =
        intercepted(
            method -> {
              if (method.equals("close")) {
                closes.incrementAndGet();
              }
            });
    var store = new OneCampaign(c, 2_500);
    var campaigns = new Campaigns(store, this::armOpen, new SimClock(T0), Duration.ofSeconds(60));
    var nonces = new AtomicLong();
    var recovery = new PrizeRecovery(counting, id -> List.of(), x -> {}, nonces::incrementAndGet);
    var repair =
        new PoolRepair(() -> "run-" + System.nanoTime(), store, campaigns, recovery, counting);

    assertThat(repair.repairAll()).isZero();
    assertThat(closes).as("its slots closed and restored").hasValue(1);
    assertThat(pools.open(c)).isTrue();
  }

  /** The pools, with {@code before} run ahead of every call (given the method's name). */
  private PrizePools intercepted(Consumer<String> before) {
    return (PrizePools)
        Proxy.newProxyInstance(
            PrizePools.class.getClassLoader(),
            new Class<?>[] {PrizePools.class},
            (proxy, method, args) -> {
              before.accept(method.getName());
              try {
                return method.invoke(pools, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  /**
   * Taps of one user (homed away from slot 0) in the last second of round 2 of a campaign with a
   * limit of one win, over pools that lose the user's home slot and the slot of round 2's only
   * sub-pool at the tail's first draw (a failover to replicas that had none of their writes); the
   * book holds no win. {@code beforeRehold} runs ahead of every rehold.
   */
  private final class LosingTail {
    final Campaign campaign;
    final String user;
    final int home;
    final SimClock clock;
    final Map<String, String> issued = new ConcurrentHashMap<>();
    final AtomicBoolean failover = new AtomicBoolean(true);
    final AtomicLong nonces = new AtomicLong();
    final PrizeRecovery recovery =
        new PrizeRecovery(pools, any -> List.of(), any -> {}, nonces::incrementAndGet);
    final TapService taps;

    LosingTail(String id, Runnable beforeRehold) {
      this(id, 1, beforeRehold, true);
    }

    /**
     * @param drawnSlotToo whether slot 0, where the tail draws, is lost too (the tail then meets
     *     the loss); if not, only the home slot is lost, and restored at once, as another
     *     instance's tap would, before the tail's draw
     */
    LosingTail(String id, int maxWins, Runnable beforeRehold, boolean drawnSlotToo) {
      campaign = campaign(id, maxWins);
      user = userAwayFromSlotZero(campaign);
      home = SubPools.home(user, campaign.homePools());
      clock = new SimClock(campaign.round(2).endsAt().minusMillis(500));
      PrizePools losing =
          intercepted(
              method -> {
                if (method.equals("drawAt") && failover.getAndSet(false)) {
                  loseSlot(campaign, home);
                  if (drawnSlotToo) {
                    loseSlot(campaign, 0);
                  } else {
                    recovery.restoreIfLost(campaign);
                  }
                }
                if (method.equals("rehold")) {
                  beforeRehold.run();
                }
              });
      taps =
          new TapService(
              new Campaigns(
                  new OneCampaign(campaign),
                  PrizePoolsOnClusterTest.this::armOpen,
                  clock,
                  Duration.ofSeconds(60)),
              losing,
              (c, round, userId, tradeNo, prize) -> {
                assertThat(issued.putIfAbsent(tradeNo, userId)).isNull();
                return "token-" + tradeNo;
              },
              recovery,
              clock,
              () -> 0.0);
    }
  }

  private static String userAwayFromSlotZero(Campaign c) {
    String user = "u-home-not-0";
    for (int u = 0; SubPools.home(user, c.homePools()) == 0; u++) {
      user = "u" + u;
    }
    return user;
  }

  private static String slotKey(Campaign c, int slot, String name) {
    return "hbt:cp:{cp:" + c.id() + ":" + slot + "}:" + name;
  }

  /** What a failover to a replica that had none of the slot's writes leaves: nothing of it. */
  private void loseSlot(Campaign c, int slot) {
    for (String name : List.of("armed", "r1", "r2", "wins", "seq", "won", "held")) {
      redis.sync().del(slotKey(c, slot, name));
    }
  }

  /**
   * A store that knows one campaign, behind {@code ahead} other unreturned campaigns it cannot find
   * (their ids sort first and end first).
   */
  private record OneCampaign(Campaign campaign, int ahead) implements CampaignStore {

    OneCampaign(Campaign campaign) {
      this(campaign, 0);
    }

    /** Every unreturned id, in id order and end order alike. */
    private List<String> unreturned() {
      var ids = new java.util.ArrayList<String>();
      for (int i = 0; i < ahead; i++) {
        ids.add("a%06d".formatted(i));
      }
      ids.add(campaign.id());
      return ids;
    }

    @Override
    public long nextNumber() {
      return 1;
    }

    @Override
    public void create(Campaign c, IdempotencyKey key, StoredAnswer answer) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<StoredAnswer> answerFor(IdempotencyKey key) {
      return Optional.empty();
    }

    @Override
    public Optional<String> createdUnder(IdempotencyKey key) {
      return Optional.empty();
    }

    @Override
    public Optional<Campaign> find(String id) {
      return id.equals(campaign.id()) ? Optional.of(campaign) : Optional.empty();
    }

    @Override
    public Edit edit(
        String id, Campaign terms, java.time.Clock clock, Duration lead, Runnable beforeCommit) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<String> unreturned(int max) {
      return unreturned().stream().limit(max).toList();
    }

    @Override
    public List<String> unreturnedAfter(String afterId, int max) {
      return unreturned().stream().filter(id -> id.compareTo(afterId) > 0).limit(max).toList();
    }

    @Override
    public List<String> recent(int max) {
      return List.of(campaign.id());
    }

    @Override
    public boolean returnUnspent(String id, Amount amount, Instant at) {
      return false;
    }

    @Override
    public Optional<Return> returned(String id) {
      return Optional.empty();
    }
  }
}
