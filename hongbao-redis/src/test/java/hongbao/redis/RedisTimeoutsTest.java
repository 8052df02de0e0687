package hongbao.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.Consumer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A command the server holds fails at the command timeout, synchronous or not; a blocking stream
 * read may wait its block time on top. BLPOP stands in for a server that does not answer: the
 * client cannot tell the two apart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisTimeoutsTest {

  private static final Duration COMMAND = Duration.ofMillis(300);
  private static final Duration BLOCK = Duration.ofSeconds(2);

  private RedisClient client;

  @BeforeAll
  void connect() {
    client = RedisTimeouts.client(TestRedis.url(), COMMAND, BLOCK);
  }

  @AfterAll
  void shutdown() {
    client.shutdown();
  }

  @SuppressWarnings("unchecked") // generic arrays cannot be created otherwise
  private static StreamOffset<String>[] unread(String stream) {
    StreamOffset<String>[] offsets = (StreamOffset<String>[]) new StreamOffset<?>[1];
    offsets[0] = StreamOffset.lastConsumed(stream);
    return offsets;
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  @Test
  void commandTheServerHolds_failsAtTheCommandTimeout_synchronously() {
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      long started = System.nanoTime();
      assertThatThrownBy(() -> connection.sync().blpop(5, TestRedis.newUserId("never-pushed")))
          .isInstanceOf(RedisCommandTimeoutException.class);
      assertThat(millisSince(started)).isBetween(250L, 2_000L);
    }
  }

  @Test
  void commandTheServerHolds_failsAtTheCommandTimeout_asynchronously() {
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      long started = System.nanoTime();
      var reply =
          connection.async().blpop(5, TestRedis.newUserId("never-pushed")).toCompletableFuture();
      assertThatThrownBy(() -> reply.get(4, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(RedisCommandTimeoutException.class);
      assertThat(millisSince(started)).isBetween(250L, 2_000L);
    }
  }

  @Test
  void blockingStreamRead_mayWaitItsBlockTime_butNoLonger() {
    String stream = TestRedis.newUserId("timeouts-stream");
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      var sync = connection.sync();
      sync.xgroupCreate(StreamOffset.from(stream, "0"), "g", XGroupCreateArgs.Builder.mkstream());
      try {
        var group = Consumer.from("g", "c");
        long started = System.nanoTime();
        assertThat(
                sync.xreadgroup(
                    group, XReadArgs.Builder.block(Duration.ofSeconds(1)), unread(stream)))
            .isEmpty();
        assertThat(millisSince(started)).isBetween(900L, 2_000L);

        started = System.nanoTime();
        assertThatThrownBy(
                () ->
                    sync.xreadgroup(
                        group, XReadArgs.Builder.block(Duration.ofSeconds(10)), unread(stream)))
            .isInstanceOf(RedisCommandTimeoutException.class);
        assertThat(millisSince(started)).isBetween(2_200L, 4_000L);
      } finally {
        try (StatefulRedisConnection<String, String> cleanup = client.connect()) {
          cleanup.sync().del(stream);
        }
      }
    }
  }

  @Test
  void timeouts_thatCannotWork_areRefused() {
    assertThatThrownBy(() -> new RedisTimeouts(Duration.ZERO, BLOCK))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RedisTimeouts(COMMAND, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
