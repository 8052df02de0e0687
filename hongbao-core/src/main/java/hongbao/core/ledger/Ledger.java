package hongbao.core.ledger;

import hongbao.core.money.Amount;
import hongbao.core.packet.ClaimDecision;
import hongbao.core.packet.ClaimResolution;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import hongbao.core.payout.PayoutTask;
import hongbao.core.payout.Payouts;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Port: the double-entry ledger, the truth about money. Every transfer carries a unique key, so a
 * replayed call moves nothing twice. No balance but the system account's can go negative.
 */
public interface Ledger extends Payouts {

  /**
   * A fresh packet number, never reused: the id of a packet outside any activity (see {@link
   * hongbao.core.packet.Packet#idOf}).
   */
  long nextPacketId();

  /**
   * In one transaction: records the packet, moves its amount from the sender's wallet to its escrow
   * and remembers {@code answer} under {@code key}.
   *
   * @throws hongbao.core.packet.RejectedException INSUFFICIENT_FUNDS
   * @throws IdempotencyRaceException when the key was stored by a concurrent request
   */
  void send(Packet packet, IdempotencyKey key, StoredAnswer answer);

  /**
   * In one transaction: credits a wallet from the system account and remembers the answer, which is
   * rendered from the new balance.
   *
   * @throws IdempotencyRaceException when the key was stored by a concurrent request
   */
  StoredAnswer topUp(
      String userId, Amount amount, IdempotencyKey key, Function<Amount, StoredAnswer> answer);

  /** The stored answer for a key (matching user and endpoint), if any. */
  Optional<StoredAnswer> answerFor(IdempotencyKey key);

  /**
   * Returns a closed packet's remainder to its sender and marks the packet closed, once: a second
   * call moves nothing.
   *
   * @return true if this call moved the money
   */
  boolean refund(long packetId, Amount remainder, Instant at);

  /**
   * Pays a grab that a claim presented the receipt of, as {@link #pay} pays one task, but in a
   * transaction that first locks the packet's escrow and pays only if the escrow keeps at least
   * {@code keep} (what the packet's other grabs' payouts are still owed) beyond the share, and the
   * packet is not between a sweeper's claim ({@link PacketStore#claimExpired}) and its refund: two
   * claims of one packet are weighed one after the other, so room for one share is given once, and
   * a claim is paid either before the sweeper reads what the ledger paid or after the refund, never
   * from the remainder in between. A grab already paid moves nothing and answers {@link
   * ClaimPayment#PAID}.
   *
   * @throws hongbao.core.payout.PayoutRefused as {@link #pay} does
   */
  ClaimPayment payClaim(PayoutTask task, Amount keep);

  /**
   * An operator's answer to a refused claim still open ({@link PacketStore#openRefusedClaims}), in
   * one transaction and once: {@link ClaimDecision#COMPENSATE} pays the claim's amount into the
   * user's wallet from the system account (kind {@link EntryKind#COMPENSATION}, under the packet;
   * its escrow is not touched), {@link ClaimDecision#DISMISS} moves nothing; either way the claim
   * is no longer reported. The same decision again answers the first resolution and moves nothing.
   *
   * @return empty when no refused claim has this number
   * @throws hongbao.core.RejectedException CONFLICT when the claim was resolved with the other
   *     decision, or its grab has been paid since it was refused (it is reported no more, and a
   *     compensation would pay it twice)
   */
  Optional<ClaimResolution> resolveRefusedClaim(
      long claimId, ClaimDecision decision, String note, Instant at);

  /** A wallet with at most {@code limit} newest entries; a wallet never funded has balance 0. */
  default Wallet wallet(String userId, int limit) {
    return wallet(userId, limit, Set.of()).wallet();
  }

  /**
   * A wallet as {@link #wallet(String, int)} returns it and, from the same snapshot, which of
   * {@code packetIds} have paid the user a share: what a reader needs to tell a grabbed share that
   * is still on its way from one already in the balance.
   */
  WalletSnapshot wallet(String userId, int limit, Collection<Long> packetIds);
}
