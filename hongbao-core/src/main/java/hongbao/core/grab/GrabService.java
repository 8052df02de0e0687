package hongbao.core.grab;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import hongbao.core.password.PasswordKey;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Grabs a share. The fast path is one atomic call to the grab store and never touches the ledger.
 * Only when the store has no such packet does the slow path ask the ledger, which tells a packet
 * that never existed from one whose keys have aged out of the store or that is not armed yet.
 */
public final class GrabService {

  private final GrabStore store;
  private final PacketStore packets;
  private final Arming arming;
  private final Switches switches;
  private final Clock clock;

  public GrabService(
      GrabStore store, PacketStore packets, Arming arming, Switches switches, Clock clock) {
    this.store = store;
    this.packets = packets;
    this.arming = arming;
    this.switches = switches;
    this.clock = clock;
  }

  /**
   * The fast path; completes on a store thread. {@link GrabOutcome.NotFound} needs {@link #settle}.
   */
  public CompletionStage<GrabOutcome> grab(long packetId, String userId, String password) {
    if (!switches.enabled(Switch.GRABBING)) {
      throw new RejectedException(Rejection.DISABLED, "grabbing is switched off");
    }
    String key = password == null ? null : PasswordKey.of(password);
    // Only split-at-grab packets use the random value; drawing it is cheaper than asking.
    long random = ThreadLocalRandom.current().nextInt() >>> 1;
    return store.grab(new GrabAttempt(packetId, userId, key, clock.instant(), random));
  }

  /**
   * The slow path for a packet the store does not have; blocking. Arms a funded packet that missed
   * its arming and grabs again, or answers from the ledger's history for a packet long gone.
   */
  public GrabOutcome settle(long packetId, String userId, String password) {
    Optional<Packet> found = packets.find(packetId);
    if (found.isEmpty()) {
      return GrabOutcome.NOT_FOUND;
    }
    Packet packet = found.get();
    if (!packet.isExpiredAt(clock.instant())) {
      arming.arm(packet);
      return grab(packetId, userId, password).toCompletableFuture().join();
    }
    Map<String, Amount> paid = packets.paidGrabs(packetId);
    Amount mine = paid.get(userId);
    if (mine != null) {
      return new GrabOutcome.AlreadyGrabbed(mine);
    }
    return paid.size() == packet.count() ? GrabOutcome.SOLD_OUT : GrabOutcome.EXPIRED;
  }
}
