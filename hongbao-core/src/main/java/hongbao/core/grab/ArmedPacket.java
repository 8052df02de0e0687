package hongbao.core.grab;

import hongbao.core.Invariants;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import java.util.List;

/**
 * A packet ready for the fast store: either its pre-split shares, in the order they will be handed
 * out, or no shares and the instruction to cut each share at grab time from what is left (WeChat's
 * way; see {@link hongbao.core.split.AtGrabSplit} for the formula the store mirrors).
 *
 * @param capFen with {@code splitAtGrab}, the largest share in fen; 0 for none
 */
public record ArmedPacket(Packet packet, List<Amount> shares, boolean splitAtGrab, long capFen) {

  public ArmedPacket {
    shares = List.copyOf(shares);
    Invariants.check(
        !splitAtGrab || shares.isEmpty(), "packet %s: split at grab with shares", packet.id());
    Invariants.check(capFen >= 0, "packet %s: negative cap", packet.id());
  }

  /** A pre-split packet. */
  public ArmedPacket(Packet packet, List<Amount> shares) {
    this(packet, shares, false, 0);
  }

  /** A packet whose shares are cut at grab time. */
  public static ArmedPacket splitAtGrab(Packet packet, long capFen) {
    return new ArmedPacket(packet, List.of(), true, capFen);
  }
}
