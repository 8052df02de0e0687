package hongbao.app.embedded;

import hongbao.kafka.embedded.EmbeddedKafka;
import hongbao.kafka.embedded.KafkaBrokerMain;
import java.nio.file.Path;

/**
 * The embedded default's Kafka on a kept directory, started as the embedded Redis and PostgreSQL
 * are: a broker an earlier, killed run left on the directory is stopped first. (The broker halts
 * when the process that started it dies, so one is rarely left; the directory's lock would refuse
 * the new broker if one were.)
 */
public final class EmbeddedKafkaServer {

  private EmbeddedKafkaServer() {}

  /** A broker on the log directory kept in {@code directory}, which stays after close. */
  public static EmbeddedKafka startIn(Path directory) {
    stopLeftOver(directory);
    return EmbeddedKafka.startIn(directory);
  }

  /** Stops a broker an earlier, killed run left on {@code directory}, if any. */
  public static void stopLeftOver(Path directory) {
    // The broker is a JVM: its main class, not its executable, tells it from another java.
    Orphans.stop(directory.resolve(EmbeddedKafka.PID_FILE), KafkaBrokerMain.class.getName());
  }
}
