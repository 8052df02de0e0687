package hongbao.redis.grab;

import static hongbao.redis.grab.RedisGrabStoreTest.EXPIRES;
import static hongbao.redis.grab.RedisGrabStoreTest.T0;
import static hongbao.redis.grab.RedisGrabStoreTest.after;
import static hongbao.redis.grab.RedisGrabStoreTest.armed;
import static hongbao.redis.grab.RedisGrabStoreTest.during;
import static hongbao.redis.grab.RedisGrabStoreTest.packet;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.grab.ArmResult;
import hongbao.core.grab.ArmedPacket;
import hongbao.core.grab.Closing;
import hongbao.core.grab.GrabAttempt;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabRecord;
import hongbao.core.grab.PacketState;
import hongbao.core.grab.Recovered;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import hongbao.redis.RedisKeys;
import hongbao.redis.TestRedis;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The scripts that rebuild a packet from the ledger and put lost grabs back, on real Redis. */
class RedisRecoveryTest {

  private static final AtomicLong IDS = new AtomicLong(900_000);

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

  private static GrabOutcome grab(long id, String user) {
    return store.grab(new GrabAttempt(id, user, null, during(), 0)).toCompletableFuture().join();
  }

  private static GrabRecord record(String user, long fen, int seq) {
    return new GrabRecord(user, Amount.fen(fen), T0.plusSeconds(seq), seq);
  }

  private static PacketState state(long id) {
    return store.state(id).orElseThrow();
  }

  @Test
  void arm_withRestoredGrabs_answersThemAlreadyGrabbed_andSellsOnlyWhatIsLeft() {
    long id = IDS.incrementAndGet();
    Packet packet = packet(id, PacketType.LUCKY, 1000, 4);
    var rebuilt =
        new ArmedPacket(
            packet,
            List.of(Amount.fen(100), Amount.fen(200)),
            false,
            0,
            List.of(record("paid1", 300, 1), record("paid2", 400, 2)));

    assertThat(store.arm(rebuilt, T0)).isEqualTo(ArmResult.ARMED);

    assertThat(grab(id, "paid1")).isEqualTo(new GrabOutcome.AlreadyGrabbed(Amount.fen(300)));
    assertThat(grab(id, "new1"))
        .isInstanceOfSatisfying(GrabOutcome.Grabbed.class, g -> assertThat(g.seq()).isEqualTo(3));
    assertThat(grab(id, "new2")).isInstanceOf(GrabOutcome.Grabbed.class);
    assertThat(grab(id, "new3")).isEqualTo(GrabOutcome.SOLD_OUT);
    PacketState state = state(id);
    assertThat(state.taken()).isEqualTo(4);
    assertThat(state.takenAmount()).isEqualTo(Amount.fen(1000));
  }

  @Test
  void arm_overAnotherPacketsState_describesIt_andHoldStopsItsGrabs() {
    long id = IDS.incrementAndGet();
    store.arm(armed(packet(id, PacketType.FIXED, 200, 2), 100, 100), T0);
    Packet reused =
        new Packet(
            id,
            "someone",
            PacketType.FIXED,
            Amount.fen(500),
            5,
            null,
            null,
            List.of(),
            T0.plusSeconds(5),
            EXPIRES);

    ArmResult result = store.arm(armed(reused, 100, 100, 100, 100, 100), T0.plusSeconds(5));

    assertThat(result).isEqualTo(new ArmResult.Existing(Amount.fen(200), 2, T0));
    assertThat(store.hold(id, T0.plusSeconds(5))).as("another state: not held").isFalse();
    assertThat(store.hold(id, T0)).isTrue();
    assertThat(grab(id, "anyone")).isEqualTo(GrabOutcome.HELD);
    assertThat(store.close(id, null, Amount.fen(200), after())).isEqualTo(Closing.HELD);
  }

