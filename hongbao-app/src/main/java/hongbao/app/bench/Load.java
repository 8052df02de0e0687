package hongbao.app.bench;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntToLongFunction;
import java.util.function.Supplier;

/**
 * Drives a list of calls with at most {@code concurrency} in flight.
 *
 * <p>Closed loop (no rate): the next call starts as soon as a slot frees; latency is measured from
 * the call's actual start. Open loop (a rate): call {@code i} is due at {@code start + i/rate};
 * latency is measured from that due time, not from when a slot freed, so a stalled service is
 * charged for the requests it kept waiting (coordinated-omission correction, as in wrk2).
 */
final class Load {

  /** Bounded patience: a run that cannot finish in this long is reported, not waited for. */
  private static final Duration MAX_RUN = Duration.ofMinutes(30);

  private final int concurrency;
  private final double ratePerSecond;

  /** Call i's due time in nanoseconds after the start, or null for a uniform rate. */
  private final IntToLongFunction schedule;

  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();

  Load(int concurrency, double ratePerSecond) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be positive: " + concurrency);
    }
    this.concurrency = concurrency;
    this.ratePerSecond = ratePerSecond;
    this.schedule = null;
  }

  /**
   * Open loop on an arbitrary schedule (call {@code i} due {@code schedule(i)} ns after the start,
   * non-decreasing): an arrival curve rather than a constant rate. {@code averageRatePerSecond} is
   * only reported.
   */
  Load(int concurrency, IntToLongFunction schedule, double averageRatePerSecond) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be positive: " + concurrency);
    }
    this.concurrency = concurrency;
    this.ratePerSecond = averageRatePerSecond;
    this.schedule = schedule;
  }

  double ratePerSecond() {
    return ratePerSecond;
  }

  long completed() {
    return completed.get();
  }

  long failed() {
    return failed.get();
  }

  /** Runs every call; returns the elapsed seconds from the first start to the last answer. */
  double run(List<Supplier<Future<?>>> calls, LatencyRecorder recorder)
      throws InterruptedException {
    var slots = new Semaphore(concurrency);
    long start = System.nanoTime();
    recorder.start(start);
    long deadline = start + MAX_RUN.toNanos();
    double intervalNanos = ratePerSecond > 0 ? 1e9 / ratePerSecond : 0;
    boolean open = schedule != null || intervalNanos > 0;
    for (int i = 0; i < calls.size(); i++) {
      long due = start + (schedule != null ? schedule.applyAsLong(i) : (long) (i * intervalNanos));
      if (open) {
        long wait;
        while ((wait = due - System.nanoTime()) > 0) {
          LockSupport.parkNanos(wait);
        }
      }
      if (!slots.tryAcquire(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        throw new IllegalStateException("load did not finish within " + MAX_RUN);
      }
      long begun = open ? due : System.nanoTime();
      Future<?> answer;
      try {
        answer = calls.get(i).get();
      } catch (RuntimeException e) {
        answer = Future.failedFuture(e);
      }
      answer.onComplete(
          result -> {
            long now = System.nanoTime();
            recorder.record(now - begun, now);
            if (result.failed()) {
              failed.incrementAndGet();
            }
            completed.incrementAndGet();
            slots.release();
          });
    }
    if (!slots.tryAcquire(
        concurrency, Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
      throw new IllegalStateException("answers still missing after " + MAX_RUN);
    }
    slots.release(concurrency);
    return (System.nanoTime() - start) / 1e9;
  }
}
