package hongbao.core.grab;

import hongbao.core.packet.GrabView;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Rebuilds the grab store from the ledger after the store restarted. A restart may have lost writes
 * the store had acknowledged (AOF fsync window, a failover to a lagging replica, no persistence),
 * so afterwards its state of a packet can be older than the ledger: grabs the ledger has paid are
 * missing and their shares are back in the pool, ready to be sold again. For every packet not
 * closed yet this puts the paid grabs back (each taking its share out of the pool) and re-arms a
 * packet whose state is gone, before the next restart is looked for.
 *
 * <p>Between the restart and the repair a share can still be sold twice; the ledger's constraints
 * then refuse its payout (dead-lettered and reported), so no packet ever pays more than its books.
 */
public final class StoreRepair {

  private static final System.Logger LOG = System.getLogger(StoreRepair.class.getName());
  private static final int PAGE = 200;

  /**
   * Passes repeated after a restart was seen: a payout worker may still pay a batch it polled
   * before the loss (it keeps a batch through an outage), and each such grab must be put back too.
   */
  public static final int PASSES_AFTER_RESTART = 10;

  private final GrabStore store;
  private final PacketStore packets;
  private final Arming arming;
  private final Clock clock;
  private String repairedGeneration;
  private int passesLeft;

  public StoreRepair(GrabStore store, PacketStore packets, Arming arming, Clock clock) {
    this.store = store;
    this.packets = packets;
    this.arming = arming;
    this.clock = clock;
  }

  /**
   * Repairs every open packet if the store's generation changed since the last repair (and at the
   * first call: the store may have restarted while no instance ran).
   *
   * @return how many grabs or packets were put back
   */
  public synchronized int checkOnce() {
    return checkAt(store.generation());
  }

  private int checkAt(String generation) {
    if (generation.equals(repairedGeneration)) {
      if (passesLeft == 0) {
        return 0;
      }
      passesLeft--;
      return repairAll();
    }
    int repaired = repairAll();
    repairedGeneration = generation;
    passesLeft = PASSES_AFTER_RESTART;
    if (repaired > 0) {
      LOG.log(
          Level.WARNING,
          "grab store generation "
              + generation
              + ": put back "
              + repaired
              + " lost grabs or packets");
    }
    return repaired;
  }

  /**
   * Runs a repair pass unless one ran for the store's current generation: what the sweeper needs
   * before it closes packets. It does not wait for the passes after a restart: a grab a payout
   * worker pays late (from a batch it polled before the loss) is put back by those, and a packet
   * swept before then may refund that grab's share (its payout then refused and reported).
   */
  public synchronized void ensureRepaired() {
    String generation = store.generation();
    if (!generation.equals(repairedGeneration)) {
      checkAt(generation);
    }
  }

  int repairAll() {
    int repaired = 0;
    long after = 0;
    Set<Long> restoredActivities = new HashSet<>();
    for (List<Packet> page = packets.open(after, PAGE);
        !page.isEmpty();
        page = packets.open(after, PAGE)) {
      Set<Long> held = packets.heldAmong(page.stream().map(Packet::id).toList());
      restoreActivities(page, restoredActivities);
      for (Packet packet : page) {
        if (!held.contains(packet.id())) {
          repaired += repair(packet);
        }
        after = packet.id();
      }
    }
    return repaired;
  }

  /**
   * Counts first: a grab of a repaired packet must not slip past a count the restart lost. Each
   * activity once per pass, with every grab the ledger paid in it, closed packets' included.
   */
  private void restoreActivities(List<Packet> page, Set<Long> restored) {
    Map<Long, Instant> latestExpiry = new HashMap<>();
    for (Packet packet : page) {
      if (packet.activityId() != 0 && !restored.contains(packet.activityId())) {
        latestExpiry.merge(packet.activityId(), packet.expiresAt(), StoreRepair::later);
      }
    }
    latestExpiry.forEach(arming::restoreActivity);
    restored.addAll(latestExpiry.keySet());
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  /** Puts one packet's lost state back; returns how many grabs (or 1 for a re-armed packet). */
  public int repair(Packet packet) {
    Instant now = clock.instant();
    Optional<PacketState> state;
    switch (StateReading.of(store, packet.id())) {
      case StateReading.Read read -> state = read.state();
      case StateReading.Unreadable unreadable -> {
        // The reconciler names it; the packets after it are repaired all the same.
        LOG.log(Level.ERROR, "packet " + packet.id() + " could not be read: " + unreadable.why());
        return 0;
      }
    }
    if (state.isEmpty()) {
      if (packet.isExpiredAt(now)) {
        return 0; // the sweeper closes it from the ledger
      }
      arming.rearm(packet);
      return 1;
    }
    if (state.get().isTombstone()) {
      return 0;
    }
    Set<String> recorded = new HashSet<>();
    state.get().grabs().forEach(g -> recorded.add(g.userId()));
    List<GrabRecord> lost = new ArrayList<>();
    for (GrabView paid : packets.paidGrabViews(packet.id())) {
      if (!recorded.contains(paid.userId())) {
        lost.add(new GrabRecord(paid.userId(), paid.amount(), paid.at(), lost.size() + 1));
      }
    }
    if (lost.isEmpty()) {
      return 0;
    }
    int restored = 0;
    List<Recovered> results = store.recover(packet.id(), lost, false);
    for (int i = 0; i < results.size(); i++) {
      if (results.get(i) instanceof Recovered.Done) {
        restored++;
      } else {
        LOG.log(
            Level.ERROR,
            "packet "
                + packet.id()
                + ": the paid grab of "
                + lost.get(i).userId()
                + " could not be put back: "
                + results.get(i));
      }
    }
    return restored;
  }
}
