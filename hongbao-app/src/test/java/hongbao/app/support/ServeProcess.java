package hongbao.app.support;

import hongbao.app.DataDir;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./hongbao serve} as a process of its own on a data directory and a fixed port (a browser
 * keeps its localStorage per origin, so a restart must come back on the same one): stopped as
 * Ctrl-C stops it (SIGTERM, the shutdown hook closes everything) or killed as {@code kill -9} does
 * (no hook; the embedded servers it started are left to the next start to stop). Its output goes to
 * {@code serve.log} beside the data directory.
 */
public final class ServeProcess implements AutoCloseable {

  private static final Duration START_PATIENCE = Duration.ofSeconds(180);
  private static final Duration STOP_PATIENCE = Duration.ofSeconds(60);

  private final Path dataDir;
  private final int port;
  private final Path log;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private Process process;

  private ServeProcess(Path dataDir, int port) {
    this.dataDir = dataDir;
    this.port = port;
    this.log = dataDir.toAbsolutePath().resolveSibling("serve.log");
  }

  /** Starts {@code serve} on {@code dataDir} and {@code port} and waits until it is ready. */
  public static ServeProcess start(Path dataDir, int port) {
    var serve = new ServeProcess(dataDir, port);
    serve.start();
    return serve;
  }

  public String base() {
    return "http://127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  /** Starts again on the same data directory and port. */
  public synchronized void start() {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("serve is already running");
    }
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), "hongbao.app.Main"));
    command.add("serve");
    var builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    // The embedded default, whatever the machine running the tests points its own runs at.
    builder.environment().keySet().removeIf(name -> name.startsWith("HONGBAO_"));
    builder.environment().put("HONGBAO_DATA_DIR", dataDir.toAbsolutePath().toString());
    builder.environment().put("HONGBAO_PORT", Integer.toString(port));
    builder.environment().put("HONGBAO_DEV_MODE", "true");
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start serve", e);
    }
    awaitReady();
  }

  private void awaitReady() {
    long deadline = System.nanoTime() + START_PATIENCE.toNanos();
    var ready = HttpRequest.newBuilder(URI.create(base() + "/ready")).GET().build();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "serve exited with " + process.exitValue() + " while starting:\n" + logTail());
      }
      try {
        if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      pause();
    }
    throw new IllegalStateException("serve not ready within " + START_PATIENCE + ":\n" + logTail());
  }

  /** A process is waited for by polling it; nothing here runs on a clock a test could advance. */
  private static void pause() {
    try {
      Thread.sleep(200);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Ctrl-C: SIGTERM, and the shutdown hook stops HTTP, the workers and the embedded servers. */
  public synchronized void stop() {
    process.destroy();
    await(process);
    if (process.exitValue() != 0 && process.exitValue() != 143) {
      throw new IllegalStateException("serve stopped with " + process.exitValue());
    }
  }

  /** kill -9: no shutdown hook runs; the embedded servers are orphaned. */
  public synchronized void kill() {
    process.destroyForcibly();
    await(process);
  }

  private void await(Process stopping) {
    try {
      if (!stopping.waitFor(STOP_PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
        stopping.destroyForcibly();
        throw new IllegalStateException("serve did not stop within " + STOP_PATIENCE);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The end of the service's output, for a failure's message. */
  public String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /** Stops the service and any embedded server a kill left behind. */
  @Override
  public synchronized void close() {
    try {
      if (process != null && process.isAlive()) {
        stop();
      }
    } finally {
      new DataDir(dataDir).clear();
    }
  }
}
