package hongbao.core.reward;

/** Port: what the reward pipeline counts. Adapters turn these into meters. */
public interface RewardMetrics {

  RewardMetrics NONE = new RewardMetrics() {};

  default void produced(String topic) {}

  default void consumed(String topic) {}

  default void issued(String type) {}

  default void throttled(String type) {}

  /** A reward passed its type's rate limit (it is credited or issued next). */
  default void admitted(String type) {}

  default void fused(String type) {}

  default void forcedCredit() {}

  default void verified(Validity validity) {}
}
