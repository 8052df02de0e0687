package hongbao.core.withdrawal;

import hongbao.core.Invariants;
import hongbao.core.money.Amount;
import java.time.Instant;

/**
 * One withdrawal as stored.
 *
 * @param outTradeNo the gateway's idempotency key: unique per withdrawal, sent unchanged on every
 *     retry, so the gateway pays it at most once whatever we resend
 * @param gatewayRef the gateway's reference of the payment; null until SUCCEEDED
 * @param cause why it entered its current status (the newest transition's cause)
 * @param attempts transfer requests made so far
 * @param refusals transfer answers "FAIL, retryable" so far
 * @param checks times the janitor took it up; drives its backoff
 */
public record Withdrawal(
    long id,
    String userId,
    Amount amount,
    String outTradeNo,
    WithdrawalStatus status,
    String gatewayRef,
    String cause,
    int attempts,
    int refusals,
    int checks,
    Instant createdAt,
    Instant updatedAt) {

  /** A prefix that names the service at the gateway, then the id: at most 32 characters. */
  static final String OUT_TRADE_NO_PREFIX = "HBW";

  public Withdrawal {
    Invariants.check(amount.isPositive(), "withdrawal %d of %s", id, amount);
    Invariants.check(id > 0, "withdrawal id %d", id);
  }

  /** A new withdrawal, debited but not sent. */
  public static Withdrawal requested(long id, String userId, Amount amount, Instant at) {
    return new Withdrawal(
        id,
        userId,
        amount,
        outTradeNo(id),
        WithdrawalStatus.REQUESTED,
        null,
        "requested",
        0,
        0,
        0,
        at,
        at);
  }

  /** Derived from the id, which is never reused: unique without a second source of truth. */
  public static String outTradeNo(long id) {
    return OUT_TRADE_NO_PREFIX + String.format("%016d", id);
  }
}
