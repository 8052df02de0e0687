package hongbao.http;

import hongbao.core.ledger.StoredAnswer;
import io.micrometer.core.instrument.Counter;

/**
 * Tells a request's first execution from a replay, for counters that must count each operation
 * once. Rendering an answer is not proof of a first execution: a transaction that retries renders
 * again, and two requests racing with one Idempotency-Key both render before one of them loses the
 * key and is handed the winner's stored answer. Only the answer that comes back being the very one
 * this request rendered (last) is.
 */
final class FirstExecution {

  private volatile StoredAnswer made;

  /** Remembers {@code answer} as this request's own and returns it. */
  StoredAnswer made(StoredAnswer answer) {
    made = answer;
    return answer;
  }

  /** Counts once in {@code counter} when {@code answer} is the one this request made. */
  StoredAnswer count(StoredAnswer answer, Counter counter) {
    if (answer != null && answer == made) {
      counter.increment();
    }
    return answer;
  }
}
