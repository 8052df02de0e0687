package hongbao.core.reconcile;

import hongbao.core.grab.GrabRecord;
import hongbao.core.grab.GrabStore;
import hongbao.core.grab.PacketState;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import hongbao.core.payout.PayoutQueue;
import hongbao.core.payout.PayoutTask;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Proves that every fen is where it should be. For every packet: amount = paid grabs + unpaid grabs
 * + refunded + still available, the escrow holds exactly what is not yet paid or refunded, and
 * every share the ledger paid is a grab the store recorded with the same amount. For every account:
 * balance = sum of its transfers, never negative. Dead-lettered payouts are reported.
 *
 * <p>The ledger and the store are read one after the other, not in one snapshot; while traffic
 * flows a packet can look off for an instant. A packet is reported only if it still looks off on a
 * second and third reading.
 */
public final class Reconciler {

  private static final int PAGE = 500;
  private static final int READINGS = 3;

  private final LedgerAudit audit;
  private final PacketStore packets;
  private final GrabStore store;
  private final PayoutQueue queue;
  private final Clock clock;
  private final List<Audit> audits = new java.util.concurrent.CopyOnWriteArrayList<>();

  public Reconciler(
      LedgerAudit audit, PacketStore packets, GrabStore store, PayoutQueue queue, Clock clock) {
    this.audit = audit;
    this.packets = packets;
    this.store = store;
    this.queue = queue;
    this.clock = clock;
  }

  /** Adds a feature's audit to every reconciliation. */
  public void add(Audit audit) {
    audits.add(audit);
  }

  public Reconciliation reconcile() {
    var discrepancies = new ArrayList<String>();
    int checked = 0;
    long after = 0;
    for (List<Packet> page = audit.packets(after, PAGE);
        !page.isEmpty();
        page = audit.packets(after, PAGE)) {
      for (Packet packet : page) {
        discrepancies.addAll(checkRepeatedly(packet));
        checked++;
        after = packet.id();
      }
    }
    discrepancies.addAll(audit.accountProblems());
    for (PayoutTask dead : queue.deadLetters(100)) {
      discrepancies.add(
          "payout %s of %s was dead-lettered".formatted(dead.transferKey(), dead.amount()));
    }
    audits.forEach(extra -> discrepancies.addAll(extra.discrepancies()));
    return new Reconciliation(checked, discrepancies);
  }

  private List<String> checkRepeatedly(Packet packet) {
    List<String> found = check(packet);
    for (int reading = 1; reading < READINGS && !found.isEmpty(); reading++) {
      found = check(packet);
    }
    return found;
  }

  /** The problems of one packet; ledger first, so every grab it paid is already in the store. */
  List<String> check(Packet packet) {
    long id = packet.id();
    Amount escrow = audit.escrowBalance(id);
    Map<String, Amount> paid = packets.paidGrabs(id);
    Amount refunded = packets.refunded(id);
    Amount paidSum = paid.values().stream().reduce(Amount.ZERO, Amount::plus);
    var problems = new ArrayList<String>();
    Amount expectedEscrow = packet.amount().minus(paidSum).minus(refunded);
    if (!escrow.equals(expectedEscrow)) {
      problems.add(
          "packet %d: escrow holds %s, expected %s (amount %s - paid %s - refunded %s)"
              .formatted(id, escrow, expectedEscrow, packet.amount(), paidSum, refunded));
    }
    Optional<PacketState> state = store.state(id);
    if (state.isEmpty() || state.get().isTombstone()) {
      checkWithoutGrabRecords(packet, state, paidSum, refunded, problems);
    } else {
      checkAgainstStore(packet, state.get(), paid, paidSum, refunded, problems);
    }
    return problems;
  }

  private void checkAgainstStore(
      Packet packet,
      PacketState state,
      Map<String, Amount> paid,
      Amount paidSum,
      Amount refunded,
      List<String> problems) {
    long id = packet.id();
    Amount grabbed = Amount.ZERO;
    Amount unpaid = Amount.ZERO;
    for (GrabRecord grab : state.grabs()) {
      grabbed = grabbed.plus(grab.amount());
      Amount paidAmount = paid.get(grab.userId());
      if (paidAmount == null) {
        unpaid = unpaid.plus(grab.amount());
      } else if (!paidAmount.equals(grab.amount())) {
        problems.add(
            "packet %d: %s grabbed %s but was paid %s"
                .formatted(id, grab.userId(), grab.amount(), paidAmount));
      }
    }
    // A set, not a scan per paid user: a 100,000-share packet made the scan quadratic (minutes).
    var grabbers = new HashSet<String>(state.grabs().size() * 2);
    state.grabs().forEach(g -> grabbers.add(g.userId()));
    for (String user : paid.keySet()) {
      if (!grabbers.contains(user)) {
        problems.add("packet %d: %s was paid without a recorded grab".formatted(id, user));
      }
    }
    if (!state.total().equals(packet.amount()) || state.count() != packet.count()) {
      problems.add("packet %d: store holds a different amount or count".formatted(id));
    }
    if (!grabbed.equals(state.takenAmount()) || state.grabs().size() != state.taken()) {
      problems.add("packet %d: grab records disagree with the taken counters".formatted(id));
    }
    Amount awaitingRefund =
        state.closed() && !refunded.isPositive() ? state.closedRemainder() : Amount.ZERO;
    if (state.closed() && refunded.isPositive() && !refunded.equals(state.closedRemainder())) {
      problems.add(
          "packet %d: refunded %s but the close left %s"
              .formatted(id, refunded, state.closedRemainder()));
    }
    Amount accounted = paidSum.plus(unpaid).plus(refunded).plus(state.available());
    accounted = accounted.plus(awaitingRefund);
    if (!accounted.equals(packet.amount())) {
      problems.add(
          "packet %d: amount %s != paid %s + unpaid %s + refunded %s + available %s%s"
              .formatted(
                  id,
                  packet.amount(),
                  paidSum,
                  unpaid,
                  refunded,
                  state.available(),
                  awaitingRefund.isPositive() ? " + awaiting refund " + awaitingRefund : ""));
    }
  }

  /**
   * The store has no grab records: the packet is not armed yet, was closed before it was armed, or
   * its keys aged out after expiry. Only a settled packet may have lost its records.
   */
  private void checkWithoutGrabRecords(
      Packet packet,
      Optional<PacketState> tombstone,
      Amount paidSum,
      Amount refunded,
      List<String> problems) {
    if (!packet.isExpiredAt(clock.instant())) {
      return;
    }
    if (!refunded.isPositive() && tombstone.isEmpty() && paidSum.isPositive()) {
      problems.add(
          "packet %d: expired, not refunded, and its grab records are gone".formatted(packet.id()));
      return;
    }
    if (refunded.isPositive() && !paidSum.plus(refunded).equals(packet.amount())) {
      problems.add(
          "packet %d: grab records are gone but paid %s + refunded %s != amount %s"
              .formatted(packet.id(), paidSum, refunded, packet.amount()));
    }
  }

  private static long id(Packet packet) {
    return packet.id();
  }
}
