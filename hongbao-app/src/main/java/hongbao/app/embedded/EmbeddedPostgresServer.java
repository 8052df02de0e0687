package hongbao.app.embedded;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/**
 * A PostgreSQL server in a child process; its data folder is temporary and removed on close (the
 * extracted binaries stay cached for the next start).
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

  private final EmbeddedPostgres postgres;

  private EmbeddedPostgresServer(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  public static EmbeddedPostgresServer start() {
    try {
      EmbeddedPostgres postgres =
          EmbeddedPostgres.builder()
              .setCleanDataDirectory(true)
              .setPort(FreePorts.find())
              .setPGStartupWait(Duration.ofSeconds(60))
              .setServerConfig("max_connections", "200")
              .setServerConfig("synchronous_commit", "on")
              .start();
      return new EmbeddedPostgresServer(postgres);
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
    }
  }
}
