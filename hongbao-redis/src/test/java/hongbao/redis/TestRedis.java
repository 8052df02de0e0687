package hongbao.redis;

import hongbao.redis.cluster.ClusterFormation;
import hongbao.testkit.FreezableProxy;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import redis.embedded.RedisServer;
import redis.embedded.core.ExecutableProvider;

/**
 * The Redis every test of this JVM runs against: the server named by {@code
 * HONGBAO_TEST_REDIS_URL}, or an embedded Redis started once on a free port; and for the cluster
 * tests an embedded cluster of three masters, started once. The embedded servers run from private
 * temporary directories (binary, no RDB, no AOF) that are deleted at JVM exit.
 *
 * <p>Tests isolate themselves by key prefix ({@link #freshKeys}) and unique packet ids, and delete
 * only their own keys, so a shared server is never flushed.
 */
public final class TestRedis {

  private static final AtomicLong PACKET_IDS =
      new AtomicLong(ThreadLocalRandom.current().nextLong(1L << 40) * 1_000);
  private static final AtomicLong PREFIXES = new AtomicLong();

  private static RedisURI uri;
  private static RedisClient client;
  private static RedisLink link;
  private static RedisLink cluster;
  private static List<RedisURI> clusterNodes;

  private TestRedis() {}

  /** A link over {@link #client()}, shared by the tests of this JVM (never closed by them). */
  public static synchronized RedisLink link() {
    if (link == null) {
      link = RedisLink.of(client());
    }
    return link;
  }

