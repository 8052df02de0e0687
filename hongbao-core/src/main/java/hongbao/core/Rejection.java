package hongbao.core;

/**
 * Why a request was refused before anything changed. Each maps to one error code of the API; the
 * HTTP adapter owns that table.
 */
public enum Rejection {
  INVALID_REQUEST,
  INVALID_AMOUNT,
  INVALID_COUNT,
  INVALID_EXPIRY,
  NOT_FOUND,
  INSUFFICIENT_FUNDS,
  IDEMPOTENCY_CONFLICT,
  /** The state of an object forbids the operation. */
  CONFLICT,
  DISABLED
}
