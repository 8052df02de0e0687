package hongbao.app.workers;

import hongbao.app.Config;
import hongbao.app.Parts;
import hongbao.core.payout.PayoutWorker;
import hongbao.core.payout.PayoutWorker.PayoutSettings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The background work of one instance: payout workers, the reclaimer of stale payouts, the expiry
 * sweeper, the re-armer and the withdrawal janitors. Every step is idempotent, so any number of
 * instances may run them all.
 */
public final class Workers implements AutoCloseable {

  private static final Duration POLL_WAIT = Duration.ofMillis(200);
  private static final int WITHDRAWAL_JANITORS = 2;

  private final List<Loop> loops = new ArrayList<>();

  private Workers() {}

  public static Workers start(Config config, Parts parts, MeterRegistry metrics) {
    var workers = new Workers();
    String instance = UUID.randomUUID().toString().substring(0, 8);
    Counter paid = Counter.builder("hongbao.payouts").register(metrics);
    for (int i = 0; i < config.payoutWorkers(); i++) {
      PayoutWorker worker = payoutWorker(config, parts, instance + "-" + i);
      workers.loops.add(
          Loop.start(
              "payout-" + i,
              () -> {
                int settled = worker.payOnce();
                paid.increment(settled);
                return settled;
              },
              Duration.ofMillis(50)));
    }
    PayoutWorker reclaimer = payoutWorker(config, parts, instance + "-reclaim");
    workers.loops.add(
        Loop.start("payout-reclaim", reclaimer::reclaimOnce, config.reclaimIdle().dividedBy(2)));
    workers.loops.add(
        Loop.start("expiry-sweeper", parts.sweeper()::sweepOnce, config.sweepInterval()));
    workers.loops.add(Loop.start("rearmer", parts.rearmer()::rearmOnce, Duration.ofSeconds(1)));
    // Withdrawals whose outcome is unknown: janitors on every instance, each leasing its own.
    for (int i = 0; i < WITHDRAWAL_JANITORS; i++) {
      workers.loops.add(
          Loop.start(
              "withdrawal-janitor-" + i,
              parts.withdrawals().janitor()::settleOnce,
              Duration.ofSeconds(1)));
    }
    return workers;
  }

  /** A payout worker with this instance's settings and its own consumer name. */
  public static PayoutWorker payoutWorker(Config config, Parts parts, String consumer) {
    return new PayoutWorker(
        parts.queue(),
        parts.database().ledger(),
        parts.switches(),
        new PayoutSettings(
            consumer,
            config.payoutBatch(),
            POLL_WAIT,
            config.reclaimIdle(),
            config.maxDeliveries()));
  }

  @Override
  public void close() {
    loops.forEach(Loop::close);
  }
}
