package hongbao.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when told: tests and the simulator advance it instead of sleeping. */
public final class SimClock extends Clock {

  private Instant now;

  public SimClock(Instant start) {
    this.now = start;
  }

  public synchronized void advance(Duration by) {
    if (by.isNegative()) {
      throw new IllegalArgumentException("time never runs backwards: " + by);
    }
    now = now.plus(by);
  }

  @Override
  public synchronized Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
