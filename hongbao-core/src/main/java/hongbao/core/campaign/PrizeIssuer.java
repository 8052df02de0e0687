package hongbao.core.campaign;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;

/**
 * Port: issues a won prize through the reward pipeline under its tradeNo (idempotent: issuing a
 * tradeNo again answers the first token) and returns the client's token.
 */
@FunctionalInterface
public interface PrizeIssuer {
  String issue(Campaign campaign, Round round, String userId, String tradeNo, PrizeLine prize);

  /**
   * Whether a refusal means the win can never be issued, however often it is tried: the campaign's
   * budget was spent otherwise (another sender's reward, allowance lost to a crash while
   * borrowing), or another campaign holds its tradeNo (the reward API takes any tradeNo for any
   * campaign). Such a win stays drawn and unissued; the reconciler names its campaign.
   */
  static boolean neverIssuable(RejectedException refused) {
    return refused.rejection() == Rejection.INSUFFICIENT_FUNDS
        || refused.rejection() == Rejection.IDEMPOTENCY_CONFLICT;
  }
}