  @Test
  void recover_takesTheLostAmountOutOfThePool_whateverTheNextShareIs() {
    long id = IDS.incrementAndGet();
    store.arm(armed(packet(id, PacketType.LUCKY, 1000, 4), 400, 100, 300, 200), T0);

    List<Recovered> results =
        store.recover(
            id, List.of(record("lost1", 150, 1), record("lost2", 500, 2)), true /* claimed */);

    assertThat(results)
        .containsExactly(
            new Recovered.Done(Amount.fen(150), 1), new Recovered.Done(Amount.fen(500), 2));
    PacketState state = state(id);
    assertThat(state.taken()).isEqualTo(2);
    assertThat(state.takenAmount()).isEqualTo(Amount.fen(650));
    assertThat(state.available()).isEqualTo(Amount.fen(350));
    // Two shares are left, together worth exactly what is left.
    GrabOutcome a = grab(id, "a");
    GrabOutcome b = grab(id, "b");
    long sum = ((GrabOutcome.Grabbed) a).amount().fen() + ((GrabOutcome.Grabbed) b).amount().fen();
    assertThat(sum).isEqualTo(350);
    assertThat(grab(id, "c")).isEqualTo(GrabOutcome.SOLD_OUT);
    // The claims were queued for payout, as grabs are.
    assertThat(connection.sync().xlen(keys.payoutsOf(id))).isGreaterThanOrEqualTo(4);
  }

  /**
   * A receipt's grab smaller than the last share leaves the difference as the packet's spare. When
   * the store then loses the packet, the ledger has paid every share for less than the total: the
   * rebuilt packet keeps that difference as its spare and the close refunds it. Rebuilding it was
   * refused as a broken invariant, which stopped the store's repair.
   */
  @Test
  void arm_ofAPacketWhoseEveryShareWasPaidForLessThanItsTotal_keepsTheRestAsSpare() {
    long id = IDS.incrementAndGet();
    Packet packet = packet(id, PacketType.LUCKY, 10, 3);
    store.arm(armed(packet, 3, 3, 4), T0);
    grab(id, "b");
    grab(id, "c");
    assertThat(store.recover(id, List.of(record("a", 3, 1)), true))
        .containsExactly(new Recovered.Done(Amount.fen(3), 3));
    assertThat(state(id).available()).as("the spare").isEqualTo(Amount.fen(1));
    connection.sync().del(keys.meta(id), keys.shares(id), keys.grabs(id)); // the store loses it

    var rebuilt =
        new ArmedPacket(
            packet,
            List.of(),
            false,
            0,
            List.of(record("b", 3, 1), record("c", 3, 2), record("a", 3, 3)));
    assertThat(store.arm(rebuilt, T0)).isEqualTo(ArmResult.ARMED);

    assertThat(grab(id, "d")).isEqualTo(GrabOutcome.SOLD_OUT);
    assertThat(state(id).available()).isEqualTo(Amount.fen(1));
    assertThat(store.close(id, null, Amount.fen(1), after()))
        .isEqualTo(new Closing.Closed(Amount.fen(1)));
  }

  @Test
  void recover_whenTooLittleIsLeft_isExhausted_andChangesNothing() {
    long id = IDS.incrementAndGet();
    store.arm(armed(packet(id, PacketType.LUCKY, 100, 2), 50, 50), T0);

    assertThat(store.recover(id, List.of(record("lost", 100, 1)), true))
        .containsExactly(Recovered.EXHAUSTED);
    assertThat(state(id).available()).isEqualTo(Amount.fen(100));
    assertThat(state(id).taken()).isZero();
  }

  @Test
  void recover_ofAGrabTheStoreHas_orOnAClosedOrMissingPacket_changesNothing() {
    long id = IDS.incrementAndGet();
    store.arm(armed(packet(id, PacketType.FIXED, 300, 3), 100, 100, 100), T0);
    grab(id, "there");

    assertThat(store.recover(id, List.of(record("there", 100, 1)), false))
        .containsExactly(new Recovered.AlreadyThere(Amount.fen(100)));
    store.close(id, null, Amount.fen(300), after());
    assertThat(store.recover(id, List.of(record("late", 100, 2)), false))
        .containsExactly(Recovered.REFUNDED);
    assertThat(store.recover(IDS.incrementAndGet(), List.of(record("x", 1, 1)), false))
        .containsExactly(Recovered.MISSING);
  }

