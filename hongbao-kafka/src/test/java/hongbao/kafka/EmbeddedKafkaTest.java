package hongbao.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.money.Amount;
import hongbao.core.reward.Reward;
import hongbao.kafka.embedded.EmbeddedKafka;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/** The embedded broker as a child process: it serves, dies by kill -9, and comes back. */
class EmbeddedKafkaTest {

  private static final Reward REWARD =
      new Reward("t1", "u1", "c1", "rain", "CASH", Amount.fen(888), "", Instant.EPOCH);

  @Test
  void broker_inAChildProcess_takesEvents_failsWhenKilled_andServesAgainAfterRestart()
      throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      assertThat(kafka.pid()).isNotEqualTo(ProcessHandle.current().pid());
      KafkaTopics.ensure(kafka.bootstrap(), List.of("smoke"), 2);
      try (var admin =
          org.apache.kafka.clients.admin.Admin.create(
              Map.<String, Object>of("bootstrap.servers", kafka.bootstrap()))) {
        var smoke =
            admin.describeTopics(List.of("smoke")).allTopicNames().get(30, TimeUnit.SECONDS);
        assertThat(smoke.get("smoke").partitions())
            .as("two partitions, one replica each on the one broker")
            .hasSize(2)
            .allSatisfy(p -> assertThat(p.replicas()).hasSize(1));
      }
      var producer = KafkaRewardProducer.connect(kafka.bootstrap());
      try {
        var topic = new KafkaRewardProducer(producer, "smoke");
        topic.send(REWARD, 0).toCompletableFuture().get(30, TimeUnit.SECONDS);

        kafka.kill();
        assertThat(kafka.alive()).isFalse();
        assertThatThrownBy(
                () -> topic.send(REWARD, 1).toCompletableFuture().get(30, TimeUnit.SECONDS))
            .hasMessageContaining("Timeout");

        kafka.restart();
        topic.send(REWARD, 2).toCompletableFuture().get(60, TimeUnit.SECONDS);
      } finally {
        producer.close(Duration.ofSeconds(2));
      }
      try (var consumer =
          new KafkaConsumer<>(
              Map.<String, Object>of(
                  ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap(),
                  ConsumerConfig.GROUP_ID_CONFIG, "smoke",
                  ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
              new StringDeserializer(),
              new ByteArrayDeserializer())) {
        consumer.subscribe(List.of("smoke"));
        int seen = 0;
        for (int i = 0; i < 60 && seen < 2; i++) {
          for (var record : consumer.poll(Duration.ofMillis(500))) {
            assertThat(RewardEventCodec.decode(record.value()).reward()).isEqualTo(REWARD);
            seen++;
          }
        }
        assertThat(seen).as("the sends before the kill and after the restart").isEqualTo(2);
      }
    }
  }
}
