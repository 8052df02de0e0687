package hongbao.core.grab;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.activity.ActivityGrabs;
import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import hongbao.core.packet.PacketType;
import hongbao.core.password.PasswordCheck;
import hongbao.core.password.PasswordKey;
import hongbao.core.password.PasswordLock;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * Grabs a share. The fast path is one atomic call to the grab store and never touches the ledger.
 * Only when the store has no such packet does the slow path ask the ledger, on the slow-path
 * executor (it blocks), which tells a packet that never existed from one whose keys have aged out
 * of the store, were lost, or were never armed; a packet still open is rebuilt from the ledger (see
 * {@link Arming#rearm}). Which path a grab takes is decided here, not by the caller.
 *
 * <p>A grab that carries a 口令 phrase is matched first (see {@link PasswordCheck}): the script then
 * only compares keys, and everything it decides stays one atomic step.
 *
 * <p>Every GRABBED answer carries a sealed receipt of the grab, the user's proof should the store
 * lose it.
 */
public final class GrabService {

  private final GrabStore store;
  private final PasswordCheck passwords;
  private final PacketStore packets;
  private final Arming arming;
  private final ActivityGrabs activities;
  private final Switches switches;
  private final Receipts receipts;
  private final LongSupplier random;
  private final Clock clock;
  private final Executor slowPath;

  /**
   * @param random uniform values in [0, 2^31) for packets split at grab time; seeded by the root
   * @param slowPath runs the blocking slow path; owned by the root
   */
  public GrabService(
      GrabStore store,
      PasswordCheck passwords,
      PacketStore packets,
      Arming arming,
      ActivityGrabs activities,
      Switches switches,
      Receipts receipts,
      LongSupplier random,
      Clock clock,
      Executor slowPath) {
    this.store = store;
    this.passwords = passwords;
    this.packets = packets;
    this.arming = arming;
    this.activities = activities;
    this.switches = switches;
    this.receipts = receipts;
    this.random = random;
    this.clock = clock;
    this.slowPath = slowPath;
  }

  /**
   * Grabs a share of packet {@code packetId}, a negative id standing for one this service never
   * handed out. In the contract's order the switch comes first (a refusal for every packet, known
   * or not), then the packet: an unknown id answers {@link GrabOutcome.NotFound} like a packet
   * nobody has. A packet the store has goes the fast path and completes on a store thread; one it
   * lacks goes on to the slow path.
   *
   * @throws RejectedException DISABLED when grabbing is switched off
   */
  public CompletionStage<GrabOutcome> grab(long packetId, String userId, String password) {
    if (!switches.enabled(Switch.GRABBING)) {
      throw new RejectedException(Rejection.DISABLED, "grabbing is switched off");
    }
    if (packetId < 0) {
      return NOT_FOUND;
    }
    Instant now = clock.instant();
    return stored(packetId, userId, password, now)
        .thenCompose(
            outcome ->
                outcome instanceof GrabOutcome.NotFound
                    ? CompletableFuture.supplyAsync(
                        () -> settle(packetId, userId, password), slowPath)
                    : CompletableFuture.completedStage(
                        withReceipt(outcome, packetId, userId, now)));
  }

  private static final CompletionStage<GrabOutcome> NOT_FOUND =
      CompletableFuture.completedStage(GrabOutcome.NOT_FOUND);

  /** One atomic call to the store; {@link GrabOutcome.NotFound} when it has no such packet. */
  private CompletionStage<GrabOutcome> fastPath(long packetId, String userId, String password) {
    Instant now = clock.instant();
    return stored(packetId, userId, password, now)
        .thenApply(outcome -> withReceipt(outcome, packetId, userId, now));
  }

  /** The store's outcome, without a receipt; a grab without a phrase skips the lock's stage. */
  private CompletionStage<GrabOutcome> stored(
      long packetId, String userId, String password, Instant now) {
    long r = random.getAsLong();
    if (password == null) {
      return store.grab(new GrabAttempt(packetId, userId, null, now, r));
    }
    return passwords
        .keyFor(packetId, password)
        .thenCompose(key -> store.grab(new GrabAttempt(packetId, userId, key, now, r)));
  }

  private GrabOutcome withReceipt(GrabOutcome outcome, long packetId, String userId, Instant at) {
    if (outcome instanceof GrabOutcome.Grabbed grabbed) {
      var receipt =
          new GrabReceipt(
              packetId, userId, grabbed.amount(), grabbed.seq(), at, grabbed.packetCreatedAt());
      return grabbed.withReceipt(receipts.seal(receipt));
    }
    return outcome;
  }

  /**
   * The slow path for a packet the store does not have; blocking. Rebuilds an open packet from the
   * ledger and grabs again, or answers from the ledger's history for a packet long gone.
   */
  private GrabOutcome settle(long packetId, String userId, String password) {
    Optional<Packet> found = packets.find(packetId);
    if (found.isEmpty()) {
      return GrabOutcome.NOT_FOUND;
    }
    Packet packet = found.get();
    if (!packet.isExpiredAt(clock.instant())) {
      arming.rearm(packet);
      GrabOutcome again = fastPath(packetId, userId, password).toCompletableFuture().join();
      if (again instanceof GrabOutcome.NotFound) {
        // Not armed after all: it expired meanwhile, or it is held (another packet's state).
        return packet.isExpiredAt(clock.instant()) ? GrabOutcome.EXPIRED : GrabOutcome.HELD;
      }
      return again;
    }
    Map<String, Amount> paid = packets.paidGrabs(packetId);
    Amount mine = paid.get(userId);
    if (mine != null) {
      return new GrabOutcome.AlreadyGrabbed(mine);
    }
    // The order the grab script answers in while the packet is in the store: an expired packet
    // with shares left is EXPIRED to anyone; an emptied one is refused to a non-recipient, to a
    // wrong phrase and to a user at the activity's limit as such, and SOLD_OUT only to whoever
    // could have grabbed it. The limit is the ledger's count here, a floor of the store's.
    if (paid.size() < packet.count()) {
      return GrabOutcome.EXPIRED;
    }
    if (packet.type() == PacketType.EXCLUSIVE && !packet.recipients().contains(userId)) {
      return GrabOutcome.NOT_ELIGIBLE;
    }
    if (packet.passwordKey() != null && !opens(packet, password)) {
      return GrabOutcome.WRONG_PASSWORD;
    }
    if (packet.activityId() != 0 && activities.limitReached(packet.activityId(), userId)) {
      return GrabOutcome.LIMIT_REACHED;
    }
    return GrabOutcome.SOLD_OUT;
  }

  private boolean opens(Packet packet, String password) {
    if (password == null) {
      return false;
    }
    var pronunciation = passwords.pronunciation();
    return PasswordLock.of(packet.passwordKey(), packet.passwordMatch(), pronunciation)
        .opens(PasswordKey.of(password), pronunciation);
  }
}
