package hongbao.core.grab;

import hongbao.core.money.Amount;
import java.time.Instant;

/**
 * What a GRABBED answer promises, sealed into the receipt the user keeps: this user took this
 * amount from this packet as its {@code seq}-th grab. If the grab store loses the grab (writes
 * acknowledged inside its fsync window), the receipt is the user's proof and can be claimed.
 */
public record GrabReceipt(long packetId, String userId, Amount amount, int seq, Instant grabbedAt) {

  public GrabReceipt {
    if (!amount.isPositive() || seq < 1) {
      throw new IllegalArgumentException("receipt of " + amount + " as grab " + seq);
    }
  }
}
