package hongbao.core.reward;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import java.util.regex.Pattern;

/**
 * A reward type: what it is paid in, how fast it may be issued across all instances, whether it is
 * fused (not issued at all for now), which virtual queue carries it and, for coupons and items, who
 * issues it (null: the service's own coupon book).
 */
public record RewardType(
    String type,
    RewardKind kind,
    long ratePerSecond,
    long burst,
    boolean fused,
    VirtualQueue queue,
    String issuerUrl) {

  public static final Pattern NAME = Pattern.compile("[A-Z0-9_]{1,32}");
  public static final long MAX_RATE_PER_SECOND = 10_000_000;
  public static final int MAX_ISSUER_URL_CHARS = 512;

  /** The built-in CASH type as it is before an operator changes it. */
  public static final RewardType CASH =
      new RewardType("CASH", RewardKind.CASH, 2_000, 200, false, VirtualQueue.MASSIVE, null);

  public RewardType {
    if (type == null || !NAME.matcher(type).matches()) {
      throw invalid("type must be 1-32 characters of [A-Z0-9_]");
    }
    if (kind == null || queue == null) {
      throw invalid("kind and queue are required");
    }
    if (ratePerSecond < 1 || ratePerSecond > MAX_RATE_PER_SECOND) {
      throw invalid("ratePerSecond must be between 1 and " + MAX_RATE_PER_SECOND);
    }
    if (burst < 1 || burst > MAX_RATE_PER_SECOND) {
      throw invalid("burst must be between 1 and " + MAX_RATE_PER_SECOND);
    }
    if (issuerUrl != null) {
      if (kind == RewardKind.CASH) {
        throw invalid("a CASH type is issued by the ledger; issuerUrl must be null");
      }
      if (issuerUrl.length() > MAX_ISSUER_URL_CHARS
          || !(issuerUrl.startsWith("http://") || issuerUrl.startsWith("https://"))) {
        throw invalid("issuerUrl must be an http(s) URL of at most 512 characters");
      }
    }
    if ("CASH".equals(type) && kind != RewardKind.CASH) {
      throw invalid("the type CASH must be of kind CASH");
    }
  }

  public RewardType withFused(boolean fused) {
    return new RewardType(type, kind, ratePerSecond, burst, fused, queue, issuerUrl);
  }

  private static RejectedException invalid(String message) {
    return new RejectedException(Rejection.INVALID_REQUEST, message);
  }
}
