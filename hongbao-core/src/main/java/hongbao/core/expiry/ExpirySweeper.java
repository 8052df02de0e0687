package hongbao.core.expiry;

import hongbao.core.grab.GrabStore;
import hongbao.core.ledger.Ledger;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Returns what nobody grabbed to the sender. Closing in the grab store is atomic and idempotent and
 * reports the same remainder every time; the refund carries a unique key per packet. So any number
 * of sweepers on any number of instances refund each packet exactly once, and a grab racing the
 * close either gets its share (not refunded) or is told the packet expired.
 */
public final class ExpirySweeper {

  private final PacketStore packets;
  private final GrabStore store;
  private final Ledger ledger;
  private final Clock clock;
  private final int batchSize;

  public ExpirySweeper(
      PacketStore packets, GrabStore store, Ledger ledger, Clock clock, int batchSize) {
    this.packets = packets;
    this.store = store;
    this.ledger = ledger;
    this.clock = clock;
    this.batchSize = batchSize;
  }

  /** Closes and refunds one batch of expired packets; returns how many this call refunded. */
  public int sweepOnce() {
    Instant now = clock.instant();
    List<Packet> expired = packets.expiredUnrefunded(now, batchSize);
    int refunded = 0;
    for (Packet packet : expired) {
      Optional<Amount> remainder = store.close(packet.id(), packet.amount(), now);
      if (remainder.isPresent() && ledger.refund(packet.id(), remainder.get(), now)) {
        refunded++;
      }
    }
    return refunded;
  }
}
