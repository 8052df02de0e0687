package hongbao.app.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
   * command line contains {@code command} (a pid reused by an unrelated process is left alone).
   */
  static void stop(Path pidFile, String command) {
    Optional<ProcessHandle> orphan = read(pidFile).flatMap(ProcessHandle::of);
    if (orphan.isEmpty()
        || !orphan.get().isAlive()
        || orphan.get().pid() == ProcessHandle.current().pid()
        || !commandLine(orphan.get()).contains(command)) {
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
      // SIGKILL, and wait for it: the next server cannot lock the directory until it is gone.
      process.destroyForcibly();
      process.onExit().join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stopping pid " + process.pid(), e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The executable and its arguments. The JDK gives no arguments for a command line as long as a
   * JVM's with its class path (a broker's is over 10 kB), so Linux's own record is read first.
   */
  private static String commandLine(ProcessHandle process) {
    try {
      byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
      if (raw.length > 0) {
        return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ');
      }
    } catch (IOException | UnsupportedOperationException e) {
      // no /proc here: what the JDK tells
    }
    ProcessHandle.Info info = process.info();
    return info.command().orElse("")
        + " "
        + String.join(" ", info.arguments().orElse(new String[0]));
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
