package hongbao.redis;

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
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import redis.embedded.RedisServer;
import redis.embedded.core.ExecutableProvider;

/**
 * The Redis every test of this JVM runs against: the server named by {@code
 * HONGBAO_TEST_REDIS_URL}, or an embedded Redis started once on a free port. The embedded server
 * runs from a private temporary directory (binary, no RDB, no AOF) that is deleted at JVM exit.
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

  private TestRedis() {}

  /** Where the tests' Redis is, for tests that build a client of their own. */
  public static synchronized String url() {
    client();
    return uri.toURI().toString();
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
    var sync = connection.sync();
    ScanCursor cursor = ScanCursor.INITIAL;
    var match = ScanArgs.Builder.matches(keys.everythingPattern()).limit(1_000);
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
      String binary = ExecutableProvider.newJarResourceProvider(dir.toFile()).get().getPath();
      int port = freePort();
      // The process runs in the binary's directory, so anything it might write stays in dir.
      var server =
          new RedisServer(
              port,
              List.of(
                  binary,
                  "--port",
                  Integer.toString(port),
                  "--bind",
                  "127.0.0.1",
                  "--save",
                  "",
                  "--appendonly",
                  "no"),
              true);
      server.start();
      Runtime.getRuntime()
          .addShutdownHook(new Thread(() -> stopAndClean(server, dir), "test-redis-server"));
      return RedisURI.create("127.0.0.1", port);
    } catch (IOException e) {
      throw new UncheckedIOException("starting embedded Redis", e);
    }
  }

  private static void stopAndClean(RedisServer server, Path dir) {
    try {
      server.stop();
    } catch (IOException | RuntimeException e) {
      // Exiting anyway; still try to remove the directory below.
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // Nothing more to do at JVM exit.
    }
  }

  private static int freePort() throws IOException {
    try (var socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    }
  }
}
