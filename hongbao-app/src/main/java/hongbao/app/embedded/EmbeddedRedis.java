package hongbao.app.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import redis.embedded.RedisServer;

/**
 * A Redis server in a child process for the embedded default and for tests, with its data directory
 * in a temporary folder that is removed on close. AOF is on (fsync every second), as a real
 * deployment should run it.
 */
public final class EmbeddedRedis implements AutoCloseable {

  /** Where Redis 6.2 keeps its append-only file, inside the server's directory. */
  public static final String AOF = "appendonly.aof";

  private RedisServer server;
  private final Path directory;
  private final int port;

  private EmbeddedRedis(RedisServer server, Path directory, int port) {
    this.server = server;
    this.directory = directory;
    this.port = port;
  }

  public static EmbeddedRedis start() {
    try {
      int port = FreePorts.find();
      Path directory = Files.createTempDirectory("hongbao-redis-");
      RedisServer server = server(port, directory);
      server.start();
      return new EmbeddedRedis(server, directory, port);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the embedded Redis", e);
    }
  }

  private static RedisServer server(int port, Path directory) throws IOException {
    return RedisServer.newRedisServer()
        .bind("127.0.0.1")
        .port(port)
        .setting("dir " + directory)
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
      TemporaryFiles.deleteTree(directory);
    }
  }
}
