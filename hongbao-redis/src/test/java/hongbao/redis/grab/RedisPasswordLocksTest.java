package hongbao.redis.grab;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.grab.ArmResult;
import hongbao.core.grab.ArmedPacket;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import hongbao.core.password.PasswordLock;
import hongbao.core.password.PasswordMatch;
import hongbao.core.password.Reading;
import hongbao.redis.RedisKeys;
import hongbao.redis.TestRedis;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A packet's 口令 lock goes into the meta at arm time and comes back whole from one read. */
class RedisPasswordLocksTest {

  static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  static StatefulRedisConnection<String, String> connection;
  static RedisKeys keys;
  static RedisGrabStore store;
  static RedisPasswordLocks locks;

  @BeforeAll
  static void connect() {
    connection = TestRedis.connect();
    keys = TestRedis.freshKeys(16);
    store = new RedisGrabStore(connection, keys, Duration.ofDays(1));
    locks = new RedisPasswordLocks(connection, keys);
  }

  @AfterAll
  static void cleanUp() {
    TestRedis.deleteAll(connection, keys);
    connection.close();
  }

  static long arm(String key, PasswordLock lock, PasswordMatch match) {
    long id = TestRedis.newPacketId();
    var packet =
        new Packet(
            id,
            "sender",
            PacketType.FIXED,
            Amount.fen(200),
            2,
            null,
            key,
            List.of(),
            T0,
            T0.plusSeconds(600),
            match);
    List<Amount> shares = List.of(Amount.fen(100), Amount.fen(100));
    assertThat(store.arm(new ArmedPacket(packet, shares, false, 0, List.of(), lock, 0), T0))
        .isEqualTo(ArmResult.ARMED);
    return id;
  }

  static Optional<PasswordLock> lockOf(long id) {
    return locks.lockOf(id).toCompletableFuture().join();
  }

  @Test
  void lockOf_aPinyinPacket_isItsKeyModeAndReading() {
    var reading = Reading.decode("gong xi fa cai");
    var lock = new PasswordLock("恭喜发财", new PasswordMatch.Fuzzy(85), reading);

    assertThat(lockOf(arm("恭喜发财", lock, lock.match()))).contains(lock);
  }

  @Test
  void lockOf_anExactPacket_isExact() {
    var lock = PasswordLock.exact("hb2026");

    assertThat(lockOf(arm("hb2026", lock, PasswordMatch.EXACT))).contains(lock);
  }

  @Test
  void lockOf_aPacketWithoutPassword_orUnknown_isEmpty() {
    assertThat(lockOf(arm(null, null, PasswordMatch.EXACT))).isEmpty();
    assertThat(lockOf(TestRedis.newPacketId())).isEmpty();
  }

  @Test
  void lockOf_aPacketArmedBeforePinyinMatching_isExact() {
    long id = arm("恭喜发财", PasswordLock.exact("恭喜发财"), PasswordMatch.EXACT);
    connection.sync().hdel(keys.meta(id), "pwm", "pwr");

    assertThat(lockOf(id)).contains(PasswordLock.exact("恭喜发财"));
  }
}
