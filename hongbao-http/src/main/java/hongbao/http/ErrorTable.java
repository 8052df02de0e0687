package hongbao.http;

import hongbao.core.RejectedException;

/** The one table from a domain rejection to its HTTP status and error code. */
final class ErrorTable {

  private ErrorTable() {}

  static ApiError toApiError(RejectedException rejected) {
    int status =
        switch (rejected.rejection()) {
          case INVALID_REQUEST, INVALID_AMOUNT, INVALID_COUNT, INVALID_EXPIRY -> 400;
          case NOT_FOUND -> 404;
          case INSUFFICIENT_FUNDS -> 402;
          case IDEMPOTENCY_CONFLICT, CONFLICT -> 409;
          case DISABLED -> 503;
        };
    return new ApiError(status, rejected.rejection().name(), rejected.getMessage());
  }
}
