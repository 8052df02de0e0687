package hongbao.core.withdrawal;

/**
 * Where a withdrawal stands. The money is debited into the withdrawal's in-flight account at
 * REQUESTED and leaves it exactly once: to the gateway at SUCCEEDED, back to the wallet at FAILED.
 *
 * <pre>
 * REQUESTED ──► SENT ──► SUCCEEDED
 *                │  ▲ └─► FAILED
 *                ▼  │
 *              UNKNOWN ──► SUCCEEDED | FAILED
 * </pre>
 *
 * SENT is written <em>before</em> a transfer request leaves, so REQUESTED means that no request for
 * the withdrawal was ever made and it may be sent without asking the gateway first. SENT and
 * UNKNOWN may have been paid: only the gateway's answer for the out-trade-no settles them, and
 * UNKNOWN goes back to SENT (a new request with the same out-trade-no) only after the gateway said
 * NOT_FOUND.
 */
public enum WithdrawalStatus {
  REQUESTED,
  SENT,
  UNKNOWN,
  SUCCEEDED,
  FAILED;

  /** Settled: the money has left the in-flight account and the withdrawal never moves again. */
  public boolean settled() {
    return this == SUCCEEDED || this == FAILED;
  }

  /** The moves of the state machine; any other is a bug. */
  public boolean canMoveTo(WithdrawalStatus next) {
    return switch (this) {
      case REQUESTED -> next == SENT;
      case SENT -> next == UNKNOWN || next.settled();
      case UNKNOWN -> next == SENT || next.settled();
      case SUCCEEDED, FAILED -> false;
    };
  }
}
