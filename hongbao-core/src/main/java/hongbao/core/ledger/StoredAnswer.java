package hongbao.core.ledger;

import java.util.Objects;

/**
 * The first successful answer to an idempotent request, replayed verbatim for a retry. Core and the
 * stores keep it without reading it: the adapter that answered the request chose {@code kind} and
 * wrote {@code payload}, and only that adapter turns them back into an answer (the HTTP layer maps
 * a kind to a status code), so no transport's notions leak into the books.
 *
 * @param requestHash the digest of the request that produced it
 * @param kind which of the answering adapter's outcomes this is; short, opaque here
 * @param payload the answer's content as that adapter encoded it; opaque here
 */
public record StoredAnswer(String requestHash, String kind, String payload) {

  public StoredAnswer {
    Objects.requireNonNull(requestHash, "requestHash");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(payload, "payload");
  }
}
