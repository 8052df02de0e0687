package hongbao.core.ledger;

/**
 * The first successful answer to an idempotent request, replayed verbatim for a retry.
 *
 * @param requestHash the digest of the request that produced it
 */
public record StoredAnswer(String requestHash, int status, String body) {}
