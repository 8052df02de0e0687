package hongbao.redis.grab;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.grab.ArmResult;
import hongbao.core.grab.ArmedPacket;
import hongbao.core.grab.GrabAttempt;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.PacketState;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import hongbao.core.split.AtGrabSplit;
import hongbao.redis.RedisKeys;
import hongbao.redis.TestRedis;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The grab script cuts shares of a split-at-grab packet with the same formula as Java's {@link
 * AtGrabSplit#nextShare}: fed the same random values, Lua and Java hand out the same shares, and
 * the packet empties exactly.
 */
class SplitAtGrabTest {

  private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  private static StatefulRedisConnection<String, String> connection;
  private static RedisKeys keys;
  private static RedisGrabStore store;

  @BeforeAll
  static void connect() {
    connection = TestRedis.connect();
    keys = TestRedis.freshKeys(64);
    store = new RedisGrabStore(connection, keys, Duration.ofDays(1));
  }

  @AfterAll
  static void cleanUp() {
    TestRedis.deleteAll(connection, keys);
    connection.close();
  }

  private static long armAtGrab(long amount, int count, long capFen) {
    long id = TestRedis.newPacketId();
    var packet =
        new Packet(
            id,
            "sender",
            PacketType.LUCKY,
            Amount.fen(amount),
            count,
            null,
            null,
            List.of(),
            T0,
            T0.plusSeconds(3600));
    assertThat(store.arm(ArmedPacket.splitAtGrab(packet, capFen), T0)).isEqualTo(ArmResult.ARMED);
    return id;
  }

  private static void grabsAgreeWithJava(long amount, int count, long capFen, long seed) {
    long id = armAtGrab(amount, count, capFen);
    var random = new SplittableRandom(seed);
    long left = amount;
    for (int i = 0; i < count; i++) {
      long r = random.nextInt() >>> 1;
      long expected = AtGrabSplit.nextShare(left, count - i, r, capFen == 0 ? left : capFen);
      GrabOutcome outcome =
          store.grab(new GrabAttempt(id, "u" + i, null, T0, r)).toCompletableFuture().join();
      assertThat(outcome)
          .as("share %d of %d fen / %d (seed %d)", i + 1, amount, count, seed)
          .isInstanceOfSatisfying(
              GrabOutcome.Grabbed.class,
              g -> assertThat(g.amount()).isEqualTo(Amount.fen(expected)));
      left -= expected;
    }
    assertThat(left).isZero();
    assertThat(store.grab(new GrabAttempt(id, "late", null, T0, 7)).toCompletableFuture().join())
        .isEqualTo(GrabOutcome.SOLD_OUT);
    PacketState state = store.state(id).orElseThrow();
    assertThat(state.takenAmount()).isEqualTo(Amount.fen(amount));
    assertThat(state.available()).isEqualTo(Amount.ZERO);
  }

  @Test
  void luaShares_equalJavaShares_onTheSameRandomValues() {
    for (long seed = 1; seed <= 20; seed++) {
      grabsAgreeWithJava(10_000, 10, 0, seed);
    }
  }

  @Test
  void luaShares_equalJavaShares_withACap_andAtTheEdges() {
    grabsAgreeWithJava(20_000, 1, 0, 1);
    grabsAgreeWithJava(50, 50, 0, 2);
    grabsAgreeWithJava(100_000, 10, 20_000, 3);
    grabsAgreeWithJava(20_000_000, 300, 0, 4);
    grabsAgreeWithJava(Amount.MAX_FEN, 7, 0, 5);
    grabsAgreeWithJava(Amount.MAX_FEN / 2, 3, Amount.MAX_FEN / 4, 6);
  }

  @Test
  void availableAmount_ofAnOpenAtGrabPacket_isWhatIsNotTaken() {
    long id = armAtGrab(1_000, 4, 0);
    store.grab(new GrabAttempt(id, "a", null, T0, 12345)).toCompletableFuture().join();
    PacketState state = store.state(id).orElseThrow();
    assertThat(state.available().plus(state.takenAmount())).isEqualTo(Amount.fen(1_000));
    assertThat(state.taken()).isEqualTo(1);
  }
}
