package hongbao.core.withdrawal;

import java.time.Duration;

/**
 * The clocks of a withdrawal's life, all measured on the injected clock.
 *
 * @param sendGrace how long a REQUESTED withdrawal waits for the request thread to send it before
 *     the janitor sends it (the request thread died, or its queue was full)
 * @param answerDeadline how long a SENT withdrawal waits for its transfer answer before the janitor
 *     asks the gateway; longer than any transfer call can take. A sender stalled beyond it between
 *     writing SENT and sending (a long pause) may send after a janitor asked and sent again: two
 *     requests under one out-trade-no, which the gateway pays once
 * @param lease how long a janitor holds a withdrawal it took up before another may take it; longer
 *     than a query and a transfer together
 * @param backoffBase the first wait between two checks of an unsettled withdrawal
 * @param backoffMax the longest wait between two checks: the backoff is bounded, never given up
 * @param refusalsMax retryable refusals after which the withdrawal fails and its money goes back,
 *     when they answered every request made
 */
public record WithdrawalTimings(
    Duration sendGrace,
    Duration answerDeadline,
    Duration lease,
    Duration backoffBase,
    Duration backoffMax,
    int refusalsMax) {

  public static final WithdrawalTimings DEFAULTS =
      new WithdrawalTimings(
          Duration.ofSeconds(10),
          Duration.ofSeconds(30),
          Duration.ofSeconds(15),
          Duration.ofSeconds(1),
          Duration.ofMinutes(5),
          3);

  public WithdrawalTimings {
    for (Duration d : new Duration[] {sendGrace, answerDeadline, lease, backoffBase, backoffMax}) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("withdrawal timings must be positive: " + d);
      }
    }
    if (backoffMax.compareTo(backoffBase) < 0) {
      throw new IllegalArgumentException("backoff max " + backoffMax + " below its base");
    }
    if (refusalsMax < 1 || refusalsMax > 100) {
      throw new IllegalArgumentException("refusalsMax " + refusalsMax + " not in 1..100");
    }
  }

  /** Refuses timings that would let a janitor ask while a transfer of {@code callMax} runs. */
  public WithdrawalTimings requireLongerThan(Duration callMax) {
    if (answerDeadline.compareTo(callMax) <= 0 || lease.compareTo(callMax.multipliedBy(2)) <= 0) {
      throw new IllegalArgumentException(
          "answer deadline "
              + answerDeadline
              + " and lease "
              + lease
              + " must exceed one and two gateway calls of up to "
              + callMax);
    }
    return this;
  }
}
