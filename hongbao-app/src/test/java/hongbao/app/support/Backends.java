package hongbao.app.support;

import hongbao.app.embedded.EmbeddedPostgresServer;
import hongbao.app.embedded.EmbeddedRedis;
import io.lettuce.core.RedisClient;
import java.util.UUID;

/**
 * The Redis and PostgreSQL that integration tests run against: embedded servers started once per
 * test JVM, and — when HONGBAO_TEST_REDIS_URL and HONGBAO_TEST_JDBC_URL are set — the given servers
 * too. On given servers a fresh schema per run and a flushed Redis database (use a dedicated
 * database index in the URL) keep runs independent.
 */
public record Backends(String name, String redisUrl, String jdbcUrl, String schema) {

  private static Backends embedded;
  private static Backends external;

  public static synchronized Backends embedded() {
    if (embedded == null) {
      EmbeddedRedis redis = EmbeddedRedis.start();
      EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start();
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    redis.close();
                    postgres.close();
                  }));
      embedded = new Backends("embedded", redis.url(), postgres.jdbcUrl(), null);
    }
    return embedded;
  }

  public static boolean externalConfigured() {
    return System.getenv("HONGBAO_TEST_REDIS_URL") != null
        && System.getenv("HONGBAO_TEST_JDBC_URL") != null;
  }

  public static synchronized Backends external() {
    if (external == null) {
      String redisUrl = System.getenv("HONGBAO_TEST_REDIS_URL");
      RedisClient client = RedisClient.create(redisUrl);
      try (var connection = client.connect()) {
        connection.sync().flushdb();
      } finally {
        client.shutdown();
      }
      String schema = "hongbao_test_" + UUID.randomUUID().toString().replace("-", "");
      String jdbcUrl = System.getenv("HONGBAO_TEST_JDBC_URL");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> dropSchema(jdbcUrl, schema)));
      external = new Backends("external", redisUrl, jdbcUrl, schema);
    }
    return external;
  }

  /** Leaves the shared server as it was found. */
  private static void dropSchema(String jdbcUrl, String schema) {
    try (var connection = java.sql.DriverManager.getConnection(jdbcUrl);
        var statement = connection.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    } catch (java.sql.SQLException e) {
      System.err.println("could not drop test schema " + schema + ": " + e);
    }
  }
}
