package hongbao.core.withdrawal;

import hongbao.core.Invariants;
import java.time.Instant;
import java.util.Set;

/**
 * A requested move of one withdrawal: it happens only if the withdrawal is in one of {@code from}
 * (compare-and-set), so concurrent settlers — the request thread, janitors on several instances, a
 * gateway callback — move it once and the losers learn that they lost.
 *
 * @param nextCheckAt when the janitor should look at it again; null exactly when settling
 * @param gatewayRef recorded on SUCCEEDED; null otherwise
 * @param attempt whether this move makes a transfer request (counted in {@code attempts})
 * @param attemptsSeen the move happens only if the withdrawal has made exactly this many transfer
 *     requests, or {@link #ANY_ATTEMPTS}: a NOT_FOUND is stale once another request was made
 */
public record Move(
    long id,
    Set<WithdrawalStatus> from,
    WithdrawalStatus to,
    String cause,
    Instant at,
    Instant nextCheckAt,
    String gatewayRef,
    boolean attempt,
    int attemptsSeen) {

  public static final int ANY_ATTEMPTS = -1;

  public Move {
    from = Set.copyOf(from);
    Invariants.check(!from.isEmpty(), "withdrawal %d: a move from nowhere", id);
    for (WithdrawalStatus status : from) {
      Invariants.check(status.canMoveTo(to), "withdrawal %d: no move %s -> %s", id, status, to);
    }
    Invariants.check(
        (nextCheckAt == null) == to.settled(), "withdrawal %d: next check of a %s", id, to);
    Invariants.check(
        gatewayRef == null || to == WithdrawalStatus.SUCCEEDED,
        "withdrawal %d: gateway ref on %s",
        id,
        to);
  }

  /** Marks the first transfer request as made, before it leaves. */
  static Move firstSend(long id, Instant at, Instant answerBy) {
    return new Move(
        id,
        Set.of(WithdrawalStatus.REQUESTED),
        WithdrawalStatus.SENT,
        "transfer requested (attempt 1)",
        at,
        answerBy,
        null,
        true,
        0);
  }

  /** After the gateway said NOT_FOUND: transfer again under the same out-trade-no. */
  static Move resend(Withdrawal seen, Instant at, Instant answerBy) {
    return new Move(
        seen.id(),
        Set.of(WithdrawalStatus.UNKNOWN),
        WithdrawalStatus.SENT,
        "query: NOT_FOUND; transfer requested again (attempt " + (seen.attempts() + 1) + ")",
        at,
        answerBy,
        null,
        true,
        seen.attempts());
  }

  /**
   * A request whose outcome nobody knows yet; ask the gateway at {@code checkAt}. Only if no
   * request was made since {@code seen}: a settler whose copy is stale (its janitor's lease lapsed
   * while it worked through a batch) would otherwise take another settler's fresh request, still on
   * its way, for one unanswered, hear NOT_FOUND and send yet another. A retryable refusal moves
   * this way too, its count already taken ({@link WithdrawalStore#countRefusal}).
   */
  static Move unknown(Withdrawal seen, String cause, Instant at, Instant checkAt) {
    return new Move(
        seen.id(),
        Set.of(WithdrawalStatus.SENT),
        WithdrawalStatus.UNKNOWN,
        cause,
        at,
        checkAt,
        null,
        false,
        seen.attempts());
  }

  /** The gateway's final word on the out-trade-no, true whichever request it answers. */
  static Move settle(long id, WithdrawalStatus to, String cause, Instant at, String gatewayRef) {
    return new Move(
        id,
        Set.of(WithdrawalStatus.SENT, WithdrawalStatus.UNKNOWN),
        to,
        cause,
        at,
        null,
        gatewayRef,
        false,
        ANY_ATTEMPTS);
  }

  /**
   * Too many retryable refusals, and one for every request made: each was a definite "not paid", so
   * the money may go back. Only if no request was made since {@code refused} was counted: a request
   * another settler sent meanwhile (after a NOT_FOUND) may be paid.
   */
  static Move giveUp(Withdrawal refused, String cause, Instant at) {
    return new Move(
        refused.id(),
        Set.of(WithdrawalStatus.SENT, WithdrawalStatus.UNKNOWN),
        WithdrawalStatus.FAILED,
        cause,
        at,
        null,
        null,
        false,
        refused.attempts());
  }

  /**
   * An operator's word that a withdrawal in doubt was never paid, after the gateway said NOT_FOUND
   * to a query made for it: the money goes back. Only from UNKNOWN (no request on its way) and only
   * if no request was made since {@code seen}: a request sent meanwhile may be paid.
   */
  static Move closedByOperator(Withdrawal seen, String cause, Instant at) {
    return new Move(
        seen.id(),
        Set.of(WithdrawalStatus.UNKNOWN),
        WithdrawalStatus.FAILED,
        cause,
        at,
        null,
        null,
        false,
        seen.attempts());
  }
}
