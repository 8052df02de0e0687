package hongbao.core.reward;

import java.time.Clock;
import java.time.Duration;

/**
 * The consumption rate of one instance: a local token bucket that every consumed event passes
 * before it is handled, so one instance never pushes more than its share however many queues it
 * reads. Refilled lazily from the injected clock; a burst of one second's worth. Thread-safe.
 */
public final class ConsumeRate {

  private final long perSecond;
  private final Clock clock;
  private final RewardHandler.Sleeper sleeper;
  private double tokens;
  private long refilledAtMillis;

  public ConsumeRate(long perSecond, Clock clock, RewardHandler.Sleeper sleeper) {
    if (perSecond < 1) {
      throw new IllegalArgumentException("a consumption rate must be positive: " + perSecond);
    }
    this.perSecond = perSecond;
    this.clock = clock;
    this.sleeper = sleeper;
    this.tokens = perSecond;
    this.refilledAtMillis = clock.millis();
  }

  /** Takes one token, waiting for it if need be. */
  public void acquire() throws InterruptedException {
    while (true) {
      long waitMillis = tryTake();
      if (waitMillis == 0) {
        return;
      }
      sleeper.sleep(Duration.ofMillis(waitMillis));
    }
  }

  private synchronized long tryTake() {
    long now = clock.millis();
    if (now > refilledAtMillis) {
      tokens = Math.min(perSecond, tokens + (now - refilledAtMillis) * perSecond / 1000.0);
      refilledAtMillis = now;
    }
    if (tokens >= 1) {
      tokens -= 1;
      return 0;
    }
    return Math.max(1, (long) Math.ceil((1 - tokens) * 1000 / perSecond));
  }
}
