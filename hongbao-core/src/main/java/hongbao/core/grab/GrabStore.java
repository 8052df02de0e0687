package hongbao.core.grab;

import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Port: the fast store where packets are grabbed. Every method is atomic per packet; a grab never
 * touches the ledger. A successful grab also appends a payout task for the payout workers.
 */
public interface GrabStore {

  /**
   * Grabs a share, applying in order: already grabbed, expired, not eligible, wrong password, sold
   * out. Completes on a store thread.
   */
  CompletionStage<GrabOutcome> grab(GrabAttempt attempt);

  /**
   * Puts a packet into the store. Idempotent: arming an armed (or closed) packet changes nothing
   * and returns false; arming an expired packet is refused (false).
   */
  boolean arm(ArmedPacket packet, Instant now);

  /**
   * Closes an expired packet and returns the amount nobody took. Idempotent: a second close returns
   * the same remainder. A packet that was never armed is closed with all of {@code amountIfMissing}
   * as remainder, and can no longer be armed.
   *
   * @return empty while the packet has not expired yet
   */
  Optional<Amount> close(long packetId, Amount amountIfMissing, Instant now);

  /** A consistent snapshot, or empty when the store has nothing of this packet. */
  Optional<PacketState> state(long packetId);

  /** Grabbed-but-unpaid amounts of a user, by packet id. */
  Map<Long, Amount> pendingOf(String userId);
}
