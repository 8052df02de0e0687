package hongbao.app.reward;

import hongbao.core.reward.RewardMetrics;
import hongbao.core.reward.Validity;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The reward pipeline's counters: produced and consumed per topic, issued, throttled, admitted and
 * fused per type, forced credits, verified tokens by validity. Gauges (lag, budget left, held,
 * parked) are registered by {@link RewardWiring}.
 */
final class MicrometerRewardMetrics implements RewardMetrics {

  private final MeterRegistry registry;
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();

  MicrometerRewardMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  private Counter counter(String name, String tag, String value) {
    return counters.computeIfAbsent(
        name + "|" + tag + "|" + value,
        key -> Counter.builder(name).tag(tag, value).register(registry));
  }

  @Override
  public void produced(String topic) {
    counter("hongbao.rewards.produced", "topic", topic).increment();
  }

  @Override
  public void consumed(String topic) {
    counter("hongbao.rewards.consumed", "topic", topic).increment();
  }

  @Override
  public void issued(String type) {
    counter("hongbao.rewards.issued", "type", type).increment();
  }

  @Override
  public void throttled(String type) {
    counter("hongbao.rewards.throttled", "type", type).increment();
  }

  @Override
  public void admitted(String type) {
    counter("hongbao.rewards.admitted", "type", type).increment();
  }

  @Override
  public void fused(String type) {
    counter("hongbao.rewards.fused", "type", type).increment();
  }

  @Override
  public void forcedCredit() {
    counter("hongbao.rewards.forced.credits", "kind", "CASH").increment();
  }

  @Override
  public void verified(Validity validity) {
    counter("hongbao.rewards.tokens.verified", "validity", validity.name()).increment();
  }
}
