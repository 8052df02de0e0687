package hongbao.core.ledger;

/**
 * Another request with the same idempotency key committed first. The caller looks the stored answer
 * up again and replays it (or reports a conflict).
 */
public final class IdempotencyRaceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public IdempotencyRaceException(String message) {
    super(message);
  }
}
