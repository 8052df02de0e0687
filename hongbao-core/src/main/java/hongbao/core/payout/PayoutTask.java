package hongbao.core.payout;

import hongbao.core.money.Amount;
import java.time.Instant;

/**
 * One grabbed share to move from the packet's escrow to the grabber's wallet.
 *
 * @param deliveryTag the queue's handle for acknowledging this task; opaque to core
 * @param packetCreatedAt when the grabbed packet was created, to the millisecond, as the grab store
 *     held it: it tells the packet from an older one under the same id (the ledger, restored from a
 *     backup, handed the id out again), whose escrow must not pay it; null where unknown (a task
 *     queued by an older version, a claim from a receipt), and then not checked
 */
public record PayoutTask(
    long packetId,
    String userId,
    Amount amount,
    Instant grabbedAt,
    String deliveryTag,
    Instant packetCreatedAt) {

  /** A task that does not say when its packet was created. */
  public PayoutTask(
      long packetId, String userId, Amount amount, Instant grabbedAt, String deliveryTag) {
    this(packetId, userId, amount, grabbedAt, deliveryTag, null);
  }

  /** The same task under the queue's handle {@code deliveryTag}. */
  public PayoutTask taggedAs(String deliveryTag) {
    return new PayoutTask(packetId, userId, amount, grabbedAt, deliveryTag, packetCreatedAt);
  }

  /** The ledger's unique key for this payout: a replay of the same task moves nothing. */
  public String transferKey() {
    return "grab:" + packetId + ":" + userId;
  }
}
