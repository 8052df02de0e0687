package hongbao.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the reward topics if they are missing; existing topics are left as they are.
 *
 * <p>Each is replicated to as many brokers as the cluster has, up to three, and with three its
 * writes need two in-sync replicas: a producer's {@code acks=all} then means the record is on two
 * machines, so one broker lost with its disk loses no accepted reward. A single embedded broker
 * gets one replica, as it can hold no more.
 */
public final class KafkaTopics {

  static final int REPLICAS_MAX = 3;

  private KafkaTopics() {}

  public static void ensure(String bootstrap, List<String> topics, int partitions) {
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                30_000))) {
      int brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size();
      short replicas = replicasFor(brokers);
      var wanted = new ArrayList<NewTopic>();
      for (String topic : topics) {
        wanted.add(new NewTopic(topic, partitions, replicas).configs(configsFor(replicas)));
      }
      for (var created : admin.createTopics(wanted).values().entrySet()) {
        try {
          created.getValue().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw new IllegalStateException("creating topic " + created.getKey(), e.getCause());
          }
        }
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException("reading the Kafka cluster's brokers", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted creating topics", e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("Kafka did not create the topics in time", e);
    }
  }

  /** Replicas of a new topic on a cluster of {@code brokers}: all of them, up to three. */
  static short replicasFor(int brokers) {
    if (brokers < 1) {
      throw new IllegalStateException("the Kafka cluster has no broker");
    }
    return (short) Math.min(brokers, REPLICAS_MAX);
  }

  /** Two in-sync replicas for a write once there are three (one may be down), else one. */
  static Map<String, String> configsFor(short replicas) {
    return Map.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, replicas >= REPLICAS_MAX ? "2" : "1");
  }
}
