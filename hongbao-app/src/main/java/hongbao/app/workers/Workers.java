package hongbao.app.workers;

import hongbao.app.Config;
import hongbao.app.Parts;
import hongbao.core.Invariants;
import hongbao.core.ledger.AnswerRetention;
import hongbao.core.ops.Switch;
import hongbao.core.payout.PayoutWorker;
import hongbao.core.payout.PayoutWorker.PayoutSettings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background work of one instance: payout workers, the reclaimer of stale payouts, the expiry
 * sweeper, the re-armer, the repair of the grab store after it restarted, the pruning of consumers
 * that left, and the withdrawal janitors. Every step is idempotent, so any number of instances may
 * run them all.
 */
public final class Workers implements AutoCloseable {

  private static final Duration POLL_WAIT = Duration.ofMillis(200);
  private static final int WITHDRAWAL_JANITORS = 2;

  /** A consumer name with nothing pending for this long belongs to an instance that left. */
  static final Duration CONSUMER_IDLE_MAX = Duration.ofHours(1);

  /** The dead-letter gauge counts up to this many. */
  static final int DEAD_LETTERS_COUNTED = 1_000;

  private static final Logger LOG = LoggerFactory.getLogger(Workers.class);

  private final List<Loop> loops = new ArrayList<>();

  private Workers() {}

  /**
   * Starts every background loop; {@code jitter} (seeded by the root) spreads their retries, one
   * split-off generator per loop thread.
   */
  public static Workers start(
      Config config,
      Parts parts,
      MeterRegistry metrics,
      RandomGenerator.SplittableGenerator jitter,
      Clock clock) {
    var workers = new Workers();
    // Consumer names must differ between instances (a pending task is reclaimed from a name that
    // went quiet); the random part keeps two instances given the same name apart.
    String instance = config.instance() + "-" + UUID.randomUUID().toString().substring(0, 8);
    LOG.info("workers of instance {} started", instance);
    Counter paid =
        Counter.builder("hongbao.payouts")
            .description("grabs paid into wallets by this instance's workers")
            .register(metrics);
    Counter refunds =
        Counter.builder("hongbao.refunds")
            .description("expired packets whose remainder this instance refunded")
            .register(metrics);
    Counter violations =
        Counter.builder("hongbao.invariant.violations")
            .description("bugs that stopped a background loop")
            .register(metrics);
    // Counted by a loop, not at scrape time: reading the dead-letter streams is Redis I/O, and
    // the scrape is answered on the event loop. Capped: past the cap the alert has long fired.
    var deadLetters = new java.util.concurrent.atomic.AtomicLong();
    io.micrometer.core.instrument.Gauge.builder(
            "hongbao.payout.dead.letters", deadLetters, java.util.concurrent.atomic.AtomicLong::get)
        .description("payouts given up after too many deliveries (counted up to 1000)")
        .register(metrics);
    BiConsumer<String, Invariants.InvariantViolation> onViolation =
        (loop, violation) -> {
          violations.increment();
          parts.violations().record(loop, violation);
          parts.switches().set(Switch.PAYOUTS, false);
        };
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
              Duration.ofMillis(50),
              onViolation,
              jitter.split()));
    }
    PayoutWorker reclaimer = payoutWorker(config, parts, instance + "-reclaim");
    workers.loops.add(
        Loop.start(
            "payout-reclaim",
            reclaimer::reclaimOnce,
            config.reclaimIdle().dividedBy(2),
            onViolation,
            jitter.split()));
    workers.loops.add(
        Loop.start(
            "expiry-sweeper",
            () -> {
              int refunded = parts.sweeper().sweepOnce();
              refunds.increment(refunded);
              return refunded;
            },
            config.sweepInterval(),
            onViolation,
            jitter.split()));
    workers.loops.add(
        Loop.start(
            "dead-letter-count",
            () -> {
              deadLetters.set(parts.queue().deadLetters(DEAD_LETTERS_COUNTED).size());
              return 0;
            },
            Duration.ofSeconds(30),
            onViolation,
            jitter.split()));
    workers.loops.add(
        Loop.start(
            "rearmer",
            parts.rearmer()::rearmOnce,
            Duration.ofSeconds(1),
            onViolation,
            jitter.split()));
    workers.loops.add(
        Loop.start(
            "store-repair",
            parts.repair()::checkOnce,
            Duration.ofSeconds(1),
            onViolation,
            jitter.split()));
    workers.loops.add(
        Loop.start(
            "consumer-pruner",
            () -> {
              parts.queue().removeIdleConsumers(CONSUMER_IDLE_MAX);
              return 0;
            },
            Duration.ofMinutes(10),
            onViolation,
            jitter.split()));
    // Stored idempotency answers past their retention, a bounded batch per step.
    var retention =
        new AnswerRetention(
            parts.database().answers(), clock, AnswerRetention.DEFAULT, AnswerRetention.BATCH_MAX);
    workers.loops.add(
        Loop.start(
            "idempotency-purge",
            retention::purgeOnce,
            Duration.ofMinutes(1),
            onViolation,
            jitter.split()));
    // Withdrawals whose outcome is unknown: janitors on every instance, each leasing its own.
    for (int i = 0; i < WITHDRAWAL_JANITORS; i++) {
      workers.loops.add(
          Loop.start(
              "withdrawal-janitor-" + i,
              parts.withdrawals().janitor()::settleOnce,
              Duration.ofSeconds(1),
              onViolation,
              jitter.split()));
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
