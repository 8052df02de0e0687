package hongbao.app.reward;

import hongbao.app.settings.Settings;
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
 * @param campaignEditLead how long before its first round a rain campaign can no longer be edited
 *     (the rain runs on the reward pipeline, so its settings travel with the pipeline's)
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
    Duration stuckAfter,
    Duration campaignEditLead) {

  public static RewardConfig from(Map<String, String> env) {
    return new RewardConfig(
        Settings.KAFKA_BOOTSTRAP.read(env),
        Settings.REWARD_KEYSET.read(env),
        QueueTopology.parse(Settings.REWARD_QUEUES.read(env)),
        Settings.KAFKA_PARTITIONS.read(env),
        Settings.REWARD_BUDGET_KEYS.read(env),
        Settings.REWARD_STREAMS.read(env),
        Settings.REWARD_IN_FLIGHT.read(env),
        Settings.REWARD_CONSUME_RATE.read(env),
        Settings.KAFKA_SESSION_TIMEOUT_MILLIS.millis(env),
        Settings.ISSUER_TIMEOUT_MILLIS.millis(env),
        Settings.REWARD_STUCK_AFTER_SECONDS.seconds(env),
        Settings.CAMPAIGN_EDIT_LEAD_SECONDS.seconds(env));
  }
}
