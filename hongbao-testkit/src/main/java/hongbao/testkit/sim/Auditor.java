package hongbao.testkit.sim;

import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabRecord;
import hongbao.core.grab.PacketState;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.reconcile.Reconciliation;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What must hold after every step: the reconciler finds nothing, no share is handed out twice, no
 * user holds two shares of a packet, nobody is paid twice for a grab, and the money in wallets and
 * escrows is exactly what was topped up, to the fen. Throws {@link AssertionError} naming the first
 * thing that does not hold.
 */
final class Auditor {

  private final World world;
  private long toppedUp;

  /** Per packet, the grab sequence numbers handed out and to whom, since the store's last loss. */
  private final Map<Long, Map<Integer, String>> sharesHandedOut = new HashMap<>();

  /** Per packet, the users answered GRABBED, since the store's last loss. */
  private final Map<Long, Set<String>> grabbers = new HashMap<>();

  /** Every (packet, user) ever answered GRABBED: each may be paid once at most, losses or not. */
  private final Set<Map.Entry<Long, String>> everGrabbed = new HashSet<>();

  Auditor(World world) {
    this.world = world;
  }

  void toppedUp(long fen) {
    toppedUp += fen;
  }

  void grabbed(long packetId, String user, GrabOutcome outcome) {
    if (!(outcome instanceof GrabOutcome.Grabbed grabbed)) {
      return;
    }
    String earlier =
        sharesHandedOut
            .computeIfAbsent(packetId, id -> new HashMap<>())
            .putIfAbsent(grabbed.seq(), user);
    check(
        earlier == null,
        "packet %d: share #%d handed out to %s and to %s",
        packetId,
        grabbed.seq(),
        earlier,
        user);
    check(
        grabbers.computeIfAbsent(packetId, id -> new HashSet<>()).add(user),
        "packet %d: %s was answered GRABBED twice",
        packetId,
        user);
    everGrabbed.add(Map.entry(packetId, user));
  }

  /**
   * The store lost writes: a grab it forgot may be answered again (the user's receipt is the proof
   * of the first), so what was handed out is read back from the store as it is now.
   */
  void storeRestarted() {
    sharesHandedOut.clear();
    grabbers.clear();
    for (long packetId :
        world.books.packets(0, Integer.MAX_VALUE).stream().map(Packet::id).toList()) {
      world
          .store
          .state(packetId)
          .ifPresent(
              state -> {
                for (GrabRecord grab : state.grabs()) {
                  sharesHandedOut
                      .computeIfAbsent(packetId, id -> new HashMap<>())
                      .put(grab.seq(), grab.userId());
                  grabbers.computeIfAbsent(packetId, id -> new HashSet<>()).add(grab.userId());
                }
              });
    }
  }

  /** After every step. */
  void check() {
    Reconciliation reconciliation = world.auditor().reconcile();
    check(reconciliation.ok(), "the reconciler found: %s", reconciliation.discrepancies());
    checkMoney();
  }

  /** At the end, everything settled: nothing may wait, every escrow is empty. */
  void checkSettled(List<Long> sent) {
    Reconciliation reconciliation = world.auditor(Simulation.settledLimits()).reconcile();
    check(reconciliation.ok(), "settled, the reconciler found: %s", reconciliation.discrepancies());
    checkMoney();
    check(world.queue.backlog() == 0, "settled, %d payout tasks wait", world.queue.backlog());
    for (Packet packet : world.books.packets(0, Integer.MAX_VALUE)) {
      Amount escrow = world.books.escrowBalance(packet.id());
      check(escrow.fen() == 0, "settled, packet %d: escrow still holds %s", packet.id(), escrow);
    }
  }

  private void checkMoney() {
    long outside = world.books.moneyOutsideSystem();
    check(
        outside == toppedUp && -world.books.systemBalance() == toppedUp,
        "money not conserved: %d fen topped up, wallets and escrows hold %d, the system account %d",
        toppedUp,
        outside,
        world.books.systemBalance());
    for (Map.Entry<Long, String> grab : everGrabbed) {
      long payouts = world.books.payoutsOf(grab.getKey(), grab.getValue());
      check(
          payouts <= 1, "packet %d: %s was paid %d times", grab.getKey(), grab.getValue(), payouts);
    }
    for (long packetId : sharesHandedOut.keySet()) {
      world.store.state(packetId).ifPresent(Auditor::checkState);
    }
  }

  private static void checkState(PacketState state) {
    if (state.isTombstone()) {
      return;
    }
    check(
        state.taken() <= state.count() && state.takenAmount().fen() <= state.total().fen(),
        "packet %d: the store handed out %d shares worth %s of %d worth %s",
        state.packetId(),
        state.taken(),
        state.takenAmount(),
        state.count(),
        state.total());
  }

  private static void check(boolean condition, String format, Object... args) {
    if (!condition) {
      throw new AssertionError(String.format(format, args));
    }
  }
}
