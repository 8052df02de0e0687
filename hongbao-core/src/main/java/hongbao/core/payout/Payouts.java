package hongbao.core.payout;

import java.time.Duration;
import java.util.List;

/**
 * Port: where grabbed shares are paid, the one thing the payout worker needs of the ledger (a test
 * double is a few lines, and the payout package depends on no ledger).
 */
public interface Payouts {

  /**
   * How far the clock that timed a grab may run behind the one that timed its packet's creation. A
   * task grabbed earlier than that before its packet was created is of an older packet of the same
   * id (the ledger restored from a backup forgot it and handed the id out again), and {@link #pay}
   * refuses it rather than pay it from the newer packet's escrow.
   */
  Duration CLOCK_SKEW = Duration.ofMinutes(1);

  /**
   * Pays grabbed shares from escrow to wallets in one transaction. Tasks already paid are skipped.
   * Throws {@link PayoutRefused} for the whole batch when the books refuse one of its tasks: an
   * escrow would pay beyond its amount or count of shares, its packet is unknown, or it was opened
   * after the task's grab (beyond {@link #CLOCK_SKEW}).
   *
   * @return how many tasks were paid now
   */
  int pay(List<PayoutTask> tasks);

  /**
   * Returns when the ledger answers; throws {@link hongbao.core.Unavailable} when it cannot be
   * reached now. A double that is never down need not say so.
   */
  default void checkReachable() {}
}
