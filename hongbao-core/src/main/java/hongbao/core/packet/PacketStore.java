package hongbao.core.packet;

import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;

/** Port: packets as the ledger recorded them, and their settled history. */
public interface PacketStore {

  Optional<Packet> find(long packetId);

  /** Packets sent by a user, newest first, with ids below {@code beforeId} (null: from newest). */
  List<Packet> sentBy(String userId, Long beforeId, int limit);

  /** Ids of packets from which the user has been paid a share, newest first, below beforeId. */
  List<Long> paidTo(String userId, Long beforeId, int limit);

  /** Packets not yet armed in the fast store that have not expired, oldest first. */
  List<Packet> unarmed(Instant createdBefore, Instant now, int limit);

  void markArmed(long packetId);

  /** Marks a packet held: its grab-store state cannot be trusted (see {@code Arming}). */
  void markHeld(long packetId, String reason);

  /** Which of these packets are held. */
  Set<Long> heldAmong(Collection<Long> packetIds);

  /** Which of these packets the ledger has closed, whatever its refund moved (0 fen included). */
  Set<Long> closedAmong(Collection<Long> packetIds);

  /** Which of these packets the ledger knows at all. */
  Set<Long> knownAmong(Collection<Long> packetIds);

  /**
   * Packets not closed yet (armed or not, expired or not), ascending by id above {@code afterId}.
   */
  List<Packet> open(long afterId, int limit);

  /**
   * Expired packets whose remainder has not been refunded yet and that are not waiting for a retry
   * after a failed refund, nor claimed by another sweeper, oldest expiry first, claimed: put off
   * until {@code until}, so that a sweeper on another instance claims the next ones instead of the
   * same. A claim that lapses (its sweeper died) lets the packet be claimed again; a refund is
   * once-only either way.
   *
   * <p>A claimed packet is marked closing, under its escrow's lock: until it is refunded the ledger
   * pays no receipt's claim of it ({@link hongbao.core.ledger.Ledger#payClaim}), and one paid
   * before is in what the sweeper reads next. A released claim keeps the mark.
   */
  List<Packet> claimExpired(Instant now, Instant until, int limit);

  /**
   * Gives back packets claimed {@code until} and not refunded, to be claimed again at once; a
   * packet claimed since by another sweeper (this claim lapsed) or put off by a failed refund is
   * left as it is.
   */
  void releaseClaims(Collection<Long> packetIds, Instant until);

  /**
   * Puts off a packet's refund after a failed attempt, counting attempts and keeping the reason
   * (null: keep the last one), so that one failing packet never blocks the others.
   *
   * @param retryAt when to try again, given the attempts so far, this one included
   * @return the attempts so far, this one included
   */
  int postponeRefund(long packetId, IntFunction<Instant> retryAt, String reason);

  /**
   * Packets expired before {@code expiredBefore} and still not refunded, and held packets, with
   * why, oldest expiry first.
   */
  List<StuckRefund> stuckRefunds(Instant expiredBefore, int limit);

  /** The grabs of a packet that the ledger has paid: user id to amount. */
  Map<String, Amount> paidGrabs(long packetId);

  /** The paid grabs of a packet in grab order, for when the grab store no longer has them. */
  List<GrabView> paidGrabViews(long packetId);

  /** Records a refused claim once per (packet, user); a repeat changes nothing. */
  void recordRefusedClaim(RefusedClaim claim);

  /**
   * Refused claims whose grab the ledger has still not paid and that no operator has resolved
   * ({@link hongbao.core.ledger.Ledger#resolveRefusedClaim}), oldest first. One paid since (a
   * worker that polled its payout before the loss committed it after the claim read the ledger, or
   * an operator's retry of its dead letter) was not lost after all; a payment of the ledger's
   * packet does not pay a claim whose receipt named another packet's creation under the same id.
   */
  List<OpenRefusedClaim> openRefusedClaims(int limit);

  /** The claims of {@link #openRefusedClaims}, without their numbers. */
  default List<RefusedClaim> refusedClaims(int limit) {
    return openRefusedClaims(limit).stream().map(OpenRefusedClaim::claim).toList();
  }

  /** What went back to the sender (zero before the refund). */
  Amount refunded(long packetId);
}
