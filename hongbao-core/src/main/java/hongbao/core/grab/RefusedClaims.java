package hongbao.core.grab;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.ledger.Ledger;
import hongbao.core.packet.ClaimDecision;
import hongbao.core.packet.ClaimResolution;
import hongbao.core.packet.OpenRefusedClaim;
import hongbao.core.packet.PacketStore;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The operator's side of refused claims: the ones still reported, and the answer to one. A claim is
 * refused when the packet's books could not pay it (its share went to another grab, its remainder
 * back to the sender); the reconciler names it until its grab is paid or an operator decides:
 * compensate it from the platform's account, or dismiss it. Blocking: reads and writes the ledger.
 */
public final class RefusedClaims {

  /** The longest note an operator keeps with a decision, in characters. */
  public static final int NOTE_MAX = 500;

  private final PacketStore packets;
  private final Ledger ledger;
  private final Clock clock;

  public RefusedClaims(PacketStore packets, Ledger ledger, Clock clock) {
    this.packets = packets;
    this.ledger = ledger;
    this.clock = clock;
  }

  /** The refused claims still reported, oldest first. */
  public List<OpenRefusedClaim> open(int limit) {
    return packets.openRefusedClaims(limit);
  }

  /**
   * Decides a refused claim once ({@link Ledger#resolveRefusedClaim}).
   *
   * @param note why, 1 to {@value #NOTE_MAX} characters, not all blank, no control characters
   *     (PostgreSQL's text refuses NUL): kept with the decision
   * @return empty when no refused claim has this number
   */
  public Optional<ClaimResolution> resolve(long claimId, ClaimDecision decision, String note) {
    if (note.isBlank()
        || note.codePointCount(0, note.length()) > NOTE_MAX
        || note.codePoints().anyMatch(Character::isISOControl)) {
      throw new RejectedException(
          Rejection.INVALID_REQUEST,
          "note must be 1 to "
              + NOTE_MAX
              + " characters, not all blank, without control characters");
    }
    return ledger.resolveRefusedClaim(claimId, decision, note, clock.instant());
  }
}
