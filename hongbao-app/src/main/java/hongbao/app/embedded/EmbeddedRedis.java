package hongbao.app.embedded;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.function.Consumer;
import redis.embedded.RedisServer;

/**
 * A Redis server in a child process for the embedded default and for tests, with its data directory
 * in a temporary folder that is removed on close, or in a kept directory ({@link #startIn}). AOF is
 * on (fsync every second), as a real deployment should run it.
 */
public final class EmbeddedRedis implements AutoCloseable {

  /** Where Redis 6.2 keeps its append-only file, inside the server's directory. */
  public static final String AOF = "appendonly.aof";

  /** Written by Redis in its directory, so that a later start can stop an orphaned server. */
  static final String PID_FILE = "redis.pid";

  private static final Duration REWRITE_PATIENCE = Duration.ofSeconds(30);

  private RedisServer server;
  private final Path directory;
  private final int port;
  private final boolean temporary;

  private EmbeddedRedis(RedisServer server, Path directory, int port, boolean temporary) {
    this.server = server;
    this.directory = directory;
    this.port = port;
    this.temporary = temporary;
  }

  public static EmbeddedRedis start() {
    try {
      return start(Files.createTempDirectory("hongbao-redis-"), true);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the embedded Redis", e);
    }
  }

  /**
   * A server on the data kept in {@code directory} (created if missing), which stays after close; a
   * server an earlier, killed run left on it is stopped first.
   */
  public static EmbeddedRedis startIn(Path directory) {
    try {
      Files.createDirectories(directory);
      stopLeftOver(directory);
      return start(directory.toAbsolutePath(), false);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the embedded Redis in " + directory, e);
    }
  }

  /** Stops a server an earlier, killed run left on {@code directory}, if any. */
  public static void stopLeftOver(Path directory) {
    Orphans.stop(directory.resolve(PID_FILE), "redis");
  }

  private static EmbeddedRedis start(Path directory, boolean temporary) throws IOException {
    int port = FreePorts.find();
    RedisServer server = server(port, directory);
    server.start();
    return new EmbeddedRedis(server, directory, port, temporary);
  }

  private static RedisServer server(int port, Path directory) throws IOException {
    return RedisServer.newRedisServer()
        .bind("127.0.0.1")
        .port(port)
        .setting("dir " + directory)
        .setting("pidfile " + directory.resolve(PID_FILE))
        .setting("save \"\"")
        .setting("appendonly yes")
        .setting("appendfsync everysec")
        .setting("aof-load-truncated yes")
        .setting("maxmemory-policy noeviction")
        .build();
  }

  /** The append-only file, for drills that cut it short to stand for a power loss. */
  public Path aof() {
    return directory.resolve(AOF);
  }

  /**
   * Stops the server, lets {@code disk} change what it left on disk (a drill truncates the AOF),
   * and starts a new server process on the same port and directory, which loads what is there.
   */
  public synchronized void restart(Consumer<Path> disk) {
    try {
      server.stop();
      disk.accept(directory);
      server = server(port, directory);
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not restart the embedded Redis", e);
    }
  }

  /**
   * Keeps a copy of the data as it stands in {@code copy}: the append-only file is first rewritten
   * from memory (so the copy holds every write acknowledged so far, whatever the fsync policy had
   * put on disk yet), then copied. {@link #restartFrom} it stands for a restart that lost every
   * write made since — an AOF cut back, a replica that lagged, a backup restored.
   */
  public synchronized Path snapshot(Path copy) {
    return snapshot(url(), aof(), copy);
  }

  /** {@link #snapshot} of the server at {@code url}, whose append-only file is {@code aof}. */
  static Path snapshot(String url, Path aof, Path copy) {
    RedisClient client = RedisClient.create(url);
    try (var connection = client.connect()) {
      var redis = connection.sync();
      awaitNoRewrite(redis);
      redis.bgrewriteaof();
      awaitNoRewrite(redis);
      Files.copy(aof, copy, StandardCopyOption.REPLACE_EXISTING);
      return copy;
    } catch (IOException e) {
      throw new UncheckedIOException("could not copy the embedded Redis's AOF", e);
    } finally {
      client.shutdown();
    }
  }

  /**
   * Stops the server and starts a new one on the same port and directory from a {@link #snapshot}:
   * a new run id with the older state.
   */
  public void restartFrom(Path snapshot) {
    restart(directory -> putBack(snapshot, directory));
  }

  /** Puts a {@link #snapshot} back as the append-only file of the server in {@code directory}. */
  static void putBack(Path snapshot, Path directory) {
    try {
      Files.copy(snapshot, directory.resolve(AOF), StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("could not put the snapshot back", e);
    }
  }

  /** Waits until no AOF rewrite runs or waits to run (BGREWRITEAOF forks before it answers). */
  private static void awaitNoRewrite(RedisCommands<String, String> redis) {
    long deadline = System.nanoTime() + REWRITE_PATIENCE.toNanos();
    while (true) {
      String info = redis.info("persistence");
      if (info.contains("aof_rewrite_in_progress:0") && info.contains("aof_rewrite_scheduled:0")) {
        if (!info.contains("aof_last_bgrewrite_status:ok")) {
          throw new IllegalStateException("the AOF rewrite failed: " + info);
        }
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("no AOF rewrite finished within " + REWRITE_PATIENCE);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for an AOF rewrite", e);
      }
    }
  }

  public String url() {
    return "redis://127.0.0.1:" + port;
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (temporary) {
        TemporaryFiles.deleteTree(directory);
      }
    }
  }
}
