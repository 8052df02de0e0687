package hongbao.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

/**
 * The reward topics are replicated as far as the cluster allows, up to three copies with two needed
 * for a write: an accepted reward survives the loss of one broker with its disk. (The embedded
 * broker's one replica is exercised by {@link EmbeddedKafkaTest}.)
 */
class KafkaTopicsTest {

  @Test
  void replicas_followTheBrokers_upToThree() {
    assertThat(KafkaTopics.replicasFor(1)).isEqualTo((short) 1);
    assertThat(KafkaTopics.replicasFor(2)).isEqualTo((short) 2);
    assertThat(KafkaTopics.replicasFor(3)).isEqualTo((short) 3);
    assertThat(KafkaTopics.replicasFor(70)).isEqualTo((short) 3);
    assertThatThrownBy(() -> KafkaTopics.replicasFor(0)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aWriteNeedsTwoInSyncReplicas_onceThereAreThree() {
    assertThat(KafkaTopics.configsFor((short) 1))
        .isEqualTo(Map.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "1"));
    assertThat(KafkaTopics.configsFor((short) 2))
        .isEqualTo(Map.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "1"));
    assertThat(KafkaTopics.configsFor((short) 3))
        .isEqualTo(Map.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "2"));
  }
}
