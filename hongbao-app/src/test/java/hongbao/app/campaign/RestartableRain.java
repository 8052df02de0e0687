package hongbao.app.campaign;

import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.support.Backends;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A rain on a Redis of its own, which a test may snapshot and restart from an older copy, with a
 * schema of its own and a directory for the copies; all of it goes on close.
 */
final class RestartableRain implements AutoCloseable {

  final EmbeddedRedis redis;
  final Path snapshots;
  final RainFixture fixture;

  /**
   * @param name names the schema and the snapshots' directory
   * @param overrides the service's settings the test changes
   */
  RestartableRain(String name, Map<String, String> overrides) throws IOException {
    snapshots = Files.createTempDirectory("hongbao-" + name + "-");
    redis = EmbeddedRedis.start();
    try {
      String schema = name.replace('-', '_') + "_" + Long.toString(System.nanoTime(), 36);
      fixture =
          new RainFixture(
              new Backends(name, redis.url(), Backends.embedded().jdbcUrl(), schema), overrides);
    } catch (RuntimeException | Error e) {
      redis.close();
      throw e;
    }
  }

  @Override
  public void close() throws IOException {
    try {
      fixture.close();
    } finally {
      redis.close();
      try (var files = Files.list(snapshots)) {
        for (Path file : files.toList()) {
          Files.delete(file);
        }
      }
      Files.delete(snapshots);
    }
  }
}
