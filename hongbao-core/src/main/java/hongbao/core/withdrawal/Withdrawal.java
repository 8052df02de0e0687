package hongbao.core.withdrawal;

import hongbao.core.Invariants;
import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.Locale;

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

  /**
   * A prefix that names the service at the gateway, then the id, then a random part: 27 characters
   * of {@code [A-Z0-9]}.
   */
  static final String OUT_TRADE_NO_PREFIX = "HBW";

  /** The random part's values: eight base-36 digits. */
  private static final long NONCES = 2_821_109_907_456L; // 36^8

  public Withdrawal {
    Invariants.check(amount.isPositive(), "withdrawal %d of %s", id, amount);
    Invariants.check(id > 0, "withdrawal id %d", id);
  }

  /**
   * A new withdrawal, debited but not sent.
   *
   * @param nonce any value, drawn at random for each withdrawal (see {@link #outTradeNo})
   */
  public static Withdrawal requested(
      long id, long nonce, String userId, Amount amount, Instant at) {
    return new Withdrawal(
        id,
        userId,
        amount,
        outTradeNo(id, nonce),
        WithdrawalStatus.REQUESTED,
        null,
        "requested",
        0,
        0,
        0,
        at,
        at);
  }

  /**
   * The id, unique in this database, and a random part: a database restored from a backup hands out
   * its ids again, and the gateway keeps every out-trade-no it settled, answering a repeated one
   * with its old settlement. Without the random part a new withdrawal would be taken for paid
   * though nothing was paid for it.
   */
  public static String outTradeNo(long id, long nonce) {
    String random = Long.toString(Math.floorMod(nonce, NONCES), 36).toUpperCase(Locale.ROOT);
    return OUT_TRADE_NO_PREFIX
        + String.format(Locale.ROOT, "%016d%8s", id, random).replace(' ', '0');
  }
}
