package hongbao.app.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Embedded servers left running by a service that was killed (kill -9 runs no shutdown hook): each
 * server writes its pid into its data directory, and the next start on that directory stops the
 * process named there before starting its own, which could not open the same files anyway.
 */
final class Orphans {

  private static final Logger LOG = LoggerFactory.getLogger(Orphans.class);

  /** SIGTERM lets Redis flush its AOF and PostgreSQL shut down cleanly; then SIGKILL. */
  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private Orphans() {}

  /**
   * Stops the process whose pid is the first line of {@code pidFile}, if it is alive and its
   * command contains {@code command} (a pid reused by an unrelated process is left alone).
   */
  static void stop(Path pidFile, String command) {
    Optional<ProcessHandle> orphan = read(pidFile).flatMap(ProcessHandle::of);
    if (orphan.isEmpty()
        || !orphan.get().isAlive()
        || orphan.get().pid() == ProcessHandle.current().pid()
        || !orphan.get().info().command().orElse("").contains(command)) {
      return;
    }
    ProcessHandle process = orphan.get();
    LOG.warn(
        "stopping {} (pid {}) left running by an earlier run on {}",
        command,
        process.pid(),
        pidFile.getParent());
    process.destroy();
    try {
      process.onExit().get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stopping pid " + process.pid(), e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Optional<Long> read(Path pidFile) {
    try {
      if (!Files.isRegularFile(pidFile)) {
        return Optional.empty();
      }
      String first = Files.readAllLines(pidFile).stream().findFirst().orElse("").trim();
      return first.matches("[0-9]{1,10}") ? Optional.of(Long.parseLong(first)) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
