package hongbao.app.support;

import hongbao.app.embedded.EmbeddedPostgresServer;
import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.embedded.GatewaySimProcess;
import io.lettuce.core.RedisClient;
import java.util.List;
import java.util.UUID;

/**
 * The Redis and PostgreSQL that integration tests run against: embedded servers started once per
 * test JVM, and — when HONGBAO_TEST_REDIS_URL and HONGBAO_TEST_JDBC_URL are set — the given servers
 * too. On given servers a fresh schema per run and a flushed Redis database (use a dedicated
 * database index in the URL) keep runs independent.
 *
 * <p>Each set of backends has its own payment gateway simulator in a child process, started with
 * them: its book must hold exactly the withdrawals of their database, or reconciling them against
 * its statements would find strangers. Tests change its fault rates while it runs.
 */
public record Backends(
    String name,
    String redisUrl,
    String jdbcUrl,
    String schema,
    String gatewayUrl,
    String gatewaySecret) {

  /**
   * Backends on a schema of their own without a gateway: the service starts a gateway simulator of
   * its own (with an empty book), as its statements must match that schema's withdrawals.
   */
  public Backends(String name, String redisUrl, String jdbcUrl, String schema) {
    this(name, redisUrl, jdbcUrl, schema, null, null);
  }

  /** Shared with the simulators of the tests; not a secret of anything real. */
  public static final String GATEWAY_SECRET = "hongbao-test-gateway-secret";

  /** The simulator answers within a few milliseconds and holds a timed-out request this long. */
  public static final int GATEWAY_HOLD_MILLIS = 600;

  /** The service gives up on a gateway call after this long: well below the hold. */
  public static final int GATEWAY_TIMEOUT_MILLIS = 300;

  private static Backends embedded;
  private static Backends external;

  public static synchronized Backends embedded() {
    if (embedded == null) {
      EmbeddedRedis redis = EmbeddedRedis.start();
      EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start();
      GatewaySimProcess gateway = startGateway();
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    gateway.close();
                    redis.close();
                    postgres.close();
                  }));
      embedded =
          new Backends(
              "embedded", redis.url(), postgres.jdbcUrl(), null, gateway.url(), GATEWAY_SECRET);
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
      GatewaySimProcess gateway = startGateway();
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    gateway.close();
                    dropSchema(jdbcUrl, schema);
                  }));
      external = new Backends("external", redisUrl, jdbcUrl, schema, gateway.url(), GATEWAY_SECRET);
    }
    return external;
  }

  private static GatewaySimProcess startGateway() {
    return GatewaySimProcess.start(
        GATEWAY_SECRET,
        List.of("--latency-ms", "4", "--hold-ms", Integer.toString(GATEWAY_HOLD_MILLIS)));
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
