package hongbao.redis.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.Unavailable;
import hongbao.core.activity.ActivityCounts;
import hongbao.core.grab.ArmResult;
import hongbao.core.grab.ArmedPacket;
import hongbao.core.grab.GrabAttempt;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabRecord;
import hongbao.core.grab.Recovered;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import hongbao.redis.RedisKeys;
import hongbao.redis.TestRedis;
import hongbao.redis.grab.RedisGrabStore;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Activities in the grab store: a user's count across an activity's packets is checked and raised
 * by the grab script itself, restored grabs count once, and every key a script on an activity's
 * packet touches sits in one hash slot (so the layout holds on Redis Cluster).
 */
class RedisActivityTest {

  static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.SECONDS);
  static final Instant EXPIRES = T0.plusSeconds(3_600);
  static final AtomicLong SEQUENCE = new AtomicLong(1_000);
  static final AtomicLong ACTIVITIES = new AtomicLong(new Random().nextInt(1_000_000) + 1);

  static StatefulRedisConnection<String, String> connection;
  static RedisKeys keys;
  static RedisGrabStore store;
  static RedisActivityCounts counts;

  @BeforeAll
  static void connect() {
    connection = TestRedis.connect();
    keys = TestRedis.freshKeys(1024);
    store = new RedisGrabStore(connection, keys, Duration.ofDays(1));
    counts = new RedisActivityCounts(connection, keys, Duration.ofDays(1), Clock.systemUTC());
  }

  @AfterAll
  static void cleanUp() {
    TestRedis.deleteAll(connection, keys);
    connection.close();
  }

  /** Arms a FIXED packet of three 100-fen shares in the activity, with the given paid grabs. */
  static long arm(long activity, int limit, GrabRecord... restored) {
    long id = Packet.idOf(SEQUENCE.incrementAndGet(), activity);
    var packet =
        new Packet(
            id, "sender", PacketType.FIXED, Amount.fen(300), 3, null, null, List.of(), T0, EXPIRES);
    List<Amount> shares = Collections.nCopies(3 - restored.length, Amount.fen(100));
    var armed = new ArmedPacket(packet, shares, false, 0, List.of(restored), null, limit);
    assertThat(store.arm(armed, T0)).isEqualTo(ArmResult.ARMED);
    return id;
  }

  static GrabOutcome grab(long packetId, String user) {
    return store
        .grab(new GrabAttempt(packetId, user, null, T0.plusSeconds(1)))
        .toCompletableFuture()
        .join();
  }

  static Map<String, Integer> countsOf(long activity) {
    var page = counts.page(activity, null, 1_000);
    var result = new HashMap<String, Integer>();
    page.users().forEach(u -> result.put(u.userId(), u.grabs()));
    assertThat(page.userCount()).isEqualTo(result.size());
    return result;
  }

  @Test
  void grab_stopsAUserAtTheLimit_acrossTheActivitysPackets_afterAlreadyGrabbed() {
    long activity = ACTIVITIES.incrementAndGet();
    long a = arm(activity, 2);
    long b = arm(activity, 2);
    long c = arm(activity, 2);

    assertThat(grab(a, "u")).isInstanceOf(GrabOutcome.Grabbed.class);
    assertThat(grab(b, "u")).isInstanceOf(GrabOutcome.Grabbed.class);
    assertThat(grab(c, "u")).isEqualTo(GrabOutcome.LIMIT_REACHED);
    assertThat(grab(a, "u")).isEqualTo(new GrabOutcome.AlreadyGrabbed(Amount.fen(100)));
    assertThat(grab(c, "v")).isInstanceOf(GrabOutcome.Grabbed.class);
    assertThat(store.state(c).orElseThrow().taken()).isEqualTo(1);

    assertThat(countsOf(activity)).isEqualTo(Map.of("u", 2, "v", 1));
    assertThat(connection.sync().hexists(keys.activityGrabs(activity), "#"))
        .as("only a restore marks the counts whole")
        .isFalse();
  }

  @Test
  void grab_whenSoldOutAndAtTheLimit_answersLimitReached() {
    long activity = ACTIVITIES.incrementAndGet();
    long a = arm(activity, 1);
    long b = arm(activity, 1);
    grab(a, "u");
    for (String user : List.of("x", "y", "z")) {
      grab(b, user);
    }

    assertThat(grab(b, "u")).isEqualTo(GrabOutcome.LIMIT_REACHED);
    assertThat(grab(b, "w")).isEqualTo(GrabOutcome.SOLD_OUT);
  }

  @Test
  void arm_ofARebuiltPacket_countsItsRestoredGrabs_once() {
    long activity = ACTIVITIES.incrementAndGet();
    var paid = new GrabRecord("u", Amount.fen(100), T0, 1);
    long a = arm(activity, 1, paid);
    long b = arm(activity, 1);
    // Arming again changes nothing, and so counts nothing twice.
    counts.restore(activity, Map.of("u", List.of(a)), EXPIRES);

    assertThat(grab(a, "u")).isEqualTo(new GrabOutcome.AlreadyGrabbed(Amount.fen(100)));
    assertThat(grab(b, "u")).isEqualTo(GrabOutcome.LIMIT_REACHED);
    assertThat(countsOf(activity)).isEqualTo(Map.of("u", 1));
  }

  @Test
  void restore_isAUnion_keepsGrabsTheLedgerHasNotPaid_andMarksTheCountsWhole() {
    long activity = ACTIVITIES.incrementAndGet();
    assertThat(counts.whole(activity)).isFalse();
    long a = arm(activity, 3);
    long b = arm(activity, 3);
    long c = arm(activity, 3);
    grab(c, "u");

    counts.restore(activity, Map.of("u", List.of(a), "v", List.of(a, b)), EXPIRES);
    counts.restore(activity, Map.of("u", List.of(a, b)), EXPIRES);

    assertThat(countsOf(activity)).isEqualTo(Map.of("u", 3, "v", 2));
    assertThat(counts.whole(activity)).isTrue();
    assertThat(connection.sync().hget(keys.activityGrabs(activity), "#"))
        .as("marked with the run id of the server holding them")
        .isEqualTo(store.generation());
    arm(activity, 3);
    assertThat(counts.whole(activity))
        .as("arming leaves the mark as the restore wrote it")
        .isTrue();
    connection.sync().hset(keys.activityGrabs(activity), "#", "a-server-since-restarted");
    assertThat(counts.whole(activity))
        .as("counts marked before a restart may have been rolled back with it")
        .isFalse();
    assertThat(grab(b, "u")).isEqualTo(GrabOutcome.LIMIT_REACHED);
    long ttl = connection.sync().pttl(keys.activityGrabs(activity));
    assertThat(ttl).isGreaterThan(Duration.ofDays(1).toMillis());
  }

  @Test
  void recover_ofAClaimBeyondTheLimit_isRefused_whileALedgerPaidGrabIsPutBack() {
    long activity = ACTIVITIES.incrementAndGet();
    long a = arm(activity, 1);
    long b = arm(activity, 1);
    grab(a, "u");
    var lost = new GrabRecord("u", Amount.fen(100), T0, 1);

    assertThat(store.recover(b, List.of(lost), true)).containsExactly(Recovered.OVER_LIMIT);
    assertThat(store.recover(b, List.of(lost), false))
        .containsExactly(new Recovered.Done(Amount.fen(100), 1));
    assertThat(countsOf(activity)).isEqualTo(Map.of("u", 2));
  }

  @Test
  void everyKeyOfAnActivitysPacket_sitsInTheActivitysSlot() {
    var random = new Random(7);
    for (int shards : new int[] {1, 1024, 1000, RedisKeys.MAX_SHARDS}) {
      RedisKeys layout = new RedisKeys(shards);
      for (int i = 0; i < 2_000; i++) {
        long activity = 1 + random.nextInt((int) Packet.MAX_ACTIVITY_ID);
        long id = Packet.idOf(1 + (random.nextLong() & ((1L << 40) - 2)), activity);
        int slot = SlotHash.getSlot(layout.activityGrabs(activity));
        for (String key :
            List.of(
                layout.meta(id),
                layout.shares(id),
                layout.grabs(id),
                layout.eligible(id),
                layout.payoutsOf(id),
                RedisKeys.deadLettersOf(layout.payoutsOf(id)))) {
          assertThat(SlotHash.getSlot(key)).as("%s with %s shards", key, shards).isEqualTo(slot);
        }
      }
    }
  }

  @Test
  void packetsOutsideActivities_keepTheirShardById() {
    RedisKeys layout = new RedisKeys(1024);
    assertThat(Packet.activityOf(5_000L)).isZero();
    assertThat(layout.shardOf(5_000L)).isEqualTo(5_000 % 1024);
    assertThat(layout.shardOf(Packet.idOf(5_000L, 3))).isEqualTo(3);
    assertThat(Packet.activityOf(Packet.idOf(5_000L, Packet.MAX_ACTIVITY_ID)))
        .isEqualTo(Packet.MAX_ACTIVITY_ID);
  }

  /**
   * A restore too large for one script call that fails after its first call has put part of the
   * counts back: they must not be taken for whole, or the users of the calls that never ran could
   * grab past the limit until a restart.
   */
  @Test
  void restore_thatStopsHalfWay_leavesTheCountsUnmarked_andTheNextRestoreCompletesThem() {
    long activity = ACTIVITIES.incrementAndGet();
    long a = arm(activity, 1);
    long b = arm(activity, 1);
    var paid = new HashMap<String, List<Long>>();
    for (int u = 0; u < RedisActivityCounts.RESTORE_CHUNK + 500; u++) {
      paid.put("user" + u, List.of(a));
    }
    var failing =
        new RedisActivityCounts(
            ScriptFailures.onCall(connection, 2), keys, Duration.ofDays(1), Clock.systemUTC());

    assertThatThrownBy(() -> failing.restore(activity, paid, EXPIRES))
        .isInstanceOf(Unavailable.class);
    assertThat(counts.page(activity, null, 10).userCount())
        .as("the first call put its users back")
        .isEqualTo(RedisActivityCounts.RESTORE_CHUNK);
    assertThat(counts.whole(activity)).isFalse();

    counts.restore(activity, paid, EXPIRES);
    assertThat(counts.whole(activity)).isTrue();
    assertThat(counts.page(activity, null, 10).userCount()).isEqualTo(paid.size());
    assertThat(paid.keySet())
        .allSatisfy(u -> assertThat(grab(b, u)).isEqualTo(GrabOutcome.LIMIT_REACHED));
  }

  @Test
  void page_walksEveryUser_pageByPage() {
    long activity = ACTIVITIES.incrementAndGet();
    long a = arm(activity, 5);
    var many = new HashMap<String, List<Long>>();
    for (int u = 0; u < 250; u++) {
      many.put("user" + u, List.of(a));
    }
    counts.restore(activity, many, EXPIRES);

    var seen = new HashSet<String>();
    String cursor = null;
    int pages = 0;
    do {
      ActivityCounts.Page page = counts.page(activity, cursor, 40);
      page.users().forEach(u -> seen.add(u.userId()));
      assertThat(page.userCount()).isEqualTo(250);
      cursor = page.nextCursor();
      pages++;
    } while (cursor != null && pages < 100);
    // HSCAN's count is a hint (a small hash comes whole): what matters is that every user comes.
    assertThat(seen).hasSize(250);
  }
}
