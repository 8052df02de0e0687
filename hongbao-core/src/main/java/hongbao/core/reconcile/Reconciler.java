package hongbao.core.reconcile;

import hongbao.core.grab.GrabRecord;
import hongbao.core.grab.GrabStore;
import hongbao.core.grab.PacketState;
import hongbao.core.grab.StateReading;
import hongbao.core.money.Amount;
import hongbao.core.ops.Violations;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import hongbao.core.packet.RefusedClaim;
import hongbao.core.packet.StuckRefund;
import hongbao.core.payout.DeadLetter;
import hongbao.core.payout.PayoutQueue;
import hongbao.core.payout.PayoutTask;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Proves that every fen is where it should be. For every packet: amount = paid grabs + unpaid grabs
 * + refunded + still available, the escrow holds exactly what is not yet paid or refunded, and
 * every share the ledger paid is a grab the store recorded with the same amount. For every account:
 * balance = sum of its transfers, never negative.
 *
 * <p>It also names stuck money, with the packet and the amount: grabs unpaid for longer than {@link
 * Limits#unpaidAfter}, expired packets not refunded {@link Limits#refundAfter} after expiry (with
 * the last refund failure), held packets, a close that claimed more than the escrow held,
 * dead-lettered payouts with their reason, refused receipt claims, a payout backlog above {@link
 * Limits#backlogMax}, and invariant violations that stopped a background loop.
 *
 * <p>The ledger and the store are read one after the other, not in one snapshot; while traffic
 * flows a packet can look off for an instant. A packet is reported only if it still looks off on a
 * second and third reading.
 *
 * <p>{@link #reconcile} checks every packet; {@link #reconcileChanges} only the packets touched
 * since the watermark, the start of the last clean run less {@link #WATERMARK_OVERLAP}. The
 * watermark is kept in memory: a restarted service makes its first periodic run a full one, which
 * is the safe default, and instances need not agree on one. Any run that finds a discrepancy
 * forgets it, so runs stay full, and keep reporting, until one is clean. Accounts, stuck money and
 * the further audits are checked whole on every run: they are one query each, not one per packet. A
 * grab left unpaid on a packet nothing touched since is found through the payout queue: the packets
 * of the tasks first in line on their streams that waited long are checked too.
 */
public final class Reconciler {

  private static final int PAGE = 500;
  private static final int READINGS = 3;
  private static final int REPORTED_MAX = 100;

  /** The most packets of long-waiting payouts an incremental run checks beyond its own. */
  private static final int WAITING_CHECKED = 20;

  /** The most long-waiting stream heads a run reads: every stream's, at the default 1,024. */
  private static final int HEADS_READ_MAX = 4_096;

  /** Where the next run starts among the long-waiting heads, so that each comes up in turn. */
  private final AtomicInteger rotation = new AtomicInteger();

  /**
   * How far before a clean run's start its watermark lies. A transfer is stamped when its
   * transaction starts (PostgreSQL's now()), and may commit after a run began with an earlier
   * stamp; statements end within the 15 s statement timeout, and the database's clock may differ
   * from the service's by a little. A minute covers both with room.
   */
  public static final Duration WATERMARK_OVERLAP = Duration.ofMinutes(1);

  private volatile Instant watermark;

  private final LedgerAudit audit;
  private final PacketStore packets;
  private final GrabStore store;
  private final PayoutQueue queue;
  private final Clock clock;
  private final Limits limits;
  private final Violations violations;

  /**
   * When waiting money counts as stuck. {@code refundAfter} is also how long a feature's return of
   * unspent money may take beyond its own grace (a rain's budget after its end) before its audit
   * names it.
   */
  public record Limits(Duration unpaidAfter, Duration refundAfter, long backlogMax) {

    /** Far beyond "paid within a second or two" and "refunded within 10 s of expiry". */
    public static final Limits DEFAULTS =
        new Limits(Duration.ofMinutes(5), Duration.ofMinutes(1), 1_000_000);
  }

  private final List<Audit> audits = new java.util.concurrent.CopyOnWriteArrayList<>();

  public Reconciler(
      LedgerAudit audit,
      PacketStore packets,
      GrabStore store,
      PayoutQueue queue,
      Clock clock,
      Limits limits,
      Violations violations) {
    this.audit = audit;
    this.packets = packets;
    this.store = store;
    this.queue = queue;
    this.clock = clock;
    this.limits = limits;
    this.violations = violations;
  }

  public Reconciler(
      LedgerAudit audit, PacketStore packets, GrabStore store, PayoutQueue queue, Clock clock) {
    this(audit, packets, store, queue, clock, Limits.DEFAULTS, new Violations());
  }

  /** With further audits, run after the packets, the accounts and the stuck money. */
  public Reconciler(
      LedgerAudit audit,
      PacketStore packets,
      GrabStore store,
      PayoutQueue queue,
      Clock clock,
      Limits limits,
      Violations violations,
      List<Audit> audits) {
    this(audit, packets, store, queue, clock, limits, violations);
    this.audits.addAll(audits);
  }

  /** When this reconciler counts waiting money as stuck, for the audits added to it. */
  public Limits limits() {
    return limits;
  }

  /** Adds a feature's audit to every reconciliation. */
  public void add(Audit audit) {
    audits.add(audit);
  }

  /** Checks every packet, then the accounts and the stuck money. */
  public Reconciliation reconcile() {
    return run(null);
  }

  /**
   * Checks the packets touched since the last clean run's watermark, then the accounts and the
   * stuck money whole; a full run when there is no watermark yet.
   */
  public Reconciliation reconcileChanges() {
    return run(watermark);
  }

  /** Where the next {@link #reconcileChanges} starts; empty: it will be a full run. */
  public Optional<Instant> watermark() {
    return Optional.ofNullable(watermark);
  }

  private Reconciliation run(Instant since) {
    Instant started = clock.instant();
    var discrepancies = new ArrayList<String>();
    int checked = 0;
    long after = 0;
    // A run of the changes also looks at the payouts that waited long: a packet that nothing
    // touched since its grabs (no payout, no refund: payouts off, a worker stuck) is in no page.
    Set<Long> touched = since == null ? null : new HashSet<>();
    for (List<Packet> page = page(since, after); !page.isEmpty(); page = page(since, after)) {
      List<Long> ids = page.stream().map(Packet::id).toList();
      Set<Long> held = packets.heldAmong(ids);
      Set<Long> closed = packets.closedAmong(ids);
      for (Packet packet : page) {
        // A held packet's store state is another packet's: its books are checked against the
        // ledger alone, and it is reported as held below.
        discrepancies.addAll(
            held.contains(packet.id())
                ? checkEscrow(packet)
                : checkRepeatedly(packet, closed.contains(packet.id())));
        checked++;
        after = packet.id();
        if (touched != null) {
          touched.add(packet.id());
        }
      }
    }
    discrepancies.addAll(audit.accountProblems());
    discrepancies.addAll(stuckMoney());
    discrepancies.addAll(unpaidUnread(touched));
    audits.forEach(extra -> discrepancies.addAll(extra.discrepancies()));
    watermark = discrepancies.isEmpty() ? started.minus(WATERMARK_OVERLAP) : null;
    return new Reconciliation(checked, discrepancies);
  }

  private List<Packet> page(Instant since, long after) {
    return since == null
        ? audit.packets(after, PAGE)
        : audit.packetsTouchedSince(since, after, PAGE);
  }

  private List<String> stuckMoney() {
    var stuck = new ArrayList<String>();
    Instant now = clock.instant();
    for (DeadLetter dead : queue.deadLetters(REPORTED_MAX)) {
      PayoutTask task = dead.task();
      stuck.add(
          "packet %d: payout of %s to %s was dead-lettered: %s"
              .formatted(task.packetId(), task.amount(), task.userId(), dead.reason()));
    }
    for (StuckRefund refund : packets.stuckRefunds(now.minus(limits.refundAfter()), REPORTED_MAX)) {
      if (refund.heldReason() != null) {
        stuck.add(
            "packet %d: held, escrow holds %s: %s"
                .formatted(refund.packetId(), refund.escrow(), refund.heldReason()));
      } else {
        stuck.add(
            "packet %d: expired at %s and not refunded: escrow holds %s (%d attempts%s)"
                .formatted(
                    refund.packetId(),
                    refund.expiredAt(),
                    refund.escrow(),
                    refund.attempts(),
                    refund.lastError() == null ? "" : "; last: " + refund.lastError()));
      }
    }
    for (RefusedClaim claim : packets.refusedClaims(REPORTED_MAX)) {
      stuck.add(
          "packet %d: receipt of %s for %s refused: %s"
              .formatted(claim.packetId(), claim.userId(), claim.amount(), claim.reason()));
    }
    long backlog = queue.backlog();
    if (backlog > limits.backlogMax()) {
      stuck.add("payout backlog of %d tasks exceeds %d".formatted(backlog, limits.backlogMax()));
    }
    for (String violation : violations.all()) {
      stuck.add("invariant violation stopped " + violation);
    }
    return stuck;
  }

  /**
   * The payouts first in line on their streams that waited past {@link Limits#unpaidAfter}: a task
   * whose packet the ledger does not know is named as it is, on every run (at most {@value
   * #REPORTED_MAX}); in a run of the changes ({@code read} the packets it read, null for a full
   * run, which read them all) the packets it did not read are checked as a full run would check
   * them, at most {@value #WAITING_CHECKED}, each run starting that many heads further along, so
   * that every head comes up in turn. Checked, not named at once: a task may be paid already, its
   * acknowledgement lost (a crash, or payouts switched off, which stops the reclaim); the packet's
   * check compares the ledger with the store's grabs.
   */
  private List<String> unpaidUnread(Set<Long> read) {
    Instant unpaidSince = clock.instant().minus(limits.unpaidAfter());
    // The rotation walks every head, read or not, so that its order does not move with the
    // packets each run happened to read.
    List<PayoutTask> heads = queue.waitingHeads(unpaidSince, HEADS_READ_MAX);
    if (heads.isEmpty()) {
      return List.of();
    }
    Set<Long> known =
        packets.knownAmong(heads.stream().map(PayoutTask::packetId).distinct().toList());
    var found = new ArrayList<String>();
    heads.stream()
        .filter(task -> read == null || !read.contains(task.packetId()))
        .filter(task -> !known.contains(task.packetId()))
        .limit(REPORTED_MAX)
        .forEach(
            task ->
                found.add(
                    "packet %d: %s grabbed %s at %s and is still unpaid"
                        .formatted(
                            task.packetId(), task.userId(), task.amount(), task.grabbedAt())));
    if (read == null) {
      return found;
    }
    var checked = new HashSet<Long>();
    int start = Math.floorMod(rotation.getAndAdd(WAITING_CHECKED), heads.size());
    for (int i = 0; i < heads.size() && checked.size() < WAITING_CHECKED; i++) {
      long id = heads.get((start + i) % heads.size()).packetId();
      if (!read.contains(id) && known.contains(id) && checked.add(id)) {
        Optional<Packet> packet = packets.find(id);
        if (packet.isPresent()) {
          List<Long> ids = List.of(id);
          found.addAll(
              packets.heldAmong(ids).isEmpty()
                  ? checkRepeatedly(packet.get(), !packets.closedAmong(ids).isEmpty())
                  : checkEscrow(packet.get()));
        }
      }
    }
    return found;
  }

  private List<String> checkRepeatedly(Packet packet, boolean closed) {
    List<String> found = check(packet, closed);
    for (int reading = 1; reading < READINGS && !found.isEmpty(); reading++) {
      found = check(packet, closed);
    }
    return found;
  }

  private List<String> checkEscrow(Packet packet) {
    long id = packet.id();
    Amount paidSum = packets.paidGrabs(id).values().stream().reduce(Amount.ZERO, Amount::plus);
    Amount expected = packet.amount().minus(paidSum).minus(packets.refunded(id));
    Amount escrow = audit.escrowBalance(id);
    return escrow.equals(expected)
        ? List.of()
        : List.of("packet %d: escrow holds %s, expected %s".formatted(id, escrow, expected));
  }

  /**
   * The problems of one packet; ledger first, so every grab it paid is already in the store. {@code
   * closed}: the ledger has closed it (its refund may have moved 0 fen).
   */
  private List<String> check(Packet packet, boolean closed) {
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
    Optional<PacketState> state;
    switch (StateReading.of(store, id)) {
      case StateReading.Read read -> state = read.state();
      case StateReading.Unreadable unreadable -> {
        problems.add("packet %d: could not be checked: %s".formatted(id, unreadable.why()));
        return problems;
      }
    }
    if (state.isEmpty() || state.get().isTombstone()) {
      checkWithoutGrabRecords(packet, state, closed, paidSum, refunded, problems);
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
    Instant unpaidSince = clock.instant().minus(limits.unpaidAfter());
    for (GrabRecord grab : state.grabs()) {
      grabbed = grabbed.plus(grab.amount());
      Amount paidAmount = paid.get(grab.userId());
      if (paidAmount == null) {
        unpaid = unpaid.plus(grab.amount());
        if (grab.at().isBefore(unpaidSince)) {
          problems.add(
              "packet %d: %s grabbed %s at %s and is still unpaid"
                  .formatted(id, grab.userId(), grab.amount(), grab.at()));
        }
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
    Amount available = state.available();
    // The ledger refunded the packet but the store lost its close (a restart inside the fsync
    // window): the store still shows the refunded remainder as available. Its grabs answer
    // EXPIRED, so it is the refund's money, not counted twice. Found by the simulator.
    boolean closeLost =
        !state.closed()
            && refunded.isPositive()
            && packet.isExpiredAt(clock.instant())
            && available.equals(refunded);
    if (closeLost) {
      available = Amount.ZERO;
    }
    Amount accounted = paidSum.plus(unpaid).plus(refunded).plus(available);
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
                  available,
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
      boolean closed,
      Amount paidSum,
      Amount refunded,
      List<String> problems) {
    if (!packet.isExpiredAt(clock.instant())) {
      return;
    }
    // A packet paid out whole has nothing to refund (its refund moved 0 fen): once its keys age
    // out, it is settled, not stuck. Found by the simulator. One that nothing was paid from is
    // stuck only once closed: before, it may be a packet never armed, waiting for its refund
    // (reported among the stuck refunds when that is late). Closed with nothing paid and nothing
    // refunded, every share was grabbed and the grabs are gone unpaid (Redis lost them after the
    // close): the escrow holds them for their receipts.
    boolean paidWhole = paidSum.equals(packet.amount());
    if (!refunded.isPositive()
        && tombstone.isEmpty()
        && (paidSum.isPositive() || closed)
        && !paidWhole) {
      problems.add(
          "packet %d: expired, not refunded, and its grab records are gone".formatted(packet.id()));
      return;
    }
    if (tombstone.isPresent()
        && refunded.isPositive()
        && refunded.fen() < tombstone.get().closedRemainder().fen()) {
      problems.add(
          "packet %d: the close claimed %s but the escrow had only %s to refund"
              .formatted(packet.id(), tombstone.get().closedRemainder(), refunded));
    }
    // Refunded, or closed with nothing left to refund (its dead letters took the remainder): what
    // the escrow still holds beyond what the ledger paid and refunded is named here by the
    // packet's own numbers, not only by the dead letters owed it, which Redis could lose.
    boolean settled = refunded.isPositive() || (tombstone.isPresent() && closed);
    if (settled && !paidSum.plus(refunded).equals(packet.amount())) {
      problems.add(
          "packet %d: grab records are gone but paid %s + refunded %s != amount %s"
              .formatted(packet.id(), paidSum, refunded, packet.amount()));
    }
  }
}
