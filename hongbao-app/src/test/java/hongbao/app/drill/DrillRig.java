package hongbao.app.drill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import io.lettuce.core.RedisClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;

/**
 * A drill's own service: a Redis no other test shares (the drill destroys it), the shared embedded
 * PostgreSQL under a schema of the drill's own, and the service between them.
 */
final class DrillRig implements AutoCloseable {

  final EmbeddedRedis redis;
  final TestService service;

  private DrillRig(EmbeddedRedis redis, TestService service) {
    this.redis = redis;
    this.service = service;
  }

  static DrillRig start(String drill, Map<String, String> env, boolean workers) {
    EmbeddedRedis redis = EmbeddedRedis.start();
    try {
      Backends postgres = Backends.embedded();
      return new DrillRig(
          redis,
          TestService.start(
              new Backends(drill, redis.url(), postgres.jdbcUrl(), Drills.schema(drill)),
              env,
              workers));
    } catch (RuntimeException | Error e) {
      redis.close();
      throw e;
    }
  }

  static DrillRig start(String drill) {
    return start(drill, Map.of(), true);
  }

  /** Redis comes back empty, as after a restart without persistence; the service runs on. */
  void flushRedis() {
    RedisClient client = RedisClient.create(redis.url());
    try (var connection = client.connect()) {
      connection.sync().flushall();
    } finally {
      client.shutdown();
    }
  }

  /**
   * Waits until no client of this Redis is blocked in a read: once payouts are switched off, a
   * worker's poll that began before then has returned (with whatever it found, which the worker
   * then holds until payouts resume), and no other begins.
   */
  void awaitNoPollInProgress() {
    RedisClient client = RedisClient.create(redis.url());
    try (var connection = client.connect()) {
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> connection.sync().info("clients").contains("blocked_clients:0\r\n"));
    } finally {
      client.shutdown();
    }
  }

  /** What the append-only file holds now: a point to cut it back to with {@link #powerLoss}. */
  long aofBytes() {
    // With appendfsync everysec Redis may answer a write before it writes it to the file (it puts
    // the write off while a slow fsync runs): a cut at the length read then would lose a write the
    // drill means to keep. Written before each answer from here on, and everything held back
    // written before this one's, the length is exact.
    RedisClient client = RedisClient.create(redis.url());
    try (var connection = client.connect()) {
      connection.sync().configSet("appendfsync", "always");
    } finally {
      client.shutdown();
    }
    try {
      return Files.size(redis.aof());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A power loss: Redis stops, its append-only file loses everything written after {@code
   * aofBytes}, and it starts again from what is left; the service runs on.
   */
  void powerLoss(long aofBytes) {
    redis.restart(directory -> truncate(directory.resolve(EmbeddedRedis.AOF), aofBytes));
  }

  private static void truncate(Path file, long size) {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      assertThat(channel.size()).as("the AOF grew after the cut-off point").isGreaterThan(size);
      channel.truncate(size);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      service.close();
    } finally {
      redis.close();
    }
  }
}
