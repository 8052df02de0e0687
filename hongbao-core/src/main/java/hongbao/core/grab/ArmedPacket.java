package hongbao.core.grab;

import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import java.util.List;

/**
 * A packet ready for the fast store: its pre-split shares, in the order they will be handed out.
 */
public record ArmedPacket(Packet packet, List<Amount> shares) {

  public ArmedPacket {
    shares = List.copyOf(shares);
  }
}
