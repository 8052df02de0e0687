package hongbao.core.expiry;

import hongbao.core.Unavailable;
import hongbao.core.grab.Closing;
import hongbao.core.grab.GrabStore;
import hongbao.core.grab.StoreRepair;
import hongbao.core.ledger.Ledger;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Returns what nobody grabbed to the sender. Closing in the grab store is atomic and idempotent and
 * reports the same remainder every time; the refund carries a unique key per packet and never takes
 * more than the escrow holds. So any number of sweepers on any number of instances refund each
 * packet exactly once, and a grab racing the close either gets its share (not refunded) or is told
 * the packet expired.
 *
 * <p>A receipt's claim (a grab the store lost) is not paid from the escrow between a sweeper's
 * claim of the packet ({@link PacketStore#claimExpired}) and its refund: paid after the sweeper
 * read what the ledger paid, it would be missing from the remainder the refund takes, and the
 * refund would take its share from the packet's waiting payouts. It is answered "try again", and
 * once refunded the escrow pays it if it holds more than the waiting payouts are owed.
 *
 * <p>The ledger is the truth: a packet the store no longer has (its keys aged out or were lost) is
 * closed with what the ledger says is left, once its queued payouts are paid; a held packet is
 * refunded from the ledger alone. A packet whose refund fails for any reason but an outage is put
 * off with a growing backoff and its reason kept for the reconciler, so it never blocks the packets
 * behind it; an outage stops the round (the caller backs off).
 *
 * <p>Each round claims its batch for {@link #CLAIM} ({@link PacketStore#claimExpired}), so the
 * sweepers of several instances take different packets and refund together as fast as their number
 * allows; without it they all read the oldest packets and queued on the same rows' locks, refunding
 * at one sweeper's pace however many ran. What a round does not get to (an outage stopped it, the
 * store says not yet) is given back at once.
 */
public final class ExpirySweeper {

  private static final System.Logger LOG = System.getLogger(ExpirySweeper.class.getName());
  static final Duration RETRY_MIN = Duration.ofSeconds(1);
  static final Duration RETRY_MAX = Duration.ofMinutes(10);

  /** How long a round's batch is its own; a sweeper that dies holding it delays it that much. */
  static final Duration CLAIM = Duration.ofSeconds(30);

  private final PacketStore packets;
  private final GrabStore store;
  private final Ledger ledger;
  private final StoreRepair repair;
  private final Clock clock;
  private final int batchSize;

  public ExpirySweeper(
      PacketStore packets,
      GrabStore store,
      Ledger ledger,
      StoreRepair repair,
      Clock clock,
      int batchSize) {
    this.packets = packets;
    this.store = store;
    this.ledger = ledger;
    this.repair = repair;
    this.clock = clock;
    this.batchSize = batchSize;
  }

  /** Closes and refunds one batch of expired packets; returns how many this call refunded. */
  public int sweepOnce() {
    // After the store restarted, its state of a packet can be older than the ledger: a grab the
    // ledger paid is missing and its share counts as left. Closed so, the remainder would take the
    // money of grabs the store did record and the ledger has not paid yet (the refund is bounded by
    // the escrow only), and their payouts would be refused for good. So nothing is closed before a
    // repair pass for the store's current generation has put the paid grabs back: this round runs
    // it if the repair loop has not yet.
    repair.ensureRepaired();
    Instant now = clock.instant();
    // The database keeps microseconds: the release names the claim by this very instant.
    Instant until = now.plus(CLAIM).truncatedTo(ChronoUnit.MICROS);
    List<Packet> expired = packets.claimExpired(now, until, batchSize);
    if (expired.isEmpty()) {
      return 0;
    }
    var notYet = new ArrayList<Long>();
    int refunded = 0;
    int next = 0;
    try {
      Set<Long> held = packets.heldAmong(expired.stream().map(Packet::id).toList());
      for (; next < expired.size(); next++) {
        Packet packet = expired.get(next);
        try {
          switch (sweep(packet, held.contains(packet.id()), now)) {
            case REFUNDED -> refunded++;
            case NOT_YET -> notYet.add(packet.id());
            case DONE -> {}
          }
        } catch (Unavailable outage) {
          throw outage;
        } catch (RuntimeException failure) {
          postpone(packet, now, failure.toString());
        }
      }
    } finally {
      boolean stopped = next < expired.size();
      expired.subList(next, expired.size()).forEach(p -> notYet.add(p.id()));
      release(notYet, until, stopped);
    }
    return refunded;
  }

  /** What one packet's sweep came to. */
  private enum Swept {
    REFUNDED,
    /** Nothing to do now, or put off by {@link #postpone}. */
    DONE,
    /** The store says it has not expired: to be swept again next round. */
    NOT_YET
  }

  /**
   * A claim that could not be given back lapses after {@link #CLAIM}. Once the round was {@code
   * stopped} (by an outage, or a bug that must stop the loop), nothing here may stand in the way of
   * what stopped it.
   */
  private void release(List<Long> packetIds, Instant until, boolean stopped) {
    try {
      packets.releaseClaims(packetIds, until);
    } catch (Unavailable outage) {
      LOG.log(Level.INFO, "claims of " + packetIds.size() + " packets lapse: " + outage);
    } catch (RuntimeException e) {
      if (!stopped) {
        throw e;
      }
      LOG.log(Level.WARNING, "claims of " + packetIds.size() + " packets lapse: " + e);
    }
  }

  private Swept sweep(Packet packet, boolean held, Instant now) {
    if (held) {
      return refunded(ledger.refund(packet.id(), leftInLedger(packet), now));
    }
    return switch (store.close(packet.id(), packet.createdAt(), leftInLedger(packet), now)) {
      case Closing.Closed closed -> refunded(ledger.refund(packet.id(), closed.remainder(), now));
      case Closing.Busy busy -> {
        postpone(packet, now, null);
        yield Swept.DONE;
      }
      case Closing.Held stillHeld -> {
        // Held in the store but not yet in the ledger: the arming that held it stopped between
        // the two. Marked now, as it would have been, and refunded from the ledger as any held
        // packet is; postponed, it would wait for a mark nothing else makes.
        packets.markHeld(packet.id(), "found held in the grab store at expiry");
        yield refunded(ledger.refund(packet.id(), leftInLedger(packet), now));
      }
      case Closing.NotYet notYet -> Swept.NOT_YET;
    };
  }

  /** A refund that found the packet closed already was another sweeper's (a lapsed claim). */
  private static Swept refunded(boolean moved) {
    return moved ? Swept.REFUNDED : Swept.DONE;
  }

  /** What the ledger says the escrow still owes nobody: the amount less what it paid. */
  private Amount leftInLedger(Packet packet) {
    Amount paid =
        packets.paidGrabs(packet.id()).values().stream().reduce(Amount.ZERO, Amount::plus);
    return packet.amount().minus(paid);
  }

  private void postpone(Packet packet, Instant now, String reason) {
    int attempts = packets.postponeRefund(packet.id(), n -> now.plus(backoff(n)), reason);
    if (reason != null) {
      LOG.log(
          Level.WARNING,
          "refund of packet " + packet.id() + " failed (attempt " + attempts + "): " + reason);
    }
  }

  static Duration backoff(int attempts) {
    int doublings = Math.min(Math.max(attempts - 1, 0), 20);
    Duration wait = RETRY_MIN.multipliedBy(1L << doublings);
    return wait.compareTo(RETRY_MAX) > 0 ? RETRY_MAX : wait;
  }
}
