package hongbao.core.payout;

import java.util.List;

/**
 * Port: where grabbed shares are paid, the one thing the payout worker needs of the ledger (a test
 * double is a few lines, and the payout package depends on no ledger).
 */
public interface Payouts {

  /**
   * Pays grabbed shares from escrow to wallets in one transaction. Tasks already paid are skipped.
   * Throws {@link PayoutRefused} for the whole batch when the books refuse one of its tasks: an
   * escrow would pay beyond its amount or count of shares, its packet is unknown or is not the one
   * the task was grabbed from ({@link PayoutTask#packetCreatedAt}), or the task's transfer was
   * already posted for another share (another amount or grab time).
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
