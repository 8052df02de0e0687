package hongbao.core.reward;

import java.util.concurrent.CompletionStage;

/** Port: one topic of one real queue (Kafka, Redis Streams) that reward events are sent to. */
public interface RewardProducer {

  /** For logs and metrics, e.g. {@code kafka:rewards-massive}. */
  String name();

  /**
   * Sends one event; the stage completes when the queue has it durably, or fails. {@code attempt}
   * counts re-queues of the same event (0 for the first send).
   */
  CompletionStage<Void> send(Reward reward, int attempt);
}
