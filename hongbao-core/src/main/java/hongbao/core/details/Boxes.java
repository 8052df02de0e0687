package hongbao.core.details;

import hongbao.core.grab.GrabStore;
import hongbao.core.packet.GrabView;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketDetails;
import hongbao.core.packet.PacketStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A user's sent and received packets, newest first, a page at a time. Received packets are those
 * the ledger paid the user from, plus those grabbed and not yet paid.
 */
public final class Boxes {

  public static final int MAX_PAGE = 100;

  private final PacketStore packets;
  private final GrabStore store;
  private final DetailsService details;

  public Boxes(PacketStore packets, GrabStore store, DetailsService details) {
    this.packets = packets;
    this.store = store;
    this.details = details;
  }

  /**
   * One page of a box.
   *
   * @param beforeId the cursor: only packets with a smaller id; null for the first page
   */
  public Page page(Box box, String userId, Long beforeId, int limit) {
    List<Packet> found =
        switch (box) {
          case SENT -> packets.sentBy(userId, beforeId, limit + 1);
          case RECEIVED -> received(userId, beforeId, limit + 1);
        };
    boolean more = found.size() > limit;
    List<Packet> shown = more ? found.subList(0, limit) : found;
    List<Item> items = new ArrayList<>(shown.size());
    for (Packet packet : shown) {
      // The grabs are read for the counts anyway; keeping the caller's own saves the client a
      // details request per item to show what it got.
      PacketDetails full = details.details(packet, true);
      GrabView mine =
          full.grabs().stream().filter(g -> g.userId().equals(userId)).findFirst().orElse(null);
      items.add(new Item(full, mine));
    }
    Long next = more ? shown.getLast().id() : null;
    return new Page(items, next);
  }

  private List<Packet> received(String userId, Long beforeId, int limit) {
    // Pending before paid: a share leaves the pending index only after the ledger has it, so a
    // payout landing between the two reads shows in the second. Read the other way round, the share
    // would be in neither.
    Set<Long> pending = store.pendingOf(userId).keySet();
    var ids = new TreeSet<Long>(Comparator.reverseOrder());
    ids.addAll(packets.paidTo(userId, beforeId, limit));
    pending.stream().filter(id -> beforeId == null || id < beforeId).forEach(ids::add);
    return ids.stream().limit(limit).map(packets::find).flatMap(Optional::stream).toList();
  }

  /** Which box. */
  public enum Box {
    SENT,
    RECEIVED
  }

  /**
   * One packet of a box.
   *
   * @param details with its grabs, which a list leaves out
   * @param myShare the box owner's grab in it, or null (a sent packet its sender did not grab)
   */
  public record Item(PacketDetails details, GrabView myShare) {}

  /** One page and the cursor of the next, or null when this is the last. */
  public record Page(List<Item> items, Long nextCursor) {

    public Page {
      items = List.copyOf(items);
    }
  }
}
