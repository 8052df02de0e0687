package hongbao.core.grab;

import hongbao.core.Invariants;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.password.PasswordLock;
import java.util.List;

/**
 * A packet ready for the fast store: either its pre-split shares, in the order they will be handed
 * out, or no shares and the instruction to cut each share at grab time from what is left (WeChat's
 * way; see {@link hongbao.core.split.AtGrabSplit} for the formula the store mirrors).
 *
 * <p>A packet rebuilt after the store lost it carries the grabs the ledger has paid as {@code
 * restored}: they are recorded as taken, and the shares are a split of only what is left. With
 * every share paid, what is left (a recovered grab's spare, see {@code recover.lua}) stays the
 * packet's spare until its close refunds it.
 *
 * @param capFen with {@code splitAtGrab}, the largest share in fen; 0 for none
 * @param restored grabs already paid, in grab order; empty for a new packet
 * @param lock what a grab's 口令 must open; null for a packet without one
 * @param grabsPerUserMax the limit of the packet's activity; 0 outside any activity
 */
public record ArmedPacket(
    Packet packet,
    List<Amount> shares,
    boolean splitAtGrab,
    long capFen,
    List<GrabRecord> restored,
    PasswordLock lock,
    int grabsPerUserMax) {

  public ArmedPacket {
    shares = List.copyOf(shares);
    restored = List.copyOf(restored);
    Amount sum = restored.stream().map(GrabRecord::amount).reduce(Amount.ZERO, Amount::plus);
    for (Amount share : shares) {
      sum = sum.plus(share);
    }
    Invariants.check(
        restored.size() <= packet.count(),
        "packet %s: %s restored grabs for count %s",
        packet.id(),
        restored.size(),
        packet.count());
    // A packet rebuilt with every share paid may have paid less than its total: a receipt's grab
    // smaller than the last share left the difference over (recover.lua's spare), refunded at
    // close.
    boolean everySharePaid = shares.isEmpty() && restored.size() == packet.count();
    Invariants.check(
        splitAtGrab
            ? sum.fen() <= packet.amount().fen()
            : shares.size() + restored.size() == packet.count()
                && (everySharePaid
                    ? sum.fen() <= packet.amount().fen()
                    : sum.equals(packet.amount())),
        "packet %s: shares and restored grabs do not make up %s in %s shares",
        packet.id(),
        packet.amount(),
        packet.count());
    Invariants.check(
        !splitAtGrab || shares.isEmpty(), "packet %s: split at grab with shares", packet.id());
    Invariants.check(capFen >= 0, "packet %s: negative cap", packet.id());
    Invariants.check(
        (lock == null) == !packet.hasPassword()
            && (lock == null || lock.key().equals(packet.passwordKey())),
        "packet %s: a lock that is not the packet's",
        packet.id());
    Invariants.check(
        (grabsPerUserMax > 0) == (packet.activityId() != 0),
        "packet %s: limit %s for activity %s",
        packet.id(),
        grabsPerUserMax,
        packet.activityId());
  }

  /** A packet opened by its exact key only, outside any activity. */
  public ArmedPacket(
      Packet packet,
      List<Amount> shares,
      boolean splitAtGrab,
      long capFen,
      List<GrabRecord> restored) {
    this(packet, shares, splitAtGrab, capFen, restored, exactLock(packet), 0);
  }

  /** A pre-split packet. */
  public ArmedPacket(Packet packet, List<Amount> shares) {
    this(packet, shares, false, 0, List.of());
  }

  /** A packet whose shares are cut at grab time. */
  public static ArmedPacket splitAtGrab(Packet packet, long capFen) {
    return new ArmedPacket(packet, List.of(), true, capFen, List.of());
  }

  private static PasswordLock exactLock(Packet packet) {
    return packet.hasPassword() ? PasswordLock.exact(packet.passwordKey()) : null;
  }
}
