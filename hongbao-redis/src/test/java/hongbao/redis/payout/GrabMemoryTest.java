package hongbao.redis.payout;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.grab.ArmedPacket;
import hongbao.core.grab.GrabAttempt;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import hongbao.core.payout.PayoutTask;
import hongbao.redis.RedisKeys;
import hongbao.redis.TestRedis;
import hongbao.redis.grab.RedisGrabStore;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * What a grab leaves in Redis once its payout is acknowledged: the packet's keys and the shard's
 * stream, measured exactly (MEMORY USAGE ... SAMPLES 0) rather than through {@code used_memory},
 * which client buffers and other tests disturb.
 */
class GrabMemoryTest {

  static final long BYTES_PER_GRAB_MAX = 150;

  @Test
  void grab_afterPayoutAcknowledged_costsAtMost150BytesOfRedisMemory() {
    int grabs = 20_000;
    StatefulRedisConnection<String, String> connection = TestRedis.connect();
    RedisKeys keys = TestRedis.freshKeys(1);
    var store = new RedisGrabStore(connection, keys, Duration.ofDays(1));
    try (var queue = new RedisPayoutQueue(TestRedis.link(), keys)) {
      Instant t0 = Instant.now().truncatedTo(ChronoUnit.SECONDS);
      long id = TestRedis.newPacketId();
      var packet =
          new Packet(
              id,
              "sender",
              PacketType.FIXED,
              Amount.fen(100L * grabs),
              grabs,
              null,
              null,
              List.of(),
              t0,
              t0.plusSeconds(3_600));
      var shares = LongStream.generate(() -> 100).limit(grabs).mapToObj(Amount::fen).toList();

      store.arm(new ArmedPacket(packet, shares), t0);
      var answers = new ArrayList<CompletionStage<?>>();
      for (int u = 0; u < grabs; u++) {
        answers.add(
            store.grab(new GrabAttempt(id, "user" + (100_000 + u), null, t0.plusMillis(u))));
      }
      answers.forEach(answer -> answer.toCompletableFuture().join());
      int paid = 0;
      while (paid < grabs) {
        List<PayoutTask> batch = queue.poll("w", 1_000, Duration.ofSeconds(1));
        queue.ack(batch);
        paid += batch.size();
      }
      long bytes = 0;
      for (String key :
          List.of(keys.meta(id), keys.shares(id), keys.grabs(id), keys.payoutsOf(id))) {
        bytes += memoryUsage(connection, key);
      }
      long perGrab = bytes / grabs;
      assertThat(connection.sync().exists(keys.pending("user100000"))).isZero();

      System.out.printf("Redis memory per acknowledged grab: %d bytes%n", perGrab);
      assertThat(perGrab).isLessThanOrEqualTo(BYTES_PER_GRAB_MAX);
    } finally {
      TestRedis.deleteAll(connection, keys);
      connection.close();
    }
  }

  private static long memoryUsage(StatefulRedisConnection<String, String> connection, String key) {
    Long bytes =
        connection
            .sync()
            .eval(
                "return redis.call('MEMORY', 'USAGE', KEYS[1], 'SAMPLES', '0') or 0",
                ScriptOutputType.INTEGER,
                key);
    return bytes;
  }
}
