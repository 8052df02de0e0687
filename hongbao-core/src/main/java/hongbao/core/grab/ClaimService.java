package hongbao.core.grab;

import hongbao.core.Unavailable;
import hongbao.core.ledger.ClaimPayment;
import hongbao.core.ledger.Ledger;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import hongbao.core.packet.RefusedClaim;
import hongbao.core.payout.PayoutRefused;
import hongbao.core.payout.PayoutTask;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Honours grab receipts. A receipt proves a GRABBED answer; if the grab store lost that grab (a
 * write acknowledged inside its fsync window), the receipt puts it back. The guarantee: a genuine
 * receipt is paid exactly once if the packet's books still allow it — its share not handed to
 * someone else and its amount still in escrow — and otherwise refused and reported, never paid
 * beyond the packet's amount or count.
 *
 * <p>A receipt names its packet's creation (receipts sealed before it was kept do not): one of a
 * packet the ledger created at another time is of an older packet under a reused id, and is
 * refused.
 *
 * <p>Order: the ledger first (already paid?), then the grab store (it has the grab, or takes the
 * grab's amount out of what is left and queues its payout). A packet the store closed with its
 * grabs recorded refunded its remainder without this grab: what its escrow still holds belongs to
 * the recorded grabs whose payouts are queued, so the claim is refused (and reported). For a packet
 * the store holds, or closed or forgot without its grabs, the ledger pays directly (its constraints
 * decide) from what the escrow holds beyond the payouts of the packet's other grabs still queued or
 * dead-lettered; not while a sweeper closes the packet at its expiry (counting its remainder
 * without this grab) and has not refunded it yet: then the claim is to be tried again.
 */
public final class ClaimService {

  private final Receipts receipts;
  private final PacketStore packets;
  private final GrabStore store;
  private final Arming arming;
  private final Ledger ledger;
  private final Clock clock;

  public ClaimService(
      Receipts receipts,
      PacketStore packets,
      GrabStore store,
      Arming arming,
      Ledger ledger,
      Clock clock) {
    this.receipts = receipts;
    this.packets = packets;
    this.store = store;
    this.arming = arming;
    this.ledger = ledger;
    this.clock = clock;
  }

  /** Blocking: reads the ledger and may write it. */
  public ClaimOutcome claim(long packetId, String userId, String token) {
    Optional<GrabReceipt> opened =
        receipts.open(token, userId).filter(r -> r.packetId() == packetId);
    if (opened.isEmpty()) {
      return ClaimOutcome.INVALID;
    }
    GrabReceipt receipt = opened.get();
    Optional<Packet> packet = packets.find(packetId);
    if (packet.isEmpty()) {
      return refuse(receipt, "the ledger has no such packet");
    }
    Instant created = packet.get().createdAt().truncatedTo(ChronoUnit.MILLIS);
    if (receipt.packetCreatedAt() != null && !receipt.packetCreatedAt().equals(created)) {
      // The ledger handed the id out again (restored from a backup): the grab was of a packet it
      // no longer knows, and this packet's money is not its own.
      return refuse(
          receipt,
          "the receipt is of a packet created at %s; the ledger's packet under this id was created at %s"
              .formatted(receipt.packetCreatedAt(), created));
    }
    Amount paid = packets.paidGrabs(packetId).get(userId);
    if (paid != null) {
      // Paid, yet the store may have forgotten it (paid from a batch polled before the loss):
      // put it back so that its share is not sold again.
      var record = new GrabRecord(userId, paid, receipt.grabbedAt(), receipt.seq());
      store.recover(packetId, List.of(record), false);
      return new ClaimOutcome.Paid(paid);
    }
    var grab = new GrabRecord(userId, receipt.amount(), receipt.grabbedAt(), receipt.seq());
    Recovered recovered = store.recover(packetId, List.of(grab), true).get(0);
    if (recovered instanceof Recovered.Missing && !packet.get().isExpiredAt(clock.instant())) {
      arming.rearm(packet.get());
      recovered = store.recover(packetId, List.of(grab), true).get(0);
    }
    return switch (recovered) {
      case Recovered.Done done -> new ClaimOutcome.Recovered(done.amount());
      case Recovered.AlreadyThere there -> recordedOrPaid(packetId, userId, there.amount());
      case Recovered.Exhausted exhausted ->
          refuse(receipt, "every share of the packet is taken or too little is left");
      case Recovered.OverLimit overLimit ->
          refuse(receipt, "the user has grabbed as many shares of the activity as it allows");
      case Recovered.Refunded refunded ->
          refuse(
              receipt,
              "the packet closed without this grab: its remainder, if any, went back to the"
                  + " sender, and its escrow holds only what the grabs it recorded are owed");
      case Recovered.Closed closed -> payFromLedger(receipt, packet.get());
      case Recovered.Missing missing -> payFromLedger(receipt, packet.get());
    };
  }

  /**
   * The store has the grab. It may have it because it was paid in the meantime: a worker that
   * polled the task before the loss commits it after the ledger was read above, and the rearming
   * rebuilds the packet from the ledger with that payment in it. The ledger, read again after the
   * store, tells the two apart.
   */
  private ClaimOutcome recordedOrPaid(long packetId, String userId, Amount recorded) {
    Amount paid = packets.paidGrabs(packetId).get(userId);
    return paid != null ? new ClaimOutcome.Paid(paid) : new ClaimOutcome.Recorded(recorded);
  }

  /**
   * The store closed or forgot the packet: the escrow pays if it still can, from what it holds
   * beyond the payouts still owed to the packet's other grabs. Those (waiting, or dead-lettered for
   * a retry) were counted when the packet closed; a grab that only this receipt remembers was not,
   * and paid from their money it would leave one of them unpaid for good. The store is read before
   * the ledger: another grab's payout made in between is then counted once, as paid, never missed;
   * this grab's own is seen, and answered as paid.
   */
  private ClaimOutcome payFromLedger(GrabReceipt receipt, Packet packet) {
    long id = receipt.packetId();
    Map<String, Amount> owedByUser =
        store
            .owedToOthers(id, receipt.packetCreatedAt(), receipt.userId())
            .orElseThrow(
                () ->
                    new Unavailable(
                        "redis",
                        "too many payouts wait to tell what packet " + id + " still owes",
                        null));
    Map<String, Amount> paidGrabs = packets.paidGrabs(id);
    Amount paidToUser = paidGrabs.get(receipt.userId());
    if (paidToUser != null) {
      // Paid since the claim first read the ledger: a worker committed a batch it had polled
      // before the loss. Counted among the packet's payouts below, it would refuse its own grab.
      return new ClaimOutcome.Paid(paidToUser);
    }
    Amount paid = paidGrabs.values().stream().reduce(Amount.ZERO, Amount::plus);
    // A task of a grab the ledger paid pays nothing again (its transfer key is the grab's), so it
    // owes nothing beyond what is counted as paid: a dead letter left of a grab a claim paid, or a
    // payout committed since the store was read.
    Amount owed =
        owedByUser.entrySet().stream()
            .filter(task -> !paidGrabs.containsKey(task.getKey()))
            .map(Map.Entry::getValue)
            .reduce(Amount.ZERO, Amount::plus);
    Amount free = packet.amount().minus(paid).minus(packets.refunded(id)).minus(owed);
    if (free.fen() < receipt.amount().fen()) {
      return refuse(
          receipt,
          "the escrow holds %s beyond the %s its other grabs' payouts are owed"
              .formatted(free.fen() < 0 ? Amount.ZERO : free, owed));
    }
    var task =
        new PayoutTask(
            receipt.packetId(),
            receipt.userId(),
            receipt.amount(),
            receipt.grabbedAt(),
            "claim",
            receipt.packetCreatedAt());
    try {
      // Weighed again with the escrow locked: another claim of the packet may have been paid
      // since the ledger was read, and the room it used is not there twice; or a sweeper may be
      // closing the packet, its remainder counted without this grab.
      ClaimPayment payment = ledger.payClaim(task, owed);
      Amount paidToIt = packets.paidGrabs(receipt.packetId()).get(receipt.userId());
      if (paidToIt != null) {
        return new ClaimOutcome.Paid(paidToIt);
      }
      return switch (payment) {
        case PAID -> new ClaimOutcome.Paid(receipt.amount());
        case NO_ROOM ->
            refuse(
                receipt,
                ("the escrow, weighed again under its lock, holds too little beyond the %s its"
                        + " other grabs' payouts are owed")
                    .formatted(owed));
        case CLOSING ->
            throw new Unavailable(
                "packet",
                ("packet %d is being closed at its expiry: its claims are weighed again once its"
                        + " remainder is refunded")
                    .formatted(id),
                null);
      };
    } catch (PayoutRefused refused) {
      return refuse(receipt, "the escrow cannot pay it: " + refused.getMessage());
    }
  }

  private ClaimOutcome refuse(GrabReceipt receipt, String reason) {
    packets.recordRefusedClaim(
        new RefusedClaim(
            receipt.packetId(),
            receipt.userId(),
            receipt.amount(),
            reason,
            clock.instant(),
            receipt.packetCreatedAt()));
    return new ClaimOutcome.Refused(receipt.amount(), reason);
  }
}
