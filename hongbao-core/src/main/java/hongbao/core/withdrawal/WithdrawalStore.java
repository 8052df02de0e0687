package hongbao.core.withdrawal;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Port: withdrawals and their transitions, kept with the ledger so that every move of a withdrawal
 * and the money it moves commit together.
 */
public interface WithdrawalStore {

  /** A fresh withdrawal id; ids are never reused. */
  long nextId();

  /**
   * In one transaction: remembers {@code answer} under {@code key}, debits the wallet into the
   * withdrawal's in-flight account and stores it REQUESTED, to be checked at {@code checkAt}.
   *
   * @throws hongbao.core.RejectedException INSUFFICIENT_FUNDS; IDEMPOTENCY_CONFLICT ({@link
   *     #keyUsedBefore}) for a key of a withdrawal already made
   * @throws hongbao.core.ledger.IdempotencyRaceException when a concurrent request stored the key
   */
  void request(Withdrawal withdrawal, Instant checkAt, IdempotencyKey key, StoredAnswer answer);

  /** The stored answer for a key (matching user and endpoint), if any. */
  Optional<StoredAnswer> answerFor(IdempotencyKey key);

  /**
   * Whether the user made a withdrawal under this Idempotency-Key: true once made, for good, even
   * after its stored answer was purged.
   */
  boolean keyUsed(String userId, String key);

  /** The refusal of a request whose key made a withdrawal whose answer is no longer kept. */
  static RejectedException keyUsedBefore() {
    return new RejectedException(
        Rejection.IDEMPOTENCY_CONFLICT,
        "this Idempotency-Key was used for a withdrawal whose answer is no longer kept:"
            + " use a new key");
  }

  Optional<Withdrawal> find(long id);

  Optional<Withdrawal> findByOutTradeNo(String outTradeNo);

  /** Oldest first. */
  List<Transition> transitions(long id);

  /** A user's withdrawals with ids below {@code beforeId} (null: from the newest), newest first. */
  List<Withdrawal> page(String userId, Long beforeId, int limit);

  /**
   * Applies the move if the withdrawal is in one of its {@code from} statuses, in one transaction
   * with its transition row and, when settling, the money: SUCCEEDED moves the in-flight amount to
   * the gateway account, FAILED back to the wallet.
   *
   * @return the withdrawal after the move; empty when it was not in a {@code from} status
   */
  Optional<Withdrawal> move(Move move);

  /**
   * Counts one retryable refusal of a transfer request, whichever of the withdrawal's requests it
   * answers, unless the withdrawal is settled. Apart from any move: a refusal is a definite "that
   * request was not paid", true whatever the withdrawal did since the request left.
   *
   * @return the withdrawal with the refusal counted; empty when it is settled (or unknown)
   */
  Optional<Withdrawal> countRefusal(long id);

  /**
   * Takes up to {@code limit} unsettled withdrawals whose check is due at {@code now}, skipping any
   * another janitor holds, and pushes each one's next check to {@code nextCheck} (computed from the
   * withdrawal as found) in the same transaction: a lease, so two janitors do not work on one.
   */
  List<Withdrawal> claimDue(Instant now, int limit, Function<Withdrawal, Instant> nextCheck);
}
