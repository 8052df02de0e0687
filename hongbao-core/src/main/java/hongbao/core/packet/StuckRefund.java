package hongbao.core.packet;

import hongbao.core.money.Amount;
import java.time.Instant;

/**
 * A packet that expired long ago and still has not given its remainder back.
 *
 * @param escrow what its escrow still holds
 * @param lastError why the last refund attempt failed, or null if none failed (not attempted, or
 *     waiting for its payouts)
 * @param heldReason why the packet is held, or null
 */
public record StuckRefund(
    long packetId,
    Instant expiredAt,
    Amount escrow,
    int attempts,
    String lastError,
    String heldReason) {}
