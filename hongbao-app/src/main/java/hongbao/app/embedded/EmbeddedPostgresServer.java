package hongbao.app.embedded;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** A PostgreSQL server in a child process, its data in a temporary folder removed on close. */
public final class EmbeddedPostgresServer implements AutoCloseable {

  private final EmbeddedPostgres postgres;
  private final Path directory;

  private EmbeddedPostgresServer(EmbeddedPostgres postgres, Path directory) {
    this.postgres = postgres;
    this.directory = directory;
  }

  public static EmbeddedPostgresServer start() {
    try {
      Path directory = Files.createTempDirectory("hongbao-postgres-");
      EmbeddedPostgres postgres =
          EmbeddedPostgres.builder()
              .setDataDirectory(directory)
              .setCleanDataDirectory(true)
              .setPort(FreePorts.find())
              .setPGStartupWait(Duration.ofSeconds(60))
              .setServerConfig("max_connections", "200")
              .setServerConfig("synchronous_commit", "on")
              .start();
      return new EmbeddedPostgresServer(postgres, directory);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the embedded PostgreSQL", e);
    }
  }

  public String jdbcUrl() {
    return postgres.getJdbcUrl("postgres", "postgres");
  }

  @Override
  public void close() {
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      TemporaryFiles.deleteTree(directory);
    }
  }
}
