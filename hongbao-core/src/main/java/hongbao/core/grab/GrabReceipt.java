package hongbao.core.grab;

import hongbao.core.money.Amount;
import java.time.Instant;

/**
 * What a GRABBED answer promises, sealed into the receipt the user keeps: this user took this
 * amount from this packet as its {@code seq}-th grab. If the grab store loses the grab (writes
 * acknowledged inside its fsync window), the receipt is the user's proof and can be claimed.
 *
 * @param packetCreatedAt the packet's creation, to the millisecond, as the grab store armed it: it
 *     tells the packet from another the ledger handed the same id to after a restore from a backup.
 *     Null in receipts sealed before it was kept, and for packets armed before the store kept it.
 */
public record GrabReceipt(
    long packetId,
    String userId,
    Amount amount,
    int seq,
    Instant grabbedAt,
    Instant packetCreatedAt) {

  public GrabReceipt {
    if (!amount.isPositive() || seq < 1) {
      throw new IllegalArgumentException("receipt of " + amount + " as grab " + seq);
    }
  }

  /** A receipt that does not name its packet's creation. */
  public GrabReceipt(long packetId, String userId, Amount amount, int seq, Instant grabbedAt) {
    this(packetId, userId, amount, seq, grabbedAt, null);
  }
}
