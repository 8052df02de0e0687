package hongbao.core.packet;

import hongbao.core.money.Amount;
import java.time.Instant;

/**
 * A genuine grab receipt whose packet's books could no longer pay it.
 *
 * @param packetCreatedAt the packet creation the receipt named, or null for a receipt that names
 *     none: a payment of the ledger's packet under the id pays this claim only if it is that packet
 */
public record RefusedClaim(
    long packetId,
    String userId,
    Amount amount,
    String reason,
    Instant at,
    Instant packetCreatedAt) {

  /** A refused claim whose receipt named no packet creation. */
  public RefusedClaim(long packetId, String userId, Amount amount, String reason, Instant at) {
    this(packetId, userId, amount, reason, at, null);
  }
}
