package hongbao.app.embedded;

import hongbao.app.cli.GatewaySimCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The payment gateway simulator in a child process (this same program, {@code gateway-sim}), so
 * that its timeouts and dropped connections are real network faults and it can be killed with -9.
 * It stops with its parent even when the parent is killed. Closing stops it and removes its book
 * when the book was its own. One on a given book can be restarted there after it died, on the same
 * port, so that the clients configured with its address find it again.
 */
public final class GatewaySimProcess implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(GatewaySimProcess.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final int port;
  private final Path ownDirectory;
  private final String secret;
  private final Path book;
  private final List<String> options;

  private GatewaySimProcess(
      Process process,
      int port,
      Path ownDirectory,
      String secret,
      Path book,
      List<String> options) {
    this.process = process;
    this.port = port;
    this.ownDirectory = ownDirectory;
    this.secret = secret;
    this.book = book;
    this.options = List.copyOf(options);
  }

  /** A simulator with a book of its own in a temporary folder, removed on close. */
  public static GatewaySimProcess start(String secret, List<String> options) {
    try {
      Path directory = Files.createTempDirectory("hongbao-gateway-");
      try {
        return start(secret, directory.resolve("book.csv"), 0, options, directory);
      } catch (RuntimeException e) {
        TemporaryFiles.deleteTree(directory);
        throw e;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("no temporary folder for the gateway simulator", e);
    }
  }

  /** A simulator on a given book, which stays (to restart on it). */
  public static GatewaySimProcess start(String secret, Path book, List<String> options) {
    return start(secret, book, 0, options, null);
  }

  /**
   * A simulator on this one's book and port with its options, as an operator brings a killed
   * gateway back: it knows what it settled, and its clients reach it where they did. This one must
   * have exited, and its book must be a given one (its own would be removed by closing this one).
   */
  public GatewaySimProcess restart() {
    if (process.isAlive()) {
      throw new IllegalStateException("the gateway simulator " + pid() + " still runs");
    }
    if (ownDirectory != null) {
      throw new IllegalStateException("the gateway simulator's book was its own: gone with it");
    }
    return start(secret, book, port, options, null);
  }

  private static GatewaySimProcess start(
      String secret, Path book, int port, List<String> options, Path ownDirectory) {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    // A small, quickly started JVM: the simulator does little per request.
    command.addAll(List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), "hongbao.app.Main"));
    command.addAll(
        List.of("gateway-sim", "--port", Integer.toString(port), "--book", book.toString()));
    command.add("--exit-with-parent");
    command.addAll(options);
    var builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("HONGBAO_GATEWAY_SECRET", secret);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the gateway simulator", e);
    }
    CompletableFuture<Integer> ready = new CompletableFuture<>();
    Thread.ofPlatform().name("gateway-sim-output").daemon().start(() -> forward(process, ready));
    try {
      int listening = ready.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      return new GatewaySimProcess(process, listening, ownDirectory, secret, book, options);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IllegalStateException("interrupted while the gateway simulator started", e);
    } catch (ExecutionException | TimeoutException e) {
      process.destroyForcibly();
      throw new IllegalStateException("the gateway simulator did not start", e);
    }
  }

  /** Passes the child's output to the log, and its port to whoever waits for it. */
  private static void forward(Process process, CompletableFuture<Integer> ready) {
    try (var lines =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        int at = line.indexOf(GatewaySimCommand.READY_LINE);
        if (at >= 0 && !ready.isDone()) {
          String rest = line.substring(at + GatewaySimCommand.READY_LINE.length());
          ready.complete(Integer.parseInt(rest.split(" ")[0]));
        }
        LOG.info("[gateway-sim {}] {}", process.pid(), line);
      }
    } catch (IOException | NumberFormatException e) {
      ready.completeExceptionally(e);
    }
    ready.completeExceptionally(new IllegalStateException("the gateway simulator exited"));
  }

  public String url() {
    return "http://127.0.0.1:" + port;
  }

  public long pid() {
    return process.pid();
  }

  /** kill -9: no shutdown hook, no flush; what the book forced to disk is all that remains. */
  public void kill() {
    process.destroyForcibly();
    waitFor(Duration.ofSeconds(10));
  }

  @Override
  public void close() {
    try {
      process.destroy();
      if (!waitFor(Duration.ofSeconds(5))) {
        process.destroyForcibly();
        waitFor(Duration.ofSeconds(5));
      }
    } finally {
      if (ownDirectory != null) {
        TemporaryFiles.deleteTree(ownDirectory);
      }
    }
  }

  private boolean waitFor(Duration limit) {
    try {
      return process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
