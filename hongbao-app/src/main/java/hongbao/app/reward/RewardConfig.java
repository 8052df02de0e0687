package hongbao.app.reward;

import hongbao.sdk.QueueTopology;
import java.time.Duration;
import java.util.Map;

/**
 * The reward pipeline's settings from the environment. With none set, {@code serve} starts an
 * embedded Kafka and generates a token keyset for the run (dev only: tokens then die with the
 * process).
 *
 * @param kafkaBootstrap null for the embedded broker
 * @param keysetJson the Tink JSON keyset of the token keys; null to generate one
 */
public record RewardConfig(
    String kafkaBootstrap,
    String keysetJson,
    QueueTopology topology,
    int kafkaPartitions,
    int budgetKeys,
    int streamsPerTopic,
    int consumerInFlight,
    int consumeRatePerSecond,
    Duration kafkaSessionTimeout,
    Duration issuerTimeout,
    Duration stuckAfter) {

  public static RewardConfig from(Map<String, String> env) {
    return new RewardConfig(
        blankToNull(env.get("HONGBAO_KAFKA_BOOTSTRAP")),
        blankToNull(env.get("HONGBAO_REWARD_KEYSET")),
        QueueTopology.parse(env.get("HONGBAO_REWARD_QUEUES")),
        intOf(env, "HONGBAO_KAFKA_PARTITIONS", 4),
        intOf(env, "HONGBAO_REWARD_BUDGET_KEYS", 8),
        intOf(env, "HONGBAO_REWARD_STREAMS", 1),
        intOf(env, "HONGBAO_REWARD_IN_FLIGHT", 256),
        intOf(env, "HONGBAO_REWARD_CONSUME_RATE", 20_000),
        Duration.ofMillis(intOf(env, "HONGBAO_KAFKA_SESSION_TIMEOUT_MILLIS", 10_000)),
        Duration.ofMillis(intOf(env, "HONGBAO_ISSUER_TIMEOUT_MILLIS", 2_000)),
        Duration.ofSeconds(intOf(env, "HONGBAO_REWARD_STUCK_AFTER_SECONDS", 600)));
  }

  private static int intOf(Map<String, String> env, String name, int absent) {
    String text = blankToNull(env.get(name));
    if (text == null) {
      return absent;
    }
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be an integer, not '" + text + "'", e);
    }
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
