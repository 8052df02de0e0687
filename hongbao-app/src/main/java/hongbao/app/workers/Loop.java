package hongbao.app.workers;

import hongbao.core.Invariants;
import java.time.Duration;
import java.util.function.BiConsumer;
import java.util.function.IntSupplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one background step over and over on its own thread: at once again while it finds work,
 * after {@code idle} when it finds none, and after a jittered, bounded, growing backoff when it
 * fails (a dependency is down), so a Redis or PostgreSQL outage is waited out without spinning.
 *
 * <p>An invariant violation is a bug, not an outage: the loop stops, logs it as an error and hands
 * it to {@code onViolation} (which records it for the reconciler and switches payouts off).
 */
public final class Loop implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Loop.class);
  private static final long BACKOFF_MIN_MILLIS = 50;
  private static final long BACKOFF_MAX_MILLIS = 2_000;

  private final String name;
  private final IntSupplier step;
  private final Duration idle;
  private final BiConsumer<String, Invariants.InvariantViolation> onViolation;
  private final RandomGenerator jitter;
  private final Thread thread;
  private volatile boolean running = true;

  private Loop(
      String name,
      IntSupplier step,
      Duration idle,
      BiConsumer<String, Invariants.InvariantViolation> onViolation,
      RandomGenerator jitter) {
    this.name = name;
    this.step = step;
    this.idle = idle;
    this.onViolation = onViolation;
    this.jitter = jitter;
    this.thread = Thread.ofPlatform().name(name).daemon().unstarted(this::run);
  }

  /**
   * Starts a loop; {@code step} returns how much work it did (0 when idle). {@code jitter} spreads
   * retries (seeded by the root; used by this loop's thread only).
   */
  public static Loop start(
      String name,
      IntSupplier step,
      Duration idle,
      BiConsumer<String, Invariants.InvariantViolation> onViolation,
      RandomGenerator jitter) {
    Loop loop = new Loop(name, step, idle, onViolation, jitter);
    loop.thread.start();
    return loop;
  }

  public boolean running() {
    return running && thread.isAlive();
  }

  private void run() {
    long backoff = BACKOFF_MIN_MILLIS;
    while (running) {
      try {
        int done = step.getAsInt();
        backoff = BACKOFF_MIN_MILLIS;
        if (done == 0) {
          pause(idle.toMillis());
        }
      } catch (Invariants.InvariantViolation violation) {
        running = false;
        LOG.error("{} stopped by an invariant violation", name, violation);
        onViolation.accept(name, violation);
        return;
      } catch (RuntimeException e) {
        if (!running) {
          return;
        }
        LOG.warn("{} failed, retrying in about {} ms: {}", name, backoff, e.toString());
        pause(backoff + jitter.nextLong(backoff / 2 + 1));
        backoff = Math.min(BACKOFF_MAX_MILLIS, backoff * 2);
      }
    }
  }

  private void pause(long millis) {
    if (millis <= 0) {
      return;
    }
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }

  /** Stops after the current step; waits for it to finish. */
  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(Duration.ofSeconds(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
