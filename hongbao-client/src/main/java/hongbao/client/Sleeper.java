package hongbao.client;

import java.time.Duration;

/** Waits between attempts; tests pass one that records the waits instead of sleeping. */
@FunctionalInterface
public interface Sleeper {

  Sleeper REAL = duration -> Thread.sleep(duration);

  void sleep(Duration duration) throws InterruptedException;
}
