package hongbao.kafka;

import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardProducer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * One reward topic on Kafka, the producer side. Sends are asynchronous and batched by the client
 * ({@code linger.ms}); a send completes when every in-sync replica has the record ({@code
 * acks=all}, idempotent producer). Timeouts are short so that a dead broker fails a send within
 * seconds and the virtual queue fails over. The key is {@code tradeNo#attempt}: a re-queued event
 * may land on another partition, as the design intends. Thread-safe.
 */
public final class KafkaRewardProducer implements RewardProducer {

  private final Producer<String, byte[]> producer;
  private final String topic;

  public KafkaRewardProducer(Producer<String, byte[]> producer, String topic) {
    this.producer = producer;
    this.topic = topic;
  }

  /** A producer shared by every Kafka topic of the instance. */
  public static Producer<String, byte[]> connect(String bootstrap) {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            true,
            ProducerConfig.LINGER_MS_CONFIG,
            5,
            ProducerConfig.MAX_BLOCK_MS_CONFIG,
            2_000,
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
            2_000,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
            5_000,
            ProducerConfig.CLIENT_ID_CONFIG,
            "hongbao-rewards"),
        new StringSerializer(),
        new ByteArraySerializer());
  }

  @Override
  public String name() {
    return "kafka:" + topic;
  }

  @Override
  public CompletionStage<Void> send(Reward reward, int attempt) {
    var sent = new CompletableFuture<Void>();
    try {
      producer.send(
          new ProducerRecord<>(
              topic, reward.tradeNo() + "#" + attempt, RewardEventCodec.encode(reward, attempt)),
          (metadata, failure) -> {
            if (failure != null) {
              sent.completeExceptionally(failure);
            } else {
              sent.complete(null);
            }
          });
    } catch (RuntimeException e) {
      sent.completeExceptionally(e);
    }
    return sent;
  }
}
