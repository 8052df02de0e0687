package hongbao.kafka.embedded;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.Uuid;

/**
 * A single-node Kafka (KRaft) in a child JVM ({@link KafkaBrokerMain}) with its log directory in a
 * temporary folder, for tests, or in a kept directory ({@link #startIn}) for the embedded default,
 * so that events queued before a restart are still there after it. {@link #kill} is {@code kill
 * -9}; {@link #restart} starts it again on the same ports and data. Closing stops it and deletes a
 * temporary folder. The child halts by itself if this process dies; its pid is written to {@link
 * #PID_FILE} all the same, so that a later start can make sure of it.
 */
public final class EmbeddedKafka implements AutoCloseable {

  public static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  /** The broker's pid, in its directory while it runs. */
  public static final String PID_FILE = "kafka.pid";

  /** The KRaft cluster id a kept directory was formatted with, reused by every later start. */
  private static final String CLUSTER_ID_FILE = "cluster.id";

  private final Path directory;
  private final boolean temporary;
  private final int port;
  private final int controllerPort;
  private final String clusterId;
  private Process process;

  private EmbeddedKafka(
      Path directory, boolean temporary, int port, int controllerPort, String clusterId) {
    this.directory = directory;
    this.temporary = temporary;
    this.port = port;
    this.controllerPort = controllerPort;
    this.clusterId = clusterId;
  }

  public static EmbeddedKafka start() {
    try {
      Path directory = Files.createTempDirectory("hongbao-kafka-");
      var kafka =
          new EmbeddedKafka(directory, true, freePort(), freePort(), Uuid.randomUuid().toString());
      kafka.launch();
      return kafka;
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the embedded Kafka", e);
    }
  }

  /**
   * A broker on the log directory kept in {@code directory} (created and formatted when new), which
   * stays after close. Ports are new each start: clients find the broker through {@link
   * #bootstrap}, and the single controller's address is configuration, not data. The caller stops a
   * broker a killed run left on the directory first (its log directory is locked).
   */
  public static EmbeddedKafka startIn(Path directory) {
    try {
      Path kept = Files.createDirectories(directory).toAbsolutePath();
      var kafka = new EmbeddedKafka(kept, false, freePort(), freePort(), clusterId(kept));
      kafka.launch();
      return kafka;
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the embedded Kafka in " + directory, e);
    }
  }

  /** The id {@code directory} was formatted with, or a new one kept there. */
  private static String clusterId(Path directory) throws IOException {
    Path file = directory.resolve(CLUSTER_ID_FILE);
    if (Files.isRegularFile(file)) {
      String kept = Files.readString(file).trim();
      if (!kept.isEmpty()) {
        return kept;
      }
    }
    String id = Uuid.randomUuid().toString();
    Files.writeString(file, id);
    return id;
  }

  public String bootstrap() {
    return "127.0.0.1:" + port;
  }

  public long pid() {
    return process.pid();
  }

  public boolean alive() {
    return process != null && process.isAlive();
  }

  private synchronized void launch() throws IOException {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command = new ArrayList<>();
    command.add(java);
    command.add("-Xms64m");
    command.add("-Xmx256m");
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(KafkaBrokerMain.class.getName());
    command.add(directory.toString());
    command.add(Integer.toString(port));
    command.add(Integer.toString(controllerPort));
    command.add(clusterId);
    File log = directory.resolve("broker.log").toFile();
    process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log))
            .start();
    Files.writeString(directory.resolve(PID_FILE), process.pid() + "\n");
    awaitPort();
  }

  private void awaitPort() {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the embedded Kafka exited with " + process.exitValue() + "; see " + directory);
      }
      try (var socket = new Socket()) {
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
        return;
      } catch (IOException notYet) {
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while Kafka started", e);
        }
      }
    }
    throw new IllegalStateException("the embedded Kafka did not listen within " + START_TIMEOUT);
  }

  /** kill -9: the broker dies at once, without a clean shutdown. */
  public synchronized void kill() {
    process.destroyForcibly();
    waitFor(Duration.ofSeconds(30));
  }

  /** Starts the broker again on the same ports and log directory. */
  public synchronized void restart() {
    if (alive()) {
      return;
    }
    try {
      launch();
    } catch (IOException e) {
      throw new UncheckedIOException("could not restart the embedded Kafka", e);
    }
  }

  private void waitFor(Duration patience) {
    try {
      process.waitFor(patience.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public synchronized void close() {
    if (process != null && process.isAlive()) {
      process.destroy();
      waitFor(Duration.ofSeconds(15));
      if (process.isAlive()) {
        process.destroyForcibly();
        waitFor(Duration.ofSeconds(15));
      }
    }
    if (temporary) {
      deleteTree(directory);
    } else {
      try {
        Files.deleteIfExists(directory.resolve(PID_FILE));
      } catch (IOException e) {
        // harmless: a later start finds the pid dead, or alive under another command, and goes on
      }
    }
  }

  private static int freePort() throws IOException {
    try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              path -> {
                try {
                  Files.deleteIfExists(path);
                } catch (IOException e) {
                  // best effort: a leftover temporary folder is harmless
                }
              });
    } catch (IOException e) {
      // best effort, as above
    }
  }
}
