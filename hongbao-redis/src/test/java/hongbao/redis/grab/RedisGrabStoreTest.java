package hongbao.redis.grab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import hongbao.core.grab.ArmResult;
import hongbao.core.grab.ArmedPacket;
import hongbao.core.grab.Closing;
import hongbao.core.grab.GrabAttempt;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabRecord;
import hongbao.core.grab.PacketState;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import hongbao.redis.RedisKeys;
import hongbao.redis.TestRedis;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RedisGrabStoreTest {

  // Relative to the real clock: Redis expires the keys on its own clock.
  static final Instant T0 = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
  static final Instant EXPIRES = T0.plusSeconds(3_600);

  static StatefulRedisConnection<String, String> connection;
  static RedisKeys keys;
  static RedisGrabStore store;

  @BeforeAll
  static void connect() {
    connection = TestRedis.connect();
    keys = TestRedis.freshKeys(1024);
    store = new RedisGrabStore(connection, keys, Duration.ofDays(1));
  }

  @AfterAll
  static void cleanUp() {
    TestRedis.deleteAll(connection, keys);
    connection.close();
  }

  static Packet packet(long id, PacketType type, long amount, int count) {
    return packet(id, type, amount, count, null, List.of());
  }

  static Packet packet(
      long id, PacketType type, long amount, int count, String password, List<String> recipients) {
    return new Packet(
        id, "sender", type, Amount.fen(amount), count, null, password, recipients, T0, EXPIRES);
  }

  static ArmedPacket armed(Packet packet, long... shares) {
    return new ArmedPacket(packet, LongStream.of(shares).mapToObj(Amount::fen).toList());
  }

  static GrabOutcome grab(long packetId, String user, Instant at) {
    return grab(packetId, user, null, at);
  }

  static GrabOutcome grab(long packetId, String user, String password, Instant at) {
    return store.grab(new GrabAttempt(packetId, user, password, at)).toCompletableFuture().join();
  }

  static long armLucky(long... shares) {
    long id = TestRedis.newPacketId();
    long total = LongStream.of(shares).sum();
    assertThat(store.arm(armed(packet(id, PacketType.LUCKY, total, shares.length), shares), T0))
        .isEqualTo(ArmResult.ARMED);
    return id;
  }

  static Instant during() {
    return T0.plusSeconds(10);
  }

  static Instant after() {
    return EXPIRES.plusSeconds(1);
  }

  @Test
  void arm_whenArmedTwice_changesNothingTheSecondTime() {
    long id = TestRedis.newPacketId();
    Packet packet = packet(id, PacketType.LUCKY, 300, 2);
    assertThat(store.arm(armed(packet, 100, 200), T0)).isEqualTo(ArmResult.ARMED);
    grab(id, "u1", during());

    assertThat(store.arm(armed(packet, 150, 150), T0)).isNotEqualTo(ArmResult.ARMED);

    PacketState state = store.state(id).orElseThrow();
    assertThat(state.taken()).isEqualTo(1);
    assertThat(state.available()).isEqualTo(Amount.fen(200));
  }

  @Test
  void arm_whenPacketAlreadyExpired_isRefusedAndWritesNothing() {
    long id = TestRedis.newPacketId();
    assertThat(store.arm(armed(packet(id, PacketType.LUCKY, 300, 2), 100, 200), EXPIRES))
        .isNotEqualTo(ArmResult.ARMED);
    assertThat(store.state(id)).isEmpty();
    assertThat(grab(id, "u1", during())).isEqualTo(GrabOutcome.NOT_FOUND);
  }

  @Test
  void arm_setsEveryKeyToExpireAGraceAfterThePacket() {
    long id = TestRedis.newPacketId();
    var packet = packet(id, PacketType.EXCLUSIVE, 300, 2, null, List.of("a", "b"));
    store.arm(armed(packet, 100, 200), T0);
    grab(id, "a", during());

    long ttlAt = EXPIRES.plus(Duration.ofDays(1)).toEpochMilli();
    var sync = connection.sync();
    long expectedTtl = ttlAt - System.currentTimeMillis();
    for (String key : List.of(keys.meta(id), keys.shares(id), keys.grabs(id), keys.eligible(id))) {
      assertThat(sync.pttl(key)).as(key).isBetween(expectedTtl - 10_000, expectedTtl);
    }
  }

  @Test
  void arm_withManyShares_pushesEveryShareInOrder() {
    long id = TestRedis.newPacketId();
    long[] shares = LongStream.rangeClosed(1, 20_000).toArray();
    long total = LongStream.of(shares).sum();
    store.arm(armed(packet(id, PacketType.LUCKY, total, shares.length), shares), T0);

    assertThat(store.state(id).orElseThrow().available()).isEqualTo(Amount.fen(total));
    assertThat(grab(id, "first", during()))
        .isInstanceOfSatisfying(
            GrabOutcome.Grabbed.class, g -> assertThat(g.amount()).isEqualTo(Amount.fen(1)));
  }

  @Test
  void arm_withManyRecipients_letsEveryRecipientAndNoOneElseGrab() {
    long id = TestRedis.newPacketId();
    int count = 2_500;
    List<String> recipients = IntStream.range(0, count).mapToObj(i -> "r" + i).toList();
    long[] shares = LongStream.generate(() -> 2).limit(count).toArray();
    var packet = packet(id, PacketType.EXCLUSIVE, 2L * count, count, null, recipients);
    assertThat(store.arm(armed(packet, shares), T0)).isEqualTo(ArmResult.ARMED);

    assertThat(grab(id, "r2499", during()))
        .isInstanceOfSatisfying(
            GrabOutcome.Grabbed.class, g -> assertThat(g.amount()).isEqualTo(Amount.fen(2)));
    assertThat(grab(id, "r0", during()))
        .isInstanceOfSatisfying(
            GrabOutcome.Grabbed.class, g -> assertThat(g.amount()).isEqualTo(Amount.fen(2)));
    assertThat(grab(id, "r2500", during())).isEqualTo(GrabOutcome.NOT_ELIGIBLE);
  }

  @Test
  void grab_whenShareLeft_returnsGrabbedWithTheNextShare() {
    long id = armLucky(120, 80);
    assertThat(grab(id, "u1", during()))
        .isInstanceOfSatisfying(
            GrabOutcome.Grabbed.class, g -> assertThat(g.amount()).isEqualTo(Amount.fen(120)));
    assertThat(grab(id, "u2", during()))
        .isInstanceOfSatisfying(
            GrabOutcome.Grabbed.class, g -> assertThat(g.amount()).isEqualTo(Amount.fen(80)));
  }

  @Test
  void grab_whenUnknownPacket_returnsNotFound() {
    assertThat(grab(TestRedis.newPacketId(), "u1", during())).isEqualTo(GrabOutcome.NOT_FOUND);
  }

  @Test
  void grab_whenGrabbedBefore_returnsAlreadyGrabbedWithTheSameAmount() {
    long id = armLucky(120, 80);
    grab(id, "u1", during());
    assertThat(grab(id, "u1", during())).isEqualTo(new GrabOutcome.AlreadyGrabbed(Amount.fen(120)));
  }

  @Test
  void grab_whenGrabbedBeforeAndExpiredAndClosed_stillReturnsAlreadyGrabbed() {
    long id = armLucky(120, 80);
    grab(id, "u1", during());
    store.close(id, null, Amount.fen(200), after());
    assertThat(grab(id, "u1", after())).isEqualTo(new GrabOutcome.AlreadyGrabbed(Amount.fen(120)));
  }

  @Test
  void grab_whenSoldOut_returnsSoldOut() {
    long id = armLucky(100);
    grab(id, "u1", during());
    assertThat(grab(id, "u2", during())).isEqualTo(GrabOutcome.SOLD_OUT);
  }

  @Test
  void grab_whenEmptiedAndThenExpired_staysSoldOut() {
    long id = armLucky(100);
    grab(id, "u1", during());
    assertThat(grab(id, "u2", after())).isEqualTo(GrabOutcome.SOLD_OUT);
    store.close(id, null, Amount.fen(100), after());
    assertThat(grab(id, "u2", after())).isEqualTo(GrabOutcome.SOLD_OUT);
  }

  @Test
  void grab_whenExpiredWithSharesLeft_returnsExpired() {
    long id = armLucky(100, 100);
    grab(id, "u1", during());
    assertThat(grab(id, "u2", EXPIRES)).isEqualTo(GrabOutcome.EXPIRED);
  }

  @Test
  void grab_whenClosed_returnsExpired() {
    long id = armLucky(100, 100);
    store.close(id, null, Amount.fen(200), after());
    // Even with a clock that lags behind, a closed packet hands out nothing.
    assertThat(grab(id, "u2", during())).isEqualTo(GrabOutcome.EXPIRED);
  }

  @Test
  void grab_whenNotARecipient_returnsNotEligible() {
    long id = TestRedis.newPacketId();
    store.arm(
        armed(packet(id, PacketType.EXCLUSIVE, 300, 2, null, List.of("alice", "bob")), 100, 200),
        T0);
    assertThat(grab(id, "mallory", during())).isEqualTo(GrabOutcome.NOT_ELIGIBLE);
    assertThat(grab(id, "bob", during()))
        .isInstanceOfSatisfying(
            GrabOutcome.Grabbed.class, g -> assertThat(g.amount()).isEqualTo(Amount.fen(100)));
  }

  @Test
  void grab_whenPasswordDiffers_returnsWrongPassword() {
    long id = TestRedis.newPacketId();
    store.arm(armed(packet(id, PacketType.LUCKY, 300, 2, "gongxi", List.of()), 100, 200), T0);
    assertThat(grab(id, "u1", "facai", during())).isEqualTo(GrabOutcome.WRONG_PASSWORD);
    assertThat(grab(id, "u1", null, during())).isEqualTo(GrabOutcome.WRONG_PASSWORD);
    assertThat(grab(id, "u1", "gongxi", during()))
        .isInstanceOfSatisfying(
            GrabOutcome.Grabbed.class, g -> assertThat(g.amount()).isEqualTo(Amount.fen(100)));
  }

  @Test
  void grab_checksInPrecedenceOrder() {
    long id = TestRedis.newPacketId();
    var packet = packet(id, PacketType.EXCLUSIVE, 300, 2, "pw", List.of("alice", "bob"));
    store.arm(armed(packet, 100, 200), T0);
    assertThat(grab(id, "alice", "pw", during())).isInstanceOf(GrabOutcome.Grabbed.class);

    // expired beats not-eligible and wrong password
    assertThat(grab(id, "mallory", "nope", after())).isEqualTo(GrabOutcome.EXPIRED);
    // already grabbed beats expired and wrong password
    assertThat(grab(id, "alice", "nope", after())).isInstanceOf(GrabOutcome.AlreadyGrabbed.class);
    // not eligible beats wrong password
    assertThat(grab(id, "mallory", "nope", during())).isEqualTo(GrabOutcome.NOT_ELIGIBLE);
    // wrong password beats sold out
    assertThat(grab(id, "bob", "pw", during())).isInstanceOf(GrabOutcome.Grabbed.class);
    assertThat(grab(id, "bob", "nope", during())).isInstanceOf(GrabOutcome.AlreadyGrabbed.class);
    var third = packet(TestRedis.newPacketId(), PacketType.LUCKY, 100, 1, "pw", List.of());
    store.arm(armed(third, 100), T0);
    grab(third.id(), "alice", "pw", during());
    assertThat(grab(third.id(), "bob", "nope", during())).isEqualTo(GrabOutcome.WRONG_PASSWORD);
    assertThat(grab(third.id(), "bob", "pw", during())).isEqualTo(GrabOutcome.SOLD_OUT);
    // once emptied, an expired packet answers sold out, not expired
    assertThat(grab(third.id(), "bob", "pw", after())).isEqualTo(GrabOutcome.SOLD_OUT);
  }

  @Test
  void grab_whenGrabbed_recordsThePendingAmountOfTheUser() {
    String user = TestRedis.newUserId("pending");
    long first = armLucky(70, 30);
    long second = armLucky(5);
    grab(first, user, during());
    grab(second, user, during());

    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () ->
                assertThat(store.pendingOf(user))
                    .isEqualTo(Map.of(first, Amount.fen(70), second, Amount.fen(5))));
  }

  @Test
  void grab_whenThousandsRaceForAHundredShares_handsOutEachShareOnce() throws Exception {
    int shares = 100;
    long[] amounts = IntStream.rangeClosed(1, shares).asLongStream().toArray();
    long total = LongStream.of(amounts).sum();
    long id = TestRedis.newPacketId();
    store.arm(armed(packet(id, PacketType.LUCKY, total, shares), amounts), T0);

    int users = 1_000;
    int triesPerUser = 3;
    var attempts = new ArrayList<GrabAttempt>();
    for (int round = 0; round < triesPerUser; round++) {
      for (int u = 0; u < users; u++) {
        attempts.add(new GrabAttempt(id, "racer" + u, null, during()));
      }
    }
    java.util.Collections.shuffle(attempts, new java.util.Random(42));
    List<RaceResult> results = RaceResult.runConcurrently(store, attempts, 32);

    var grabbed = results.stream().filter(r -> r.outcome() instanceof GrabOutcome.Grabbed).toList();
    assertThat(grabbed).hasSize(shares);
    assertThat(grabbed.stream().map(RaceResult::user).distinct()).hasSize(shares);
    assertThat(grabbed.stream().mapToLong(r -> r.amount().fen()).sum()).isEqualTo(total);
    for (var byUser :
        results.stream()
            .filter(r -> r.amount() != null)
            .collect(java.util.stream.Collectors.groupingBy(RaceResult::user))
            .values()) {
      assertThat(byUser.stream().map(RaceResult::amount).distinct()).hasSize(1);
    }
    assertThat(results)
        .allMatch(
            r ->
                r.outcome() instanceof GrabOutcome.Grabbed
                    || r.outcome() instanceof GrabOutcome.AlreadyGrabbed
                    || r.outcome().equals(GrabOutcome.SOLD_OUT));

    PacketState state = store.state(id).orElseThrow();
    assertThat(state.taken()).isEqualTo(shares);
    assertThat(state.takenAmount()).isEqualTo(Amount.fen(total));
    assertThat(state.available()).isEqualTo(Amount.ZERO);
    assertThat(state.grabs())
        .extracting(GrabRecord::seq)
        .containsExactlyElementsOf(IntStream.rangeClosed(1, shares).boxed().toList());
    assertThat(connection.sync().xlen(keys.payoutsOf(id))).isGreaterThanOrEqualTo(shares);
  }

  /**
   * A claim does not look through a longer payout stream than {@link RedisGrabStore#OWED_SCAN_MAX}:
   * what the packet's other grabs are owed is then not told (the claim answers 503), and told again
   * once the stream is short enough.
   */
  @Test
  void owedToOthers_beyondTheScanLimit_isNotTold() {
    RedisKeys ownKeys = TestRedis.freshKeys(1);
    var ownStore = new RedisGrabStore(connection, ownKeys, Duration.ofDays(1));
    long id = TestRedis.newPacketId();
    String payouts = ownKeys.payoutsOf(id);
    try {
      connection
          .sync()
          .eval(
              "for i = 1, tonumber(ARGV[1]) do"
                  + " redis.call('XADD', KEYS[1], '*', 'p', ARGV[2], 'u', 'u' .. i, 'a', '1') end"
                  + " return 1",
              ScriptOutputType.INTEGER,
              new String[] {payouts},
              Integer.toString(RedisGrabStore.OWED_SCAN_MAX + 1),
              Long.toString(id));

      assertThat(ownStore.owedToOthers(id, null, "u1")).isEmpty();

      connection.sync().xtrim(payouts, RedisGrabStore.OWED_SCAN_MAX);
      assertThat(ownStore.owedToOthers(id, null, "bob").orElseThrow())
          .hasSize(RedisGrabStore.OWED_SCAN_MAX)
          .as("the trim left the newest, u2 onwards")
          .containsEntry("u2", Amount.fen(1))
          .containsEntry("u" + (RedisGrabStore.OWED_SCAN_MAX + 1), Amount.fen(1));
    } finally {
      TestRedis.deleteAll(connection, ownKeys);
    }
  }

  @Test
  void close_whenNotExpired_returnsEmptyAndChangesNothing() {
    long id = armLucky(100, 100);
    assertThat(store.close(id, null, Amount.fen(200), during())).isEqualTo(Closing.NOT_YET);
    assertThat(grab(id, "u1", during())).isInstanceOf(GrabOutcome.Grabbed.class);
  }

  @Test
  void close_whenExpired_returnsTheRemainderEveryTime() {
    long id = armLucky(120, 80, 50);
    grab(id, "u1", during());

    assertThat(store.close(id, null, Amount.fen(250), after()))
        .isEqualTo(new Closing.Closed(Amount.fen(130)));
    assertThat(store.close(id, null, Amount.fen(250), after().plusSeconds(60)))
        .isEqualTo(new Closing.Closed(Amount.fen(130)));
    PacketState state = store.state(id).orElseThrow();
    assertThat(state.closed()).isTrue();
    assertThat(state.closedRemainder()).isEqualTo(Amount.fen(130));
    assertThat(state.available()).isEqualTo(Amount.ZERO);
  }

  @Test
  void close_whenNeverArmed_writesATombstoneThatRefusesALateArm() {
    long id = TestRedis.newPacketId();
    assertThat(store.close(id, null, Amount.fen(500), during()))
        .isEqualTo(new Closing.Closed(Amount.fen(500)));
    assertThat(store.close(id, null, Amount.fen(999), during()))
        .isEqualTo(new Closing.Closed(Amount.fen(500)));

    assertThat(store.arm(armed(packet(id, PacketType.LUCKY, 500, 2), 250, 250), T0))
        .isNotEqualTo(ArmResult.ARMED);
    assertThat(grab(id, "u1", during())).isEqualTo(GrabOutcome.EXPIRED);
    PacketState state = store.state(id).orElseThrow();
    assertThat(state.closed()).isTrue();
    assertThat(state.closedRemainder()).isEqualTo(Amount.fen(500));
    assertThat(state.grabs()).isEmpty();
    assertThat(connection.sync().pttl(keys.meta(id))).isPositive();
  }

  @Test
  void close_racingGrabs_accountsForEveryFen() throws Exception {
    int shares = 500;
    long[] amounts = LongStream.generate(() -> 7).limit(shares).toArray();
    long total = 7L * shares;
    long id = TestRedis.newPacketId();
    store.arm(armed(packet(id, PacketType.FIXED, total, shares), amounts), T0);

    var attempts = new ArrayList<GrabAttempt>();
    for (int u = 0; u < shares; u++) {
      // a lagging instance's clock: the grab would still be in time if the close had not run
      attempts.add(new GrabAttempt(id, "late" + u, null, during()));
    }
    var closing = new java.util.concurrent.CompletableFuture<Amount>();
    Thread closer =
        Thread.ofPlatform()
            .start(
                () ->
                    closing.complete(
                        ((Closing.Closed) store.close(id, null, Amount.fen(total), after()))
                            .remainder()));
    List<RaceResult> results = RaceResult.runConcurrently(store, attempts, 16);
    closer.join();

    long grabbed =
        results.stream()
            .filter(r -> r.outcome() instanceof GrabOutcome.Grabbed)
            .mapToLong(r -> r.amount().fen())
            .sum();
    assertThat(grabbed + closing.join().fen()).isEqualTo(total);
    PacketState state = store.state(id).orElseThrow();
    assertThat(state.takenAmount().plus(state.closedRemainder())).isEqualTo(Amount.fen(total));
  }

  @Test
  void state_reportsCountersGrabsInOrderAndTheSumOfSharesLeft() {
    long id = armLucky(10, 20, 30, 40);
    Instant first = during();
    Instant second = during().plusMillis(5);
    grab(id, "u1", first);
    grab(id, "u2", second);

    PacketState state = store.state(id).orElseThrow();
    assertThat(state.total()).isEqualTo(Amount.fen(100));
    assertThat(state.count()).isEqualTo(4);
    assertThat(state.taken()).isEqualTo(2);
    assertThat(state.takenAmount()).isEqualTo(Amount.fen(30));
    assertThat(state.available()).isEqualTo(Amount.fen(70));
    assertThat(state.closed()).isFalse();
    assertThat(state.closedRemainder()).isEqualTo(Amount.ZERO);
    assertThat(state.emptiedAt()).isNull();
    assertThat(state.grabs())
        .containsExactly(
            new GrabRecord("u1", Amount.fen(10), first, 1),
            new GrabRecord("u2", Amount.fen(20), second, 2));

    Instant last = during().plusMillis(9);
    grab(id, "u3", last);
    grab(id, "u4", last);
    assertThat(store.state(id).orElseThrow().emptiedAt()).isEqualTo(last);
  }

  @Test
  void state_whenUnknown_isEmpty() {
    assertThat(store.state(TestRedis.newPacketId())).isEmpty();
  }

  @Test
  void grab_afterRedisForgotTheScripts_reloadsAndSucceeds() {
    assumeTrue(TestRedis.isPrivateServer(), "SCRIPT FLUSH would disturb a shared server");
    long id = armLucky(10);
    connection.sync().scriptFlush();
    assertThat(grab(id, "u1", during()))
        .isInstanceOfSatisfying(
            GrabOutcome.Grabbed.class, g -> assertThat(g.amount()).isEqualTo(Amount.fen(10)));
    connection.sync().scriptFlush();
    assertThat(store.state(id).orElseThrow().taken()).isEqualTo(1);
  }
}
