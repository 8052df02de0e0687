package hongbao.core.packet;

import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.List;

/**
 * Everything the details page shows about a packet.
 *
 * @param emptiedAt when the last share went, or null
 * @param timeToEmptyMillis from creation to the last share, or null
 * @param bestLuck the largest share (earliest wins a tie); null while the packet is ACTIVE
 * @param grabs in grab order; empty when not asked for
 */
public record PacketDetails(
    Packet packet,
    PacketStatus status,
    int grabbedCount,
    Amount grabbedAmount,
    Instant emptiedAt,
    Long timeToEmptyMillis,
    Amount refundedAmount,
    GrabView bestLuck,
    List<GrabView> grabs) {

  public PacketDetails {
    grabs = List.copyOf(grabs);
  }
}
