package hongbao.core.reward;

import java.time.Duration;

/**
 * Port: a downstream issuer of coupons or items, idempotent by tradeNo. An issuer that cannot be
 * reached, times out or is over its capacity throws {@link IssuerUnavailable} (retried later); a
 * final refusal is a {@link Issue.Refused} value.
 */
public interface Issuer {

  /**
   * The longest an issuer's timeout may be set to: a synchronous send waits for the issuer while
   * its caller waits for the answer, and a replay takes a send unsettled for much longer than this
   * for one that stopped.
   */
  Duration LONGEST_CALL = Duration.ofMinutes(1);

  Issue issue(Reward reward, RewardType type);

  sealed interface Issue {
    record Issued() implements Issue {}

    record Refused(String reason) implements Issue {}
  }

  /** The issuer is down, slow or over capacity: try again later. */
  final class IssuerUnavailable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public IssuerUnavailable(String message) {
      super(message, null, false, false);
    }
  }
}
