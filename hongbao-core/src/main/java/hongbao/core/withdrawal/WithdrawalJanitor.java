package hongbao.core.withdrawal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Kill Bill's janitor for withdrawals whose outcome is not known yet: it takes up those whose check
 * is due — REQUESTED ones the request thread never sent, SENT ones whose answer never came, UNKNOWN
 * ones — and moves each one step (send, or ask the gateway). A withdrawal it cannot settle yet is
 * checked again after a bounded, jittered backoff, forever: giving up on an unknown outcome would
 * either lose the money or pay it twice.
 *
 * <p>Any number of janitors may run, on any number of instances: taking a withdrawal up leases it
 * (its next check moves past the time the work can take), and every move it makes is a
 * compare-and-set.
 */
public final class WithdrawalJanitor {

  public static final int BATCH_MAX = 1_000;

  private final WithdrawalStore store;
  private final Settlement settlement;
  private final Backoff backoff;
  private final WithdrawalTimings timings;
  private final Clock clock;
  private final int batch;

  public WithdrawalJanitor(
      WithdrawalStore store,
      Settlement settlement,
      Backoff backoff,
      WithdrawalTimings timings,
      Clock clock,
      int batch) {
    if (batch < 1 || batch > BATCH_MAX) {
      throw new IllegalArgumentException("batch " + batch + " not in 1.." + BATCH_MAX);
    }
    this.store = store;
    this.settlement = settlement;
    this.backoff = backoff;
    this.timings = timings;
    this.clock = clock;
    this.batch = batch;
  }

  /**
   * Takes up the withdrawals due now and moves each one step. Store faults propagate (the caller
   * backs off); the leased withdrawals are taken up again when their lease runs out.
   *
   * @return how many withdrawals were taken up; 0 when none was due
   */
  public int settleOnce() {
    Instant now = clock.instant();
    List<Withdrawal> due = store.claimDue(now, batch, w -> now.plus(nextCheckAfter(w)));
    due.forEach(settlement::advance);
    return due.size();
  }

  private Duration nextCheckAfter(Withdrawal withdrawal) {
    Duration wait = backoff.after(withdrawal.checks());
    return wait.compareTo(timings.lease()) < 0 ? timings.lease() : wait;
  }
}
