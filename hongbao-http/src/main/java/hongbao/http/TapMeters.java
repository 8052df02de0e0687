package hongbao.http;

import hongbao.core.campaign.TapOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The rain's taps on {@code /metrics}: {@code hongbao_taps_total} by outcome, {@code
 * hongbao_tap_wins_total} by prize type, and {@code hongbao_tap_latency_seconds} from arrival to
 * answer with the grab's SLO buckets, so one dashboard reads both. A tap that failed (404, 503) is
 * in the request metrics only. The prize types are the operator's reward types: a few, not a user
 * input, so they make a bounded label.
 */
final class TapMeters {

  private final MeterRegistry registry;
  private final Timer latency;
  private final Map<Class<?>, Counter> outcomes = new HashMap<>();

  TapMeters(MeterRegistry registry) {
    this.registry = registry;
    this.latency =
        Timer.builder("hongbao.tap.latency")
            .description("rain taps from arrival to answer")
            .serviceLevelObjectives(HttpApi.GRAB_LATENCY_BUCKETS)
            .register(registry);
    for (Class<?> outcome : TapOutcome.class.getPermittedSubclasses()) {
      outcomes.put(
          outcome,
          Counter.builder("hongbao.taps")
              .tag("outcome", Outcomes.name(outcome))
              .description("rain taps answered, by outcome")
              .register(registry));
    }
  }

  /** Counts one answered tap (and its prize, if it won) and its time since {@code startedNanos}. */
  void answered(TapOutcome outcome, long startedNanos) {
    outcomes.get(outcome.getClass()).increment();
    if (outcome instanceof TapOutcome.Won won) {
      // The registry keeps one counter per type: looked up, not created, after the first win.
      Counter.builder("hongbao.tap.wins")
          .tag("type", won.type())
          .description("prizes won by rain taps, by prize type")
          .register(registry)
          .increment();
    }
    latency.record(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS);
  }
}
