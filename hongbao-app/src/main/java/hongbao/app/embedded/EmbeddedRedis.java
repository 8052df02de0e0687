package hongbao.app.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import redis.embedded.RedisServer;

/**
 * A Redis server in a child process for the embedded default and for tests, with its data directory
 * in a temporary folder that is removed on close. AOF is on (fsync every second), as a real
 * deployment should run it.
 */
public final class EmbeddedRedis implements AutoCloseable {

  private final RedisServer server;
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
      RedisServer server =
          RedisServer.newRedisServer()
              .bind("127.0.0.1")
              .port(port)
              .setting("dir " + directory)
              .setting("save \"\"")
              .setting("appendonly yes")
              .setting("appendfsync everysec")
              .setting("maxmemory-policy noeviction")
              .build();
      server.start();
      return new EmbeddedRedis(server, directory, port);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the embedded Redis", e);
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
