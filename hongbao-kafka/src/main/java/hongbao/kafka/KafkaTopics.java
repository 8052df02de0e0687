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
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates the reward topics if they are missing; existing topics are left as they are. */
public final class KafkaTopics {

  private KafkaTopics() {}

  public static void ensure(String bootstrap, List<String> topics, int partitions, short replicas) {
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                30_000))) {
      var wanted = new ArrayList<NewTopic>();
      for (String topic : topics) {
        wanted.add(new NewTopic(topic, partitions, replicas));
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
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted creating topics", e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("Kafka did not create the topics in time", e);
    }
  }
}
