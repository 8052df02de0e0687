package hongbao.app.embedded;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A PostgreSQL server in a child process; its data folder is temporary and removed on close (the
 * extracted binaries stay cached for the next start), or kept in a given directory ({@link
 * #startIn}).
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

  private final EmbeddedPostgres postgres;

  private EmbeddedPostgresServer(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /** PostgreSQL writes its pid as the first line of this file in its data directory. */
  static final String PID_FILE = "postmaster.pid";

  public static EmbeddedPostgresServer start() {
    try {
      return new EmbeddedPostgresServer(builder().setCleanDataDirectory(true).start());
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the embedded PostgreSQL", e);
    }
  }

  /**
   * A server on the data kept in {@code directory} (initialised when empty), which stays after
   * close; a server an earlier, killed run left on it is stopped first.
   *
   * <p>Kept data is the ledger of record, so it is written durably: the embedded server starts with
   * {@code -F} (fsync off), which a killed process survives but a machine that loses power does
   * not, possibly with a damaged database. {@code fsync=on} comes after {@code -F} on the command
   * line and wins. A payout batch commits once for up to 2,000 grabs, so the flush is paid per
   * batch, not per grab. A temporary data directory, deleted on close, keeps {@code -F}.
   */
  public static EmbeddedPostgresServer startIn(Path directory) {
    try {
      Files.createDirectories(directory);
      stopLeftOver(directory);
      return new EmbeddedPostgresServer(
          builder()
              .setServerConfig("fsync", "on")
              .setDataDirectory(directory.toAbsolutePath())
              .setCleanDataDirectory(false)
              .start());
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the embedded PostgreSQL in " + directory, e);
    }
  }

  /** Stops a server an earlier, killed run left on {@code directory}, if any. */
  public static void stopLeftOver(Path directory) {
    Orphans.stop(directory.resolve(PID_FILE), "postgres");
  }

  private static EmbeddedPostgres.Builder builder() {
    return EmbeddedPostgres.builder()
        .setPort(FreePorts.find())
        .setPGStartupWait(Duration.ofSeconds(60))
        .setServerConfig("max_connections", "200")
        .setServerConfig("synchronous_commit", "on");
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
