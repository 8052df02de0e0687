package hongbao.core.grab;

import hongbao.core.money.Amount;

/** What presenting a grab receipt came to. */
public sealed interface ClaimOutcome {

  /** The ledger has paid this grab (before, or just now). */
  record Paid(Amount amount) implements ClaimOutcome {}

  /** The grab store has this grab; its payout is queued. */
  record Recorded(Amount amount) implements ClaimOutcome {}

  /** The grab was lost and is put back now; its payout is queued. */
  record Recovered(Amount amount) implements ClaimOutcome {}

  /**
   * The receipt is genuine but the packet's books cannot pay it any more (its shares went to others
   * or its remainder was refunded). Recorded for the reconciler to report.
   */
  record Refused(Amount amount, String reason) implements ClaimOutcome {}

  /** Not a receipt of this user for this packet. */
  record Invalid() implements ClaimOutcome {}

  ClaimOutcome INVALID = new Invalid();
}
