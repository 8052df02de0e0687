package hongbao.http;

import hongbao.core.Invariants;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import io.vertx.core.json.JsonObject;

/**
 * The answers an idempotent request keeps for its retries, and their status codes. The books store
 * only the kind's name and the JSON body ({@link StoredAnswer}); the status code lives here alone,
 * so a retry gets the first answer's status without the ledger knowing what one is. The names are
 * stored: renaming one strands every answer kept under it (V10 maps the statuses kept before).
 */
enum AnswerKind {
  /** 200: done, e.g. a top-up. */
  DONE(200),
  /** 201: a packet or a campaign was created. */
  CREATED(201),
  /** 202: a withdrawal was accepted and goes on in the background. */
  ACCEPTED(202);

  final int status;

  AnswerKind(int status) {
    this.status = status;
  }

  /** The answer to keep for {@code key}: this kind and {@code body}. */
  StoredAnswer answer(IdempotencyKey key, JsonObject body) {
    return new StoredAnswer(key.requestHash(), name(), body.encode());
  }

  /** The kind a kept answer was stored under. */
  static AnswerKind of(StoredAnswer answer) {
    for (AnswerKind kind : values()) {
      if (kind.name().equals(answer.kind())) {
        return kind;
      }
    }
    throw new Invariants.InvariantViolation(
        "stored answer of unknown kind '" + answer.kind() + "'");
  }
}
