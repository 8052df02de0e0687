package hongbao.core.reward;

import hongbao.core.Invariants;
import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * What a consumer does with one reward event, whichever queue it came from:
 *
 * <ul>
 *   <li>issuing switched off: {@link Handling#PAUSED} — not acknowledged; the consumer stops
 *       polling for a while, so events wait on their queue;
 *   <li>type fused: parked durably per type ({@link ParkingLot}) and acknowledged; unfusing sends
 *       the parked events back;
 *   <li>type throttled: held — the worker waits for the type's next token (the event stays
 *       unacknowledged, so a crash redelivers it). Waiting is short by construction (a token comes
 *       every 1/rate seconds) and keeps the order of a partition; re-queueing would send the event
 *       round the queues many times per second;
 *   <li>issued, or refused for good (then written to the failure stream): acknowledged;
 *   <li>an outage (issuer, database): retried in place a few times, then re-queued with its attempt
 *       counted, and after {@link #MAX_ATTEMPTS} written to the failure stream.
 * </ul>
 *
 * Thread-safe; one handler serves every worker of an instance.
 */
public final class RewardHandler {

  private static final System.Logger LOG = System.getLogger(RewardHandler.class.getName());

  public static final int MAX_ATTEMPTS = 20;
  static final int TRIES_IN_PLACE = 3;
  static final long BACKOFF_MILLIS = 50;
  static final long THROTTLE_SLEEP_MAX_MILLIS = 100;

  private final RewardTypes types;
  private final TypeThrottle throttle;
  private final RewardService service;
  private final ParkingLot parking;
  private final FailureLog failures;
  private final RewardQueues queues;
  private final Switches switches;
  private final RewardMetrics metrics;
  private final Sleeper sleeper;
  private final ConsumeRate consumeRate;

  public RewardHandler(
      RewardTypes types,
      TypeThrottle throttle,
      RewardService service,
      ParkingLot parking,
      FailureLog failures,
      RewardQueues queues,
      Switches switches,
      RewardMetrics metrics,
      Sleeper sleeper,
      ConsumeRate consumeRate) {
    this.types = types;
    this.throttle = throttle;
    this.service = service;
    this.parking = parking;
    this.failures = failures;
    this.queues = queues;
    this.switches = switches;
    this.metrics = metrics;
    this.sleeper = sleeper;
    this.consumeRate = consumeRate;
  }

  /** Waits; injected so tests need not sleep. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;

    Sleeper THREAD = duration -> Thread.sleep(duration);
  }

  /** What became of an event; all but PAUSED mean "acknowledge it". */
  public enum Handling {
    CREDITED,
    PARKED,
    REQUEUED,
    FAILED,
    PAUSED
  }

  public Handling handle(Reward reward, int attempt) throws InterruptedException {
    consumeRate.acquire();
    for (int tries = 1; ; tries++) {
      if (!switches.enabled(Switch.REWARDS)) {
        return Handling.PAUSED;
      }
      RewardType type = types.findFresh(reward.type()).orElse(null);
      if (type == null) {
        failures.fail(reward, "unknown reward type " + reward.type());
        return Handling.FAILED;
      }
      if (type.fused()) {
        return park(reward, type, attempt);
      }
      try {
        RewardType admitted = type;
        return settle(reward, service.credit(reward, type, () -> admit(admitted)));
      } catch (Invariants.InvariantViolation bug) {
        throw bug;
      } catch (FusedWhileHeld fused) {
        return park(reward, type, attempt);
      } catch (RuntimeException outage) {
        if (tries < TRIES_IN_PLACE) {
          sleeper.sleep(Duration.ofMillis(BACKOFF_MILLIS << (2 * (tries - 1))));
          continue;
        }
        return requeue(reward, type, attempt, outage);
      }
    }
  }

  private Handling park(Reward reward, RewardType type, int attempt) {
    parking.park(reward, attempt);
    metrics.fused(type.type());
    return Handling.PARKED;
  }

  /**
   * Waits for a token of the type's bucket: the event is held, unacknowledged, meanwhile. A type
   * fused while its events wait stops them here, before the issuer is called: a type pushed at
   * several times its rate has a consumer's whole in-flight window waiting (256 events are more
   * than a second at 200/s), which would otherwise still be issued after the fuse.
   */
  private void admit(RewardType type) throws InterruptedException {
    for (long waitMillis = throttle.acquire(type, 1);
        waitMillis > 0;
        waitMillis = throttle.acquire(type, 1)) {
      metrics.throttled(type.type());
      sleeper.sleep(Duration.ofMillis(Math.min(waitMillis, THROTTLE_SLEEP_MAX_MILLIS)));
      if (types.find(type.type()).map(RewardType::fused).orElse(false)) {
        throw FusedWhileHeld.INSTANCE;
      }
    }
    metrics.admitted(type.type());
  }

  /** The type was fused while an event waited for its token: park the event instead. */
  private static final class FusedWhileHeld extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final FusedWhileHeld INSTANCE = new FusedWhileHeld();

    private FusedWhileHeld() {
      super("fused while held", null, false, false);
    }
  }

  private Handling settle(Reward reward, CreditOutcome outcome) {
    return switch (outcome) {
      case CreditOutcome.Credited credited -> Handling.CREDITED;
      case CreditOutcome.Refused refused -> {
        failures.fail(reward, "refused by the issuer: " + refused.reason());
        yield Handling.FAILED;
      }
      case CreditOutcome.Conflict conflict -> {
        failures.fail(reward, "tradeNo already issued with a different request");
        yield Handling.FAILED;
      }
    };
  }

  private Handling requeue(Reward reward, RewardType type, int attempt, RuntimeException outage) {
    if (attempt + 1 >= MAX_ATTEMPTS) {
      failures.fail(reward, "gave up after " + MAX_ATTEMPTS + " attempts: " + outage);
      return Handling.FAILED;
    }
    LOG.log(
        Level.INFO,
        "re-queueing reward {0} (attempt {1}): {2}",
        reward.tradeNo(),
        attempt + 1,
        outage.toString());
    // Handed over, not held: this event is acknowledged once the queue has the new one, so while
    // both topics are down the outage stays the consumer's, and the entry stays in its queue.
    queues.handOver(reward, type.queue(), attempt + 1);
    return Handling.REQUEUED;
  }
}
