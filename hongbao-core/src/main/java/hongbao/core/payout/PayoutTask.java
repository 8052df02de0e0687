package hongbao.core.payout;

import hongbao.core.money.Amount;
import java.time.Instant;

/**
 * One grabbed share to move from the packet's escrow to the grabber's wallet.
 *
 * @param deliveryTag the queue's handle for acknowledging this task; opaque to core
 */
public record PayoutTask(
    long packetId, String userId, Amount amount, Instant grabbedAt, String deliveryTag) {

  /** The ledger's unique key for this payout: a replay of the same task moves nothing. */
  public String transferKey() {
    return "grab:" + packetId + ":" + userId;
  }
}
