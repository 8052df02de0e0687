package hongbao.core.grab;

import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.List;

/**
 * A consistent snapshot of a packet in the fast store, read atomically.
 *
 * @param available the sum of the shares still untaken (zero once closed)
 * @param closedRemainder what the close took back for a refund; zero while open
 * @param emptiedAt when the last share was taken, or null
 * @param grabs every grab in grab order
 */
public record PacketState(
    long packetId,
    Amount total,
    int count,
    int taken,
    Amount takenAmount,
    Amount available,
    boolean closed,
    Amount closedRemainder,
    Instant emptiedAt,
    List<GrabRecord> grabs) {

  public PacketState {
    grabs = List.copyOf(grabs);
  }

  /**
   * A close of a packet that was never armed leaves a tombstone (count 0) so a late arm cannot
   * succeed; it holds no grabs and no shares.
   */
  public boolean isTombstone() {
    return count == 0;
  }
}
