package hongbao.kafka.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The embedded broker's process: formats its log directory for KRaft (once; a restart finds it
 * formatted) and runs a single-node Kafka as broker and controller. It runs in a JVM of its own
 * because a fatal broker fault halts the JVM it is in. It halts itself when its standard input
 * closes, which happens when the process that launched it dies, so no broker is ever orphaned.
 *
 * <p>Arguments: {@code <directory> <brokerPort> <controllerPort> <clusterId>}.
 */
public final class KafkaBrokerMain {

  private KafkaBrokerMain() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 4) {
      System.err.println("usage: KafkaBrokerMain <directory> <brokerPort> <controllerPort> <id>");
      System.exit(2);
    }
    Path directory = Path.of(args[0]);
    int port = Integer.parseInt(args[1]);
    int controllerPort = Integer.parseInt(args[2]);
    watchParent();
    Path properties = directory.resolve("server.properties");
    Files.writeString(
        properties,
        properties(directory.resolve("logs"), port, controllerPort),
        StandardCharsets.UTF_8);
    int formatted =
        kafka.tools.StorageTool.execute(
            new String[] {
              "format", "--ignore-formatted", "-t", args[3], "-c", properties.toString()
            },
            new PrintStream(System.out, true, StandardCharsets.UTF_8));
    if (formatted != 0) {
      System.err.println("formatting the log directory failed: " + formatted);
      Runtime.getRuntime().halt(3);
    }
    kafka.Kafka.main(new String[] {properties.toString()});
  }

  /** Standard input is the parent's pipe: end of input means the parent is gone. */
  private static void watchParent() {
    Thread.ofPlatform()
        .name("parent-watch")
        .daemon()
        .start(
            () -> {
              try (InputStream in = System.in) {
                while (in.read() >= 0) {
                  // nothing is ever sent; read until the pipe closes
                }
              } catch (IOException e) {
                // the pipe broke: the parent is gone all the same
              }
              Runtime.getRuntime().halt(0);
            });
  }

  /**
   * KRaft, one node, replication factors 1; small internal topics and cleaner buffer so it starts
   * fast and fits a small heap.
   */
  static String properties(Path logs, int port, int controllerPort) {
    return String.join(
        "\n",
        "process.roles=broker,controller",
        "node.id=1",
        "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
        "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
        "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
        "controller.listener.names=CONTROLLER",
        "inter.broker.listener.name=PLAINTEXT",
        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "log.dirs=" + logs,
        "num.partitions=4",
        "auto.create.topics.enable=true",
        "offsets.topic.replication.factor=1",
        "offsets.topic.num.partitions=4",
        "transaction.state.log.replication.factor=1",
        "transaction.state.log.min.isr=1",
        "transaction.state.log.num.partitions=4",
        "share.coordinator.state.topic.replication.factor=1",
        "share.coordinator.state.topic.min.isr=1",
        "group.initial.rebalance.delay.ms=0",
        "group.min.session.timeout.ms=1000",
        "log.cleaner.dedupe.buffer.size=2097152",
        "");
  }
}
