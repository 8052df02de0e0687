package hongbao.core.details;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.grab.GrabRecord;
import hongbao.core.grab.GrabStore;
import hongbao.core.grab.PacketState;
import hongbao.core.money.Amount;
import hongbao.core.packet.GrabView;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketDetails;
import hongbao.core.packet.PacketStatus;
import hongbao.core.packet.PacketStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Assembles a packet's details from the ledger (what was funded, paid and refunded) and the grab
 * store (who grabbed what, when). When the store's keys have aged out, the ledger's paid grabs
 * stand in for the grab records.
 */
public final class DetailsService {

  private final PacketStore packets;
  private final GrabStore store;
  private final Clock clock;

  public DetailsService(PacketStore packets, GrabStore store, Clock clock) {
    this.packets = packets;
    this.store = store;
    this.clock = clock;
  }

  public PacketDetails details(long packetId) {
    return details(requireExists(packetId), true);
  }

  /**
   * The packet, without its grabs.
   *
   * @throws RejectedException NOT_FOUND when no packet has this id
   */
  public Packet requireExists(long packetId) {
    return packets
        .find(packetId)
        .orElseThrow(() -> new RejectedException(Rejection.NOT_FOUND, "no such packet"));
  }

  public PacketDetails details(Packet packet, boolean withGrabs) {
    Map<String, Amount> paid = packets.paidGrabs(packet.id());
    Optional<PacketState> state = store.state(packet.id()).filter(s -> !s.isTombstone());
    List<GrabView> grabs = new ArrayList<>();
    Instant emptiedAt = null;
    if (state.isPresent()) {
      for (GrabRecord grab : state.get().grabs()) {
        grabs.add(
            new GrabView(grab.userId(), grab.amount(), grab.at(), paid.containsKey(grab.userId())));
      }
      emptiedAt = state.get().emptiedAt();
    } else {
      grabs.addAll(packets.paidGrabViews(packet.id()));
      if (grabs.size() == packet.count()) {
        emptiedAt = grabs.getLast().at();
      }
    }
    Amount grabbedAmount = grabs.stream().map(GrabView::amount).reduce(Amount.ZERO, Amount::plus);
    Amount refunded = packets.refunded(packet.id());
    boolean closed = refunded.isPositive() || state.map(PacketState::closed).orElse(false);
    PacketStatus status = statusOf(packet, grabs.size(), closed);
    GrabView bestLuck = status == PacketStatus.ACTIVE ? null : bestLuck(grabs);
    Long timeToEmpty =
        emptiedAt == null ? null : Duration.between(packet.createdAt(), emptiedAt).toMillis();
    return new PacketDetails(
        packet,
        status,
        grabs.size(),
        grabbedAmount,
        emptiedAt,
        timeToEmpty,
        refunded,
        bestLuck,
        withGrabs ? grabs : List.of());
  }

  /**
   * A packet that was closed or refunded has expired whatever this instance's clock says: the
   * sweeper that closed it may run on an instance whose clock is ahead, and a page showing a refund
   * must not call the packet active.
   */
  private PacketStatus statusOf(Packet packet, int grabbed, boolean closed) {
    if (grabbed >= packet.count()) {
      return PacketStatus.EMPTY;
    }
    return closed || packet.isExpiredAt(clock.instant())
        ? PacketStatus.EXPIRED
        : PacketStatus.ACTIVE;
  }

  /** The largest share; the earliest grab wins a tie. */
  private static GrabView bestLuck(List<GrabView> grabs) {
    GrabView best = null;
    for (GrabView grab : grabs) {
      if (best == null || grab.amount().compareTo(best.amount()) > 0) {
        best = grab;
      }
    }
    return best;
  }
}
