package hongbao.app.drill;

import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import io.lettuce.core.RedisClient;
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

  @Override
  public void close() {
    try {
      service.close();
    } finally {
      redis.close();
    }
  }
}