  @Test
  void close_ofAPacketWithoutState_waitsForItsQueuedPayouts() {
    long id = IDS.incrementAndGet();
    connection
        .sync()
        .xadd(keys.payoutsOf(id), "p", Long.toString(id), "u", "x", "a", "5", "t", "1");

    assertThat(store.close(id, null, Amount.fen(95), after())).isEqualTo(Closing.BUSY);
    connection.sync().del(keys.payoutsOf(id));
    assertThat(store.close(id, null, Amount.fen(95), after()))
        .isEqualTo(new Closing.Closed(Amount.fen(95)));
  }

  /**
   * A payout given up on (dead-lettered) is still owed: an operator may retry it once its cause is
   * mended, and the escrow must still hold its money. A packet without state is closed with its
   * dead-lettered payouts taken off what the ledger says is left, other packets' left alone.
   */
  @Test
  void close_ofAPacketWithoutState_leavesItsDeadLetteredPayoutsInTheEscrow() {
    long id = IDS.incrementAndGet();
    String dead = RedisKeys.deadLettersOf(keys.payoutsOf(id));
    connection
        .sync()
        .xadd(dead, "p", Long.toString(id), "u", "x", "a", "30", "t", "1", "n", "5", "r", "why");
    connection
        .sync()
        .xadd(dead, "p", Long.toString(id + 1_000), "u", "y", "a", "7", "t", "1", "n", "5");
    connection
        .sync()
        .xadd(dead, "p", Long.toString(id), "u", "z", "a", "15", "t", "1", "n", "5", "r", "why");

    assertThat(store.close(id, null, Amount.fen(95), after()))
        .isEqualTo(new Closing.Closed(Amount.fen(50)));
    assertThat(store.close(id, null, Amount.fen(95), after()))
        .as("the same remainder every time")
        .isEqualTo(new Closing.Closed(Amount.fen(50)));
  }

  /**
   * After PostgreSQL is restored from a backup, a packet may be given the id of an older one whose
   * dead letters are still in the stream: those owe nothing from the new packet's escrow and must
   * not keep its remainder from its sender. A dead letter naming no creation (queued by an older
   * version), or a close that knows none, still takes off: a remainder too small, never too large.
   */
  @Test
  void close_ofAPacketWithoutState_leavesOutDeadLettersOfAnotherCreationUnderItsId() {
    long id = IDS.incrementAndGet();
    String dead = RedisKeys.deadLettersOf(keys.payoutsOf(id));
    String created = Long.toString(T0.toEpochMilli());
    String older = Long.toString(T0.minusSeconds(86_400).toEpochMilli());
    connection
        .sync()
        .xadd(dead, "p", Long.toString(id), "u", "x", "a", "30", "t", "1", "c", created, "n", "5");
    connection
        .sync()
        .xadd(dead, "p", Long.toString(id), "u", "y", "a", "7", "t", "1", "c", older, "n", "5");
    connection.sync().xadd(dead, "p", Long.toString(id), "u", "z", "a", "15", "t", "1", "n", "5");

    assertThat(store.close(id, T0, Amount.fen(95), after()))
        .as("the older packet's 7 fen left out; this one's 30 and the unnamed 15 kept")
        .isEqualTo(new Closing.Closed(Amount.fen(50)));

    long unknown = IDS.incrementAndGet();
    String itsDead = RedisKeys.deadLettersOf(keys.payoutsOf(unknown));
    connection
        .sync()
        .xadd(itsDead, "p", Long.toString(unknown), "u", "y", "a", "7", "t", "1", "c", older);
    assertThat(store.close(unknown, null, Amount.fen(95), after()))
        .as("a close that knows no creation counts every dead letter under the id")
        .isEqualTo(new Closing.Closed(Amount.fen(88)));
  }
}