  /**
   * A link to an embedded cluster of {@value #CLUSTER_MASTERS} masters, started once for this JVM
   * (never closed by the tests).
   */
  public static synchronized RedisLink cluster() {
    if (cluster == null) {
      cluster = RedisLink.open(startEmbeddedCluster());
      Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "test-redis-cluster-link"));
    }
    return cluster;
  }

  static final int CLUSTER_MASTERS = 3;

  /** The masters of {@link #cluster()}, for tests that talk to one node. */
  public static synchronized List<RedisURI> clusterNodes() {
    cluster();
    return clusterNodes;
  }

  /** Where the tests' Redis is, for tests that build a client of their own. */
  public static synchronized String url() {
    client();
    return uri.toURI().toString();
  }

  /** A proxy in front of the tests' Redis, to lose or hold what passes between it and a client. */
  public static FreezableProxy proxy() {
    RedisURI target = RedisURI.create(url());
    return FreezableProxy.to(target.getHost(), target.getPort());
  }

  /** The tests' Redis reached through {@code proxy}: its address, credentials and all. */
  public static String url(FreezableProxy proxy) {
    RedisURI proxied = RedisURI.create(url());
    proxied.setHost("127.0.0.1");
    proxied.setPort(proxy.port());
    return proxied.toURI().toString();
  }

  public static synchronized RedisClient client() {
    if (client == null) {
      String url = System.getenv("HONGBAO_TEST_REDIS_URL");
      uri = url != null && !url.isBlank() ? RedisURI.create(url) : startEmbedded();
      client = RedisClient.create(uri);
      Runtime.getRuntime().addShutdownHook(new Thread(client::shutdown, "test-redis-client"));
    }
    return client;
  }

  /** True when the tests own the server, so server-wide commands (SCRIPT FLUSH) are fair. */
  public static boolean isPrivateServer() {
    String url = System.getenv("HONGBAO_TEST_REDIS_URL");
    return url == null || url.isBlank();
  }

  public static StatefulRedisConnection<String, String> connect() {
    return client().connect();
  }

  public static long newPacketId() {
    return PACKET_IDS.incrementAndGet();
  }

  public static String newUserId(String name) {
    return name + "-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
  }

  /** Keys under a prefix no other test uses. */
  public static RedisKeys freshKeys(int shards) {
    String prefix =
        "hbt"
            + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36)
            + PREFIXES.incrementAndGet();
    return new RedisKeys(shards, prefix);
  }

  /** Deletes every key under the prefix of {@code keys}. */
  public static void deleteAll(StatefulRedisConnection<String, String> connection, RedisKeys keys) {
    deleteAll(RedisLink.of(connection), keys);
  }

  /** Deletes every key under the prefix of {@code keys}, on every master of a cluster. */
  public static void deleteAll(RedisLink redis, RedisKeys keys) {
    deleteMatching(redis, keys.everythingPattern());
  }

  /** Deletes the keys that match {@code pattern} (a SCAN pattern). */
  public static void deleteMatching(RedisLink redis, String pattern) {
    var sync = redis.sync();
    ScanCursor cursor = ScanCursor.INITIAL;
    var match = ScanArgs.Builder.matches(pattern).limit(1_000);
    do {
      KeyScanCursor<String> page = sync.scan(cursor, match);
      if (!page.getKeys().isEmpty()) {
        sync.unlink(page.getKeys().toArray(String[]::new));
      }
      cursor = page;
    } while (!cursor.isFinished());
  }

  private static RedisURI startEmbedded() {
    try {
      Path dir = Files.createTempDirectory("hongbao-redis-test");
      int port = freePort();
      RedisServer server = embeddedServer(dir, port);
      server.start();
      Runtime.getRuntime()
          .addShutdownHook(new Thread(() -> stopAndClean(server, dir), "test-redis-server"));
      return RedisURI.create("127.0.0.1", port);
    } catch (IOException e) {
      throw new UncheckedIOException("starting embedded Redis", e);
    }
  }

  /** Masters on free ports (and free bus ports), formed into one cluster; gone at JVM exit. */
  private static String startEmbeddedCluster() {
    try {
      Path dir = Files.createTempDirectory("hongbao-redis-cluster-test");
      String binary = ExecutableProvider.newJarResourceProvider(dir.toFile()).get().getPath();
      var servers = new ArrayList<RedisServer>();
      var nodes = new ArrayList<RedisURI>();
      Runtime.getRuntime()
          .addShutdownHook(new Thread(() -> stopAndClean(servers, dir), "test-redis-cluster"));
      for (int i = 0; i < CLUSTER_MASTERS; i++) {
        int port = freePortWithBus();
        Path data = Files.createDirectories(dir.resolve("node-" + port));
        var server =
            server(
                binary,
                port,
                "--dir",
                data.toString(),
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf");
        servers.add(server);
        server.start();
        nodes.add(RedisURI.create("127.0.0.1", port));
      }
      ClusterFormation.form(nodes, Duration.ofSeconds(30));
      clusterNodes = List.copyOf(nodes);
      return RedisLink.CLUSTER_SCHEME
          + nodes.stream()
              .map(node -> node.getHost() + ":" + node.getPort())
              .collect(Collectors.joining(","));
    } catch (IOException e) {
      throw new UncheckedIOException("starting the embedded Redis cluster", e);
    }
  }

  private static int freePortWithBus() throws IOException {
    for (int attempt = 0; attempt < 100; attempt++) {
      int port = freePort();
      if (port + 10_000 <= 65_535) {
        try (var bus = new ServerSocket(port + 10_000)) {
          bus.setReuseAddress(true);
          return port;
        } catch (IOException taken) {
          // try another
        }
      }
    }
    throw new IOException("no free port with a free cluster bus port");
  }

  private static void stopAndClean(List<RedisServer> servers, Path dir) {
    for (RedisServer server : servers) {
      try {
        server.stop();
      } catch (IOException | RuntimeException e) {
        // Exiting anyway; stop the others and remove the directory.
      }
    }
    deleteTree(dir);
  }

  private static void stopAndClean(RedisServer server, Path dir) {
    try {
      server.stop();
    } catch (IOException | RuntimeException e) {
      // Exiting anyway; still try to remove the directory below.
    }
    deleteTree(dir);
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // Nothing more to do at JVM exit.
    }
  }

  /**
   * An embedded server for {@code port} (not started yet), its binary in {@code dir}: no RDB, no
   * AOF, and it runs in the binary's directory, so anything it might write stays in {@code dir}. It
   * can be stopped and started again on the same port.
   */
  static RedisServer embeddedServer(Path dir, int port) throws IOException {
    return server(ExecutableProvider.newJarResourceProvider(dir.toFile()).get().getPath(), port);
  }

  /** {@code binary} on 127.0.0.1:{@code port}, no RDB, no AOF, with {@code settings} besides. */
  private static RedisServer server(String binary, int port, String... settings) {
    var args =
        new ArrayList<>(
            List.of(
                binary,
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no"));
    args.addAll(List.of(settings));
    return new RedisServer(port, args, true);
  }

  static int freePort() throws IOException {
    try (var socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    }
  }
}
