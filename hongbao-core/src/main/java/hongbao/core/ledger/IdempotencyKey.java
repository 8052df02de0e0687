package hongbao.core.ledger;

/**
 * A client's Idempotency-Key, scoped to the user who sent it and the endpoint it was sent to.
 *
 * @param requestHash a digest of the request's JSON value, to tell a replay from a conflict
 */
public record IdempotencyKey(String userId, String endpoint, String key, String requestHash) {}
