package hongbao.app.support;

import hongbao.app.embedded.EmbeddedPostgresServer;
import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.embedded.EmbeddedRedisCluster;
import hongbao.app.embedded.GatewaySimProcess;
import hongbao.redis.RedisLink;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * The Redis and PostgreSQL that integration tests run against: embedded servers started once per
 * test JVM — one Redis, and a cluster of {@value #CLUSTER_MASTERS} masters for the cluster
 * variants, both beside one PostgreSQL (the cluster's packets in a schema of their own, so that
 * each reconciler sees only the packets of its Redis) — and, when HONGBAO_TEST_REDIS_URL and
 * HONGBAO_TEST_JDBC_URL are set, the given servers too. On given servers a fresh schema per test
 * JVM and a flushed Redis database (use a dedicated database index in the URL) keep runs
 * independent; when surefire runs the tests in several JVMs at once, JVM n takes the database n - 1
 * places after the given one (see {@link #forkDatabase}).
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

  public static final int CLUSTER_MASTERS = 3;

  private static EmbeddedPostgresServer postgres;
  private static Backends embedded;
  private static Backends embeddedCluster;
  private static Backends external;

  private static synchronized EmbeddedPostgresServer postgres() {
    if (postgres == null) {
      EmbeddedPostgresServer server = EmbeddedPostgresServer.start();
      Runtime.getRuntime().addShutdownHook(new Thread(server::close, "test-postgres"));
      postgres = server;
    }
    return postgres;
  }

  public static synchronized Backends embedded() {
    if (embedded == null) {
      EmbeddedRedis redis = EmbeddedRedis.start();
      GatewaySimProcess gateway = startGateway();
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    gateway.close();
                    redis.close();
                  }));
      embedded =
          new Backends(
              "embedded", redis.url(), postgres().jdbcUrl(), null, gateway.url(), GATEWAY_SECRET);
    }
    return embedded;
  }

  /**
   * An embedded Redis Cluster of {@value #CLUSTER_MASTERS} masters and the embedded PostgreSQL,
   * with a gateway simulator of its own for the cluster's schema: every service on these backends
   * must find the withdrawals an earlier test made there in the gateway's book.
   */
  public static synchronized Backends embeddedCluster() {
    if (embeddedCluster == null) {
      EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(CLUSTER_MASTERS);
      GatewaySimProcess gateway = startGateway();
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    gateway.close();
                    cluster.close();
                  },
                  "test-redis-cluster"));
      embeddedCluster =
          new Backends(
              "embedded-cluster",
              cluster.url(),
              postgres().jdbcUrl(),
              "cluster",
              gateway.url(),
              GATEWAY_SECRET);
    }
    return embeddedCluster;
  }

  /** The masters of a cluster URL ({@code redis-cluster://host:port,...}). */
  public List<RedisURI> clusterMasters() {
    if (!redisUrl.startsWith(RedisLink.CLUSTER_SCHEME)) {
      throw new IllegalStateException(name + " is not a cluster");
    }
    return Arrays.stream(redisUrl.substring(RedisLink.CLUSTER_SCHEME.length()).split(","))
        .map(node -> RedisURI.create("redis://" + node))
        .toList();
  }

  public static boolean externalConfigured() {
    return System.getenv("HONGBAO_TEST_REDIS_URL") != null
        && System.getenv("HONGBAO_TEST_JDBC_URL") != null;
  }

  public static synchronized Backends external() {
    if (external == null) {
      String redisUrl = forkDatabase(System.getenv("HONGBAO_TEST_REDIS_URL"), fork());
      System.out.println("test JVM " + fork() + ": outside Redis " + redisUrl);
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

  /**
   * Which of surefire's parallel test JVMs this is: 1, 2, ... The module's POM sets {@code
   * hongbao.test.fork} to {@code jvm-${surefire.forkNumber}}: a value of the placeholder alone
   * would be resolved by Maven itself, to nothing, before surefire could number its JVMs. 1 when
   * run without it (an IDE) or when surefire leaves the number out (a single JVM).
   */
  static int fork() {
    return fork(System.getProperty("hongbao.test.fork", ""));
  }

  static int fork(String fork) {
    String number = fork.replaceFirst("^jvm-", "");
    if (number.isEmpty() || number.startsWith("$")) {
      return 1;
    }
    try {
      int parsed = Integer.parseInt(number);
      if (parsed < 1) {
        throw new IllegalStateException("hongbao.test.fork must be jvm-1 or more, not " + fork);
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw new IllegalStateException("hongbao.test.fork must be jvm-N, not '" + fork + "'", e);
    }
  }

  /**
   * The Redis database of test JVM {@code fork}: the given database for the first, the next ones
   * for the others, so that a JVM flushing its own at start never wipes what another is testing. A
   * cluster has one database only and cannot be shared this way.
   */
  static String forkDatabase(String redisUrl, int fork) {
    if (fork == 1) {
      return redisUrl;
    }
    URI uri = URI.create(redisUrl);
    if (!"redis".equals(uri.getScheme()) && !"rediss".equals(uri.getScheme())) {
      throw new IllegalStateException(
          "HONGBAO_TEST_REDIS_URL " + uri.getScheme() + ":// cannot be shared by test JVMs");
    }
    String path = uri.getPath() == null ? "" : uri.getPath();
    int given = path.length() > 1 ? Integer.parseInt(path.substring(1)) : 0;
    try {
      return new URI(
              uri.getScheme(),
              uri.getUserInfo(),
              uri.getHost(),
              uri.getPort(),
              "/" + (given + fork - 1),
              uri.getQuery(),
              null)
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
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
