package hongbao.core.ledger;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import java.util.Optional;
import java.util.function.Function;

/**
 * The contract's idempotency rule: same key and same request replays, a different request is
 * refused.
 */
public final class Idempotency {

  private Idempotency() {}

  /**
   * The stored answer to replay for this key, if any.
   *
   * @throws RejectedException IDEMPOTENCY_CONFLICT when the key was used for a different request
   */
  public static Optional<StoredAnswer> replay(Ledger ledger, IdempotencyKey key) {
    return replay(ledger::answerFor, key);
  }

  /** The same rule over any store of answers (withdrawals keep theirs beside the ledger). */
  public static Optional<StoredAnswer> replay(
      Function<IdempotencyKey, Optional<StoredAnswer>> answers, IdempotencyKey key) {
    Optional<StoredAnswer> stored = answers.apply(key);
    if (stored.isPresent() && !stored.get().requestHash().equals(key.requestHash())) {
      throw new RejectedException(
          Rejection.IDEMPOTENCY_CONFLICT, "this Idempotency-Key was used with a different request");
    }
    return stored;
  }
}
